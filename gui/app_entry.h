#pragma once
// The single entry point of the `rnnprof` executable: sub-commands (eval, sweep, plot, --version)
// run headless on a QCoreApplication; otherwise the desktop application starts.
namespace rnnprof::gui {

int runRnnprof(int argc, char** argv);

} // namespace rnnprof::gui

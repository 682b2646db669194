#pragma once
// Starts the desktop application: the QApplication, the main window, and the result files named
// on the command line (`rnnprof results.json other.json` opens them overlaid).
namespace rnnprof::gui {

int runDesktopApp(int argc, char** argv);
// The text of `rnnprof --help`.
[[nodiscard]] const char* usageText();

} // namespace rnnprof::gui

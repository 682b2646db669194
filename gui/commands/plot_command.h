#pragma once
// `rnnprof plot RESULTS.json [MORE.json ...] --out DIR`: every chart of the GUI, drawn by the same
// chart code, written as PNG and SVG (or the formats of --format) without a display. Several files
// are overlaid, series labelled by file and host.
namespace rnnprof::cli {

// argv[1] is "plot". Returns the process exit code.
int runPlotCommand(int argc, char** argv);

} // namespace rnnprof::cli

#pragma once
// `rnnprof report RESULTS.json [MORE.json ...] --out DIR`: DIR/index.html, one self-contained page
// (gui/report/report_page.h) with the machines, models, crossovers, notes and every chart of the
// GUI as inline SVG, for a team to read without the app. Needs no display.
namespace rnnprof::cli {

// argv[1] is "report". Returns the process exit code.
int runReportCommand(int argc, char** argv);

} // namespace rnnprof::cli

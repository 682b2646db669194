#pragma once
// The charts of `rnnprof report`: every chart `rnnprof plot` writes for the same results, drawn by
// renderAllCharts() as SVG (so the page and the chart files can never differ), each with the GUI
// tab it sits on. Needs a QApplication (offscreen works), as renderAllCharts() does.
#include "profiling/result.h"

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <vector>

namespace rnnprof::gui {

struct ReportChart {
    QString page;   // the GUI tab it is shown on: "Time vs batch"
    QString name;   // the file stem `plot` writes: "time-vs-batch-T100" (sanitised, fileNamePart())
    QByteArray svg; // the <svg> element, without the XML prolog, ready to be placed in HTML
};

// The most charts one page holds (a chart's SVG is ~100-200 kB; 300 make a page of tens of MB that
// browsers still open): above it, nothing is drawn and Error(InvalidInput) says how many there would be.
inline constexpr std::size_t kMaxReportCharts = 300;

// "the report would hold 400 charts, at most 300 ...", or "" within kMaxReportCharts; from headers
// without points (loadResultOutline()) a count the points can only add to.
[[nodiscard]] std::string reportChartCountProblem(const std::vector<SweepResult>& results);

// In the order the GUI shows them (the chart catalog's). Throws Error(InvalidInput) above
// kMaxReportCharts, Error(Io) when the scratch files cannot be written or read back.
[[nodiscard]] std::vector<ReportChart> reportCharts(const std::vector<SweepResult>& results);

} // namespace rnnprof::gui

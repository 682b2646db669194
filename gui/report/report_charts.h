#pragma once
// The charts of `rnnprof report`: every chart `rnnprof plot` writes for the same results, drawn by
// renderAllCharts() as SVG (so the page and the chart files can never differ), each with the GUI
// tab it sits on. Needs a QApplication (offscreen works), as renderAllCharts() does.
#include "profiling/result.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace rnnprof::gui {

struct ReportChart {
    QString page;   // the GUI tab it is shown on: "Time vs batch"
    QString name;   // the file stem `plot` writes: "time-vs-batch-T100" (sanitised, fileNamePart())
    QByteArray svg; // the <svg> element, without the XML prolog, ready to be placed in HTML
};

// In the order the GUI shows them (the chart catalog's). Throws what renderAllCharts() throws:
// Error(InvalidInput) above kMaxChartFiles charts, Error(Io) when scratch files cannot be written.
[[nodiscard]] std::vector<ReportChart> reportCharts(const std::vector<SweepResult>& results);

} // namespace rnnprof::gui

#pragma once
// The HTML page of `rnnprof report`: one self-contained file (no scripts, no external resources)
// that a team reads in any browser without the app. Per result file the machine (host, CPU, GPUs
// and driver, library versions), the model, the crossovers of every pair of its measured backends
// and the notes its points carry; then every chart the GUI shows, as inline SVG. Every string that
// comes from a file is HTML-escaped: host names, backend ids and notes are untrusted input.
#include "gui/report/report_charts.h"
#include "profiling/result.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace rnnprof::gui {

// `sources` names each result as the user gave it (one per result); `createdAt` is the report's
// own time (isoTimestampUtc()). Builds text only: no file is read or written.
[[nodiscard]] QString reportPage(const std::vector<SweepResult>& results, const QStringList& sources,
                                 const std::vector<ReportChart>& charts, const QString& createdAt);

} // namespace rnnprof::gui

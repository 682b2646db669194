#pragma once
// Headless charts: every chart of the catalog for the given results, written as files into a
// folder, for `rnnprof plot` and `rnnprof sweep --charts DIR`. Shape-dependent charts are written
// once per sequence length / batch size / measured backend ("time-vs-batch-T100.png"); the speedup
// pair is the default one (first measured backend vs last). A per-shape or per-backend file with
// nothing to show is skipped; charts written once are always written (their notes say why empty). Needs a
// QApplication (QT_QPA_PLATFORM=offscreen works).
#include "gui/charts/chart_export.h"
#include "gui/models/chart_selection.h"
#include "profiling/result.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace rnnprof::gui {

// The most chart files one call writes (a 100,000-point result would make tens of thousands):
// above it, nothing is written and Error(InvalidInput) says how many there would be.
inline constexpr std::size_t kMaxChartFiles = 2000;

// "the results would make 4100 chart files, at most 2000 ...", or "" within kMaxChartFiles. Given
// results without points (loadResultOutline()'s headers) it counts the charts of their plans, which
// the points can only add to: a refusal before a large file is loaded.
[[nodiscard]] std::string chartFileCountProblem(const std::vector<SweepResult>& results,
                                                const QList<ImageFormat>& formats,
                                                const std::optional<ChartSelection>& pair = std::nullopt);
// The most files renderAllCharts() writes for these arguments (files with nothing to show are
// left out, so it may write fewer): compare with kMaxChartFiles before measuring.
[[nodiscard]] std::size_t chartFileCount(const std::vector<SweepResult>& results,
                                         const QList<ImageFormat>& formats = {ImageFormat::Png,
                                                                              ImageFormat::Svg},
                                         const std::optional<ChartSelection>& pair = {});

// Returns the files written. Throws Error(Io) when the folder cannot be created or a file written
// (each file is written atomically: complete or not there). File names hold the backend id
// sanitised by fileNamePart() (profiling/files/file_name_part.h): nothing is written outside `dir`.
// `pair`, when given, is the speedup pair (its baseline, challenger and their results) instead of
// the default one.
QStringList renderAllCharts(const std::vector<SweepResult>& results, const QString& dir,
                            const QList<ImageFormat>& formats = {ImageFormat::Png, ImageFormat::Svg},
                            QSize size = kExportSize, const std::optional<ChartSelection>& pair = {});

} // namespace rnnprof::gui

#pragma once
// Writes one chart to a file as PNG (raster), SVG (QSvgGenerator) or PDF (QPdfWriter), drawn by an
// off-screen ChartView of a fixed size so that the GUI's exports and the headless command produce
// the same pictures. Needs a QApplication (any platform, offscreen included). Throws Error(Io).
#include "engine/atomic_file.h"
#include "gui/charts/chart_theme.h"
#include "gui/charts/chart_view_state.h"
#include "gui/models/chart_data.h"

#include <QRect>
#include <QSize>
#include <QString>

#include <optional>
#include <vector>

namespace rnnprof::gui {

enum class ImageFormat { Png, Svg, Pdf };

[[nodiscard]] QString suffixOf(ImageFormat format); // "png"
// From a file name's suffix (case-insensitive); nullopt for anything else.
[[nodiscard]] std::optional<ImageFormat> formatForPath(const QString& path);

inline constexpr QSize kExportSize{1100, 700};

// `footer` (exportFooter(): the results, hosts, CPU/GPU names and date) is written in a line or two
// under the chart and its notes, inside `size`. `state`: what the user changed on the chart in the
// window (hidden series, zoom, log axes, error bars), drawn the same way.
// `link`: Replace where the file is one of several a command makes in a folder (atomic_file.h).
void exportChart(const ChartData& data, const ChartStyle& style, const QString& path, ImageFormat format,
                 QSize size = kExportSize, const QString& footer = {}, const ChartViewState& state = {},
                 LinkAtPath link = LinkAtPath::Follow);

// Several charts in one file, as a page shows them (the speedup and the crossover chart): side by
// side when `orientation` is Horizontal, else stacked, each with its notes, the footer under all.
// `states[i]`, where given, is what the user changed on chart i in the window.
void exportCharts(const std::vector<ChartData>& charts, const ChartStyle& style, const QString& path,
                  ImageFormat format, QSize size, const QString& footer = {},
                  Qt::Orientation orientation = Qt::Horizontal,
                  const std::vector<ChartViewState>& states = {}, LinkAtPath link = LinkAtPath::Follow);

// Where exportCharts() puts things in a file of `size`: one rectangle per chart (plot, title and
// legend), one for its notes below it, and the footer's rectangle at the bottom (empty without one).
struct ExportLayout {
    std::vector<QRect> charts;
    std::vector<QRect> notes;
    QRect footer;
};
[[nodiscard]] ExportLayout exportLayout(const std::vector<ChartData>& charts, QSize size,
                                        const QString& footer, Qt::Orientation orientation = Qt::Horizontal);

} // namespace rnnprof::gui

#pragma once
// Writes one chart to a file as PNG (raster), SVG (QSvgGenerator) or PDF (QPdfWriter), drawn by an
// off-screen ChartView of a fixed size so that the GUI's exports and the headless command produce
// the same pictures. Needs a QApplication (any platform, offscreen included). Throws Error(Io).
#include "gui/charts/chart_data.h"
#include "gui/charts/chart_theme.h"

#include <QSize>
#include <QString>

#include <optional>

namespace rnnprof::gui {

enum class ImageFormat { Png, Svg, Pdf };

[[nodiscard]] QString suffixOf(ImageFormat format); // "png"
// From a file name's suffix (case-insensitive); nullopt for anything else.
[[nodiscard]] std::optional<ImageFormat> formatForPath(const QString& path);

inline constexpr QSize kExportSize{1100, 700};

void exportChart(const ChartData& data, const ChartStyle& style, const QString& path, ImageFormat format,
                 QSize size = kExportSize);

} // namespace rnnprof::gui

#include "gui/charts/chart_export.h"

#include "cli/path_arguments.h"
#include "engine/atomic_file.h"
#include "engine/error.h"
#include "gui/charts/chart_view.h"
#include "gui/charts/svg_compact.h"

#include <QBuffer>
#include <QChart>
#include <QCoreApplication>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QImage>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <memory>

namespace rnnprof::gui {
namespace {

[[noreturn]] void fail(const QString& path, const QString& why) {
    throw Error(
        ErrorKind::Io,
        QStringLiteral("cannot write chart %1: %2").arg(cli::readableArgument(path), why).toStdString());
}

constexpr int kNoteMargin = 24;

QFont notesFont() {
    QFont f;
    f.setPointSizeF(9.5);
    return f;
}

QFont footerFont() {
    QFont f;
    f.setPointSizeF(8.5);
    return f;
}

// Height of `text` wrapped to `width` in `font`, with a little room below (0 without text).
int textHeight(const QString& text, const QFont& font, int width) {
    if (text.isEmpty()) return 0;
    const QFontMetricsF metrics(font);
    const QRectF r = metrics.boundingRect(QRectF(0, 0, std::max(width - 2 * kNoteMargin, 40), 100000),
                                          Qt::TextWordWrap, text);
    return static_cast<int>(std::ceil(r.height())) + kNoteMargin / 2;
}

QString notesOf(const ChartData& data) {
    return data.notes.join(QLatin1Char('\n'));
}

// One chart drawn by an off-screen ChartView of the chart rectangle's size.
struct Panel {
    std::unique_ptr<ChartView> view;
    QRect chart;
    QRect notes;
    QString notesText;
};

// The vertical marker lines (crossovers) span far beyond the data for the window, whose plot area
// clips them; SVG and PDF output is not clipped there, so an exported line would cross the title,
// the legend and the footer. In exports they end at the y axis's range.
void fitMarkersToAxis(QChart& chart, const ChartData& data) {
    const QList<QAbstractAxis*> vertical = chart.axes(Qt::Vertical);
    if (vertical.isEmpty()) return;
    double lo = 0, hi = 0;
    if (const auto* v = qobject_cast<QValueAxis*>(vertical.front())) {
        lo = v->min();
        hi = v->max();
    } else if (const auto* l = qobject_cast<QLogValueAxis*>(vertical.front())) {
        lo = l->min();
        hi = l->max();
    } else {
        return;
    }
    for (QAbstractSeries* s : chart.series()) {
        auto* line = qobject_cast<QLineSeries*>(s);
        if (!line || line->count() != 2 || line->at(0).x() != line->at(1).x()) continue;
        const bool marker = std::any_of(data.markers.begin(), data.markers.end(),
                                        [&](const ChartMarker& m) { return m.x == line->at(0).x(); });
        if (marker) line->replace(QList<QPointF>{{line->at(0).x(), lo}, {line->at(0).x(), hi}});
    }
}

std::vector<Panel> makePanels(const std::vector<ChartData>& charts, const ChartStyle& style,
                              const ExportLayout& layout, const std::vector<ChartViewState>& states) {
    std::vector<Panel> panels;
    for (std::size_t i = 0; i < charts.size(); ++i) {
        Panel p{std::make_unique<ChartView>(), layout.charts[i], layout.notes[i], notesOf(charts[i])};
        ChartView& view = *p.view;
        view.setAttribute(Qt::WA_DontShowOnScreen);
        view.setFrameShape(QFrame::NoFrame);
        view.setFixedStyle(style);
        view.setChartData(charts[i]);
        if (i < states.size()) view.setViewState(states[i]);
        fitMarkersToAxis(*view.chart(), charts[i]);
        view.resize(p.chart.size());
        view.chart()->setGeometry(QRectF(QPointF(0, 0), QSizeF(p.chart.size())));
        view.scene()->setSceneRect(0, 0, p.chart.width(), p.chart.height());
        panels.push_back(std::move(p));
    }
    // QChart lays itself out through posted layout requests; the title and legend then move the
    // plot (margins), which posts one more.
    for (int round = 0; round < 3; ++round)
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    return panels;
}

// Every chart in its rectangle with its notes below, the footer at the bottom, on the style's
// background.
void paintPanels(std::vector<Panel>& panels, const QString& footer, const ExportLayout& layout,
                 const ChartStyle& style, QPainter& painter, QSize size) {
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.fillRect(QRect(QPoint(0, 0), size), style.background);
    for (Panel& p : panels) {
        const QRectF source(0, 0, p.chart.width(), p.chart.height());
        p.view->scene()->render(&painter, QRectF(p.chart), source);
        if (p.notesText.isEmpty()) continue;
        painter.setFont(notesFont());
        painter.setPen(style.foreground);
        painter.drawText(p.notes.adjusted(kNoteMargin, 0, -kNoteMargin, 0),
                         Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, p.notesText);
    }
    if (footer.isEmpty()) return;
    QColor grey = style.foreground;
    grey.setAlphaF(0.7f);
    painter.setPen(QPen(grey, 0.5));
    painter.drawLine(QPointF(kNoteMargin, layout.footer.top() + 2),
                     QPointF(size.width() - kNoteMargin, layout.footer.top() + 2));
    painter.setFont(footerFont());
    painter.drawText(layout.footer.adjusted(kNoteMargin, 6, -kNoteMargin, 0),
                     Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, footer);
}

} // namespace

QString suffixOf(ImageFormat format) {
    switch (format) {
    case ImageFormat::Png:
        return QStringLiteral("png");
    case ImageFormat::Svg:
        return QStringLiteral("svg");
    case ImageFormat::Pdf:
        return QStringLiteral("pdf");
    }
    return {};
}

std::optional<ImageFormat> formatForPath(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    for (ImageFormat f : {ImageFormat::Png, ImageFormat::Svg, ImageFormat::Pdf})
        if (suffix == suffixOf(f)) return f;
    return std::nullopt;
}

ExportLayout exportLayout(const std::vector<ChartData>& charts, QSize size, const QString& footer,
                          Qt::Orientation orientation) {
    ExportLayout layout;
    const int footerHeight = footer.isEmpty() ? 0 : textHeight(footer, footerFont(), size.width()) + 6;
    layout.footer =
        footer.isEmpty() ? QRect() : QRect(0, size.height() - footerHeight, size.width(), footerHeight);
    const int n = std::max<int>(1, int(charts.size()));
    const int areaHeight = size.height() - footerHeight;
    for (int i = 0; i < int(charts.size()); ++i) {
        const QRect panel = orientation == Qt::Horizontal
                                ? QRect(i * size.width() / n, 0, size.width() / n, areaHeight)
                                : QRect(0, i * areaHeight / n, size.width(), areaHeight / n);
        const int chartHeight =
            std::max(panel.height() / 2, panel.height() - textHeight(notesOf(charts[std::size_t(i)]),
                                                                     notesFont(), panel.width()));
        layout.charts.emplace_back(panel.topLeft(), QSize(panel.width(), chartHeight));
        layout.notes.emplace_back(panel.left(), panel.top() + chartHeight, panel.width(),
                                  panel.height() - chartHeight);
    }
    return layout;
}

void exportChart(const ChartData& data, const ChartStyle& style, const QString& path, ImageFormat format,
                 QSize size, const QString& footer, const ChartViewState& state, LinkAtPath link) {
    exportCharts({data}, style, path, format, size, footer, Qt::Horizontal, {state}, link);
}

void exportCharts(const std::vector<ChartData>& charts, const ChartStyle& style, const QString& path,
                  ImageFormat format, QSize size, const QString& footer, Qt::Orientation orientation,
                  const std::vector<ChartViewState>& states, LinkAtPath link) {
    if (charts.empty()) fail(path, QStringLiteral("there is no chart to write"));
    const ExportLayout layout = exportLayout(charts, size, footer, orientation);
    std::vector<Panel> panels = makePanels(charts, style, layout, states);
    QStringList titles;
    for (const ChartData& c : charts)
        titles << c.title;
    const QString title = titles.join(QStringLiteral("; "));

    // Drawn into memory, then written atomically (the result files' writeFileAtomically()): a full
    // disk or a missing folder leaves no truncated chart behind, and the message names the cause.
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    switch (format) {
    case ImageFormat::Png: {
        QImage image(size * 2, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(2.0);
        image.fill(style.background);
        {
            QPainter painter(&image);
            paintPanels(panels, footer, layout, style, painter, size);
        }
        if (!image.save(&buffer, "PNG")) fail(path, QStringLiteral("the PNG encoder failed"));
        break;
    }
    case ImageFormat::Svg: {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        // Qt 6.4 writes title and description into the XML unescaped, and titles and footers hold
        // backend ids and host names from files: a "<script>" there would run where the SVG is opened.
        svg.setTitle(title.toHtmlEscaped());
        svg.setDescription(QString(QStringLiteral("rnnprof chart: ") + title +
                                   (footer.isEmpty() ? QString() : QStringLiteral("\n") + footer))
                               .toHtmlEscaped());
        QPainter painter;
        if (!painter.begin(&svg)) fail(path, QStringLiteral("the SVG generator cannot start"));
        paintPanels(panels, footer, layout, style, painter, size);
        painter.end();
        buffer.close();
        bytes = compactSvg(bytes);
        break;
    }
    case ImageFormat::Pdf: {
        QPdfWriter pdf(&buffer);
        pdf.setResolution(96);
        pdf.setPageSize(
            QPageSize(QSizeF(size.width() * 72.0 / 96.0, size.height() * 72.0 / 96.0), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setTitle(title);
        pdf.setCreator(QStringLiteral("rnnprof"));
        QPainter painter;
        if (!painter.begin(&pdf)) fail(path, QStringLiteral("the PDF writer cannot start"));
        paintPanels(panels, footer, layout, style, painter, size);
        painter.end();
        break;
    }
    }
    buffer.close();
    if (bytes.isEmpty()) fail(path, QStringLiteral("nothing was drawn"));
    writeFileAtomically(cli::pathFromArgument(path),
                        std::string_view(bytes.constData(), std::size_t(bytes.size())), link);
}

} // namespace rnnprof::gui

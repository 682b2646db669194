#include "gui/charts/chart_export.h"

#include "engine/atomic_file.h"
#include "engine/error.h"
#include "gui/charts/chart_view.h"

#include <QBuffer>
#include <QChart>
#include <QCoreApplication>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <algorithm>
#include <cmath>

namespace rnnprof::gui {
namespace {

[[noreturn]] void fail(const QString& path, const QString& why) {
    throw Error(ErrorKind::Io, QStringLiteral("cannot write chart %1: %2").arg(path, why).toStdString());
}

constexpr int kNoteMargin = 24;

QFont notesFont() {
    QFont f;
    f.setPointSizeF(9.5);
    return f;
}

// Height of the notes block below the chart in a file of width `width` (0 without notes).
int notesHeight(const ChartData& data, int width) {
    if (data.notes.isEmpty()) return 0;
    const QFontMetricsF metrics(notesFont());
    const QRectF r = metrics.boundingRect(QRectF(0, 0, width - 2 * kNoteMargin, 100000), Qt::TextWordWrap,
                                          data.notes.join(QLatin1Char('\n')));
    return static_cast<int>(std::ceil(r.height())) + kNoteMargin / 2;
}

// The chart in the top `chartHeight` pixels, its notes below, on the style's background.
void paintChart(ChartView& view, const ChartData& data, const ChartStyle& style, QPainter& painter,
                QSize size, int chartHeight) {
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.fillRect(QRect(QPoint(0, 0), size), style.background);
    const QRectF chartRect(0, 0, size.width(), chartHeight);
    view.scene()->render(&painter, chartRect, chartRect);
    if (data.notes.isEmpty()) return;
    painter.setFont(notesFont());
    painter.setPen(style.foreground);
    painter.drawText(
        QRectF(kNoteMargin, chartHeight, size.width() - 2 * kNoteMargin, size.height() - chartHeight),
        Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, data.notes.join(QLatin1Char('\n')));
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

void exportChart(const ChartData& data, const ChartStyle& style, const QString& path, ImageFormat format,
                 QSize size) {
    const int chartHeight = std::max(size.height() / 2, size.height() - notesHeight(data, size.width()));
    const QSize chartSize(size.width(), chartHeight);
    ChartView view;
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.setFrameShape(QFrame::NoFrame);
    view.setFixedStyle(style);
    view.setChartData(data);
    view.resize(chartSize);
    view.chart()->setGeometry(QRectF(QPointF(0, 0), QSizeF(chartSize)));
    view.scene()->setSceneRect(0, 0, chartSize.width(), chartSize.height());
    // QChart lays itself out through posted layout requests.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);

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
            paintChart(view, data, style, painter, size, chartHeight);
        }
        if (!image.save(&buffer, "PNG")) fail(path, QStringLiteral("the PNG encoder failed"));
        break;
    }
    case ImageFormat::Svg: {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        // Qt 6.4 writes title and description into the XML unescaped, and titles hold backend ids
        // and host names from files: a "<script>" there would run where the SVG is opened.
        svg.setTitle(data.title.toHtmlEscaped());
        svg.setDescription(QStringLiteral("rnnprof chart: ") + data.title.toHtmlEscaped());
        QPainter painter;
        if (!painter.begin(&svg)) fail(path, QStringLiteral("the SVG generator cannot start"));
        paintChart(view, data, style, painter, size, chartHeight);
        painter.end();
        break;
    }
    case ImageFormat::Pdf: {
        QPdfWriter pdf(&buffer);
        pdf.setResolution(96);
        pdf.setPageSize(
            QPageSize(QSizeF(size.width() * 72.0 / 96.0, size.height() * 72.0 / 96.0), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setTitle(data.title);
        pdf.setCreator(QStringLiteral("rnnprof"));
        QPainter painter;
        if (!painter.begin(&pdf)) fail(path, QStringLiteral("the PDF writer cannot start"));
        paintChart(view, data, style, painter, size, chartHeight);
        painter.end();
        break;
    }
    }
    buffer.close();
    if (bytes.isEmpty()) fail(path, QStringLiteral("nothing was drawn"));
    writeFileAtomically(path.toStdString(), std::string_view(bytes.constData(), std::size_t(bytes.size())));
}

} // namespace rnnprof::gui

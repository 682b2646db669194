// Compacting Qt's SVG output: the picture stays the same (both files rendered by Qt's own SVG
// renderer, compared pixel by pixel) while the file shrinks, and anything that is not the flat list
// of style groups QSvgGenerator writes is left as it is.
#include "gui/charts/svg_compact.h"

#include <QBuffer>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>
#include <QSvgRenderer>
#include <QXmlStreamReader>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

namespace rnnprof::gui {
namespace {

constexpr QSize kSize(400, 300);

// What QtCharts makes QSvgGenerator write: markers each drawn under its own translation, lines a
// segment at a time, labels under a translation, and state changes that draw nothing.
QByteArray chartLikeSvg() {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(kSize);
    svg.setViewBox(QRect(QPoint(0, 0), kSize));
    QPainter painter(&svg);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(QRect(QPoint(0, 0), kSize), Qt::white);
    const QColor colors[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c)};
    for (int s = 0; s < 3; ++s) {
        painter.setPen(QPen(colors[s], 2));
        QPointF previous;
        for (int i = 0; i < 60; ++i) {
            const QPointF p(20 + i * 6.137, 150 + 80 * std::sin(i * 0.21 + s) + s * 11.3);
            if (i > 0) painter.drawLine(previous, p);
            previous = p;
        }
        painter.setPen(Qt::NoPen); // a state change that draws nothing
        painter.setBrush(colors[s]);
        for (int i = 0; i < 60; i += 3) {
            painter.save();
            painter.translate(16 + i * 6.137, 146 + 80 * std::sin(i * 0.21 + s) + s * 11.3);
            painter.drawEllipse(QRectF(0, 0, 8, 8));
            painter.restore();
        }
        painter.save();
        painter.translate(300, 20 + s * 16.5);
        painter.setPen(Qt::black);
        painter.drawText(QPointF(1, 12), QStringLiteral("series %1").arg(s));
        painter.restore();
    }
    painter.end();
    return bytes;
}

QImage rendered(const QByteArray& svg) {
    QSvgRenderer renderer(svg);
    EXPECT_TRUE(renderer.isValid());
    QImage image(kSize, QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    renderer.render(&painter);
    painter.end();
    return image;
}

bool wellFormed(const QByteArray& svg) {
    QXmlStreamReader xml(svg);
    while (!xml.atEnd())
        xml.readNext();
    return !xml.hasError();
}

TEST(SvgCompact, DrawsTheSamePictureInAThirdOfTheBytes) {
    const QByteArray original = chartLikeSvg();
    const QByteArray compact = compactSvg(original);
    ASSERT_TRUE(wellFormed(compact));
    EXPECT_LT(compact.size() * 3, original.size()) << original.size() << " -> " << compact.size();
    const QImage before = rendered(original);
    const QImage after = rendered(compact);
    // Coordinates are kept to a hundredth of a pixel and overlapping segments are stroked as one
    // path: antialiased edges may differ by a shade, nothing more.
    int worst = 0;
    double total = 0.0;
    for (int y = 0; y < kSize.height(); ++y)
        for (int x = 0; x < kSize.width(); ++x) {
            const QColor a = before.pixelColor(x, y), b = after.pixelColor(x, y);
            const int d = std::max({std::abs(a.red() - b.red()), std::abs(a.green() - b.green()),
                                    std::abs(a.blue() - b.blue())});
            worst = std::max(worst, d);
            total += d;
        }
    EXPECT_LE(worst, 16) << "of 255";
    EXPECT_LT(total / (kSize.width() * kSize.height()), 0.5) << "mean difference of 255";
}

TEST(SvgCompact, ACompactFileCompactsToItself) {
    const QByteArray compact = compactSvg(chartLikeSvg());
    EXPECT_EQ(compactSvg(compact), compact);
}

TEST(SvgCompact, AnythingButTheGeneratorsFlatListIsLeftAsItIs) {
    const QByteArray nested =
        R"(<svg><g fill="none"><g stroke="red"><g><circle cx="1" cy="1" r="1"/></g></g></g></svg>)";
    const QByteArray noGroup = R"(<svg><circle cx="1" cy="1" r="1"/></svg>)";
    const QByteArray unclosed = R"(<svg><g fill="none"><g stroke="red"><circle cx="1" cy="1" r="1"/></svg>)";
    const QByteArray trailing = R"(<svg><g fill="none"><g stroke="red"></g><rect/></g></svg>)";
    for (const QByteArray& svg : {nested, noGroup, unclosed, trailing, QByteArray()})
        EXPECT_EQ(compactSvg(svg), svg) << svg.constData();
}

} // namespace
} // namespace rnnprof::gui

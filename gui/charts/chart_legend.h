#pragma once
// The legend of every chart, drawn by rnnprof instead of QLegend: QLegend elides its labels to
// "cpu-..." (or to bare swatches) as soon as the entries do not fit on one row, and an exported
// chart cannot be read then. This one flows its entries into rows under the plot and wraps a label
// that is wider than the chart onto more lines, so every label is always shown in full (labels are
// bounded by kMaxLabelChars before they get here). A click on an entry that stands for a series
// asks for that series to be hidden or shown again (toggled()); hidden entries are drawn faded.
// It is an item of the chart's scene, so exports draw it exactly as the window does.
#include <QColor>
#include <QFont>
#include <QGraphicsObject>
#include <QString>
#include <QStringList>

#include <vector>

namespace rnnprof::gui {

struct LegendEntry {
    enum class Swatch { Line, Box, HollowMarker };
    QString text;
    QColor color;
    Swatch swatch = Swatch::Line;
    Qt::PenStyle pen = Qt::SolidLine;
    int markerShape = 0; // paletteRound() of the series: 0 circle, 1 square, 2 triangle, …; -1 none
    int series = -1;     // the ChartData series (or bar set) it stands for; -1: a guide (crossover line)
};

// `text` broken into lines no wider than `width` in `font`: at word boundaries where possible,
// anywhere inside a word longer than the line. Nothing is left out: the lines joined give `text`
// back (without the spaces at the breaks).
[[nodiscard]] QStringList wrapText(const QString& text, const QFont& font, qreal width);

class ChartLegend : public QGraphicsObject {
    Q_OBJECT
public:
    ChartLegend(std::vector<LegendEntry> entries, QColor textColor, QGraphicsItem* parent = nullptr);

    // Lays the entries out in rows at most `width` wide; returns the height they take.
    qreal layoutForWidth(qreal width);
    [[nodiscard]] qreal width() const { return m_width; }
    [[nodiscard]] const std::vector<LegendEntry>& entries() const { return m_entries; }
    // Where entry `i` is drawn, in item coordinates, and the lines of its label as drawn.
    [[nodiscard]] QRectF entryRect(std::size_t i) const;
    [[nodiscard]] QStringList entryLines(std::size_t i) const;
    void setSeriesHidden(int series, bool hidden);
    [[nodiscard]] bool isSeriesHidden(int series) const;

    [[nodiscard]] QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

signals:
    void toggled(int series);

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;

private:
    struct Placed {
        QRectF rect;
        QStringList lines;
    };
    void paintSwatch(QPainter& painter, const LegendEntry& entry, QRectF box) const;

    std::vector<LegendEntry> m_entries;
    std::vector<Placed> m_placed; // one per entry
    std::vector<int> m_hidden;    // series
    QColor m_textColor;
    QFont m_font;
    qreal m_width = 0.0;
    qreal m_height = 0.0;
};

} // namespace rnnprof::gui

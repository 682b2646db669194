#pragma once
// A QChartView that shows one ChartData: hover shows a sample's exact values, a click on a sample
// or bar reports the point it stands for, the wheel scrolls the page (QtCharts 6.4 swallows wheel
// events), and colours follow the palette unless a fixed style is set (exports, headless).
#include "gui/charts/chart_data.h"
#include "gui/charts/chart_renderer.h"
#include "gui/charts/chart_theme.h"

#include <QChartView>
#include <QStringList>

#include <optional>

namespace rnnprof::gui {

class ChartView : public QChartView {
    Q_OBJECT
public:
    explicit ChartView(QWidget* parent = nullptr);
    ~ChartView() override;

    void setChartData(ChartData data);
    [[nodiscard]] const ChartData& chartData() const { return m_data; }
    // nullopt: follow the widget's palette.
    void setFixedStyle(std::optional<ChartStyle> style);
    [[nodiscard]] ChartStyle currentStyle() const;

    // Hides or shows everything drawn for series `series` of the chart data (a click on its legend
    // entry toggles it). Kept across redraws for as long as a series of that name is drawn.
    void setSeriesVisible(int series, bool visible);
    [[nodiscard]] bool isSeriesVisible(int series) const;
    [[nodiscard]] const RenderedChart& rendered() const { return m_rendered; }

    // The sample within `radius` pixels of `viewPos`, nearest first; an invalid ref when none.
    [[nodiscard]] PointRef sampleAt(QPointF viewPos, QString* tooltip = nullptr, double radius = 10.0) const;
    // The view position of a sample (for tests and keyboard navigation).
    [[nodiscard]] QPointF positionOf(int series, int sample) const;

signals:
    void pointClicked(rnnprof::gui::PointRef ref);

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void rerender();
    // Grows the minimum height so that the title and the whole legend fit above and below a plot.
    void fitMinimumHeight();

    ChartData m_data;
    RenderedChart m_rendered;
    std::optional<ChartStyle> m_fixedStyle;
    QStringList m_hiddenSeries; // names of the series the user hid
};

} // namespace rnnprof::gui

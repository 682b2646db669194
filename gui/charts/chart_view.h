#pragma once
// A QChartView that shows one ChartData: hover shows a sample's exact values, a click on a sample
// or bar reports the point it stands for, the wheel scrolls the page (QtCharts 6.4 swallows wheel
// events), and colours follow the palette unless a fixed style is set (exports, headless).
// Line charts zoom with a rubber band (drag), Ctrl+wheel or the keyboard (+, -, arrows pan) and pan
// with the middle button; the zoom survives refreshes while a sweep runs. The right button opens
// a context menu (chart_view_menu.cpp): export, copy image, reset zoom, log/linear axes, p10-p90
// error bars. The selected point is ringed.
#include "gui/charts/chart_renderer.h"
#include "gui/charts/chart_theme.h"
#include "gui/charts/chart_view_state.h"
#include "gui/models/chart_data.h"

#include <QChartView>
#include <QStringList>

#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QMenu;
QT_END_NAMESPACE

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

    // Hides or shows everything drawn for series `series` of the chart data, or for bar set
    // `series` of a bar chart (a click on its legend entry toggles it; a hidden bar set draws no
    // bars and the value axis fits the rest). Kept across redraws for as long as a series or bar
    // set of that name is drawn.
    void setSeriesVisible(int series, bool visible);
    [[nodiscard]] bool isSeriesVisible(int series) const;
    [[nodiscard]] const RenderedChart& rendered() const { return m_rendered; }

    // The sample within `radius` pixels of `viewPos`, nearest first; an invalid ref when none.
    [[nodiscard]] PointRef sampleAt(QPointF viewPos, QString* tooltip = nullptr, double radius = 10.0) const;
    // The view position of a sample (for tests and keyboard navigation).
    [[nodiscard]] QPointF positionOf(int series, int sample) const;

    // The menu of the right button, built anew each time (its checks show the current state).
    [[nodiscard]] std::unique_ptr<QMenu> makeContextMenu();
    // The axis ranges shown now: x (min, max) and y (min, max); zero ranges for bar charts.
    using Ranges = ChartRanges;
    [[nodiscard]] Ranges shownRanges() const;
    // Zooms into the rectangle `viewRect` (view pixels), as the rubber band does; line charts only.
    void zoomTo(QRectF viewRect);
    void panBy(QPointF pixels);
    void resetZoom();
    [[nodiscard]] bool isZoomed() const { return m_state.zoom.has_value(); }
    void setErrorBarsShown(bool shown);
    [[nodiscard]] bool errorBarsShown() const { return m_state.errorBars; }
    // Overrides the chart's own choice of a log or linear axis; nullopt: the chart's choice.
    void setLogAxes(std::optional<bool> logX, std::optional<bool> logY);
    [[nodiscard]] bool logX() const;
    [[nodiscard]] bool logY() const;
    // Everything the user changed on this view, to draw another view (an export) the same way.
    [[nodiscard]] const ChartViewState& viewState() const { return m_state; }
    void setViewState(ChartViewState state);
    // Rings the sample of `ref` (none when invalid or not on this chart).
    void setHighlightedPoint(const PointRef& ref);
    [[nodiscard]] PointRef highlightedPoint() const { return m_highlight; }

signals:
    void pointClicked(rnnprof::gui::PointRef ref);
    void exportRequested(); // the menu's Export...: the window asks for a file

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void rerender();
    [[nodiscard]] QString seriesName(int series) const;
    // m_data as drawn: the state's axis overrides and error bars, hidden bar sets emptied.
    [[nodiscard]] ChartData shownData() const;
    // Grows the minimum height so that the title and the whole legend fit above and below a plot.
    void fitMinimumHeight();
    // Elides the labels of a horizontal bar chart's category axis to the room QtCharts gives them.
    void fitCategoryLabels();
    // Puts the short y title (ChartData::yTitleShort) on a plot too short for the whole one.
    void fitValueAxisTitle();
    void keepZoom(); // remembers the ranges after QtCharts zoomed or scrolled
    void addHighlight();

    ChartData m_data;
    RenderedChart m_rendered;
    std::optional<ChartStyle> m_fixedStyle;
    ChartViewState m_state; // the zoom is re-applied after each render
    PointRef m_highlight;
    std::optional<QPointF> m_panFrom; // middle-button drag
};

} // namespace rnnprof::gui

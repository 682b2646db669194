#pragma once
// One tab of the chart area: the choices of its ChartPageSpec as combo boxes above its charts. It
// rebuilds its chart data from the ResultStore on refresh() (the window throttles calls while a
// sweep runs) and reports clicked points. Pages following the selection (the breakdown) also show
// the selected point's details.
#include "gui/models/chart_catalog.h"

#include <QWidget>

#include <functional>
#include <map>
#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
QT_END_NAMESPACE

namespace rnnprof::gui {

class BreakdownDrill;
class ChartView;
class ResultStore;

class ChartPage : public QWidget {
    Q_OBJECT
public:
    ChartPage(const ChartPageSpec& spec, const ResultStore& store, QWidget* parent = nullptr);
    ~ChartPage() override;

    void refresh();
    // Rings the point on every chart of the page; pages following the selection rebuild.
    void setSelectedPoint(const PointRef& ref);
    // Where the points the results table shows come from (chart_filter.h), asked at each refresh;
    // it answers nullopt for every point. Refreshes.
    using ShownPoints = std::function<std::optional<std::vector<PointRef>>()>;
    void setShownPoints(ShownPoints shown);
    // Chooses the speedup pair (kept when the results offer both sides, else the default).
    void setPair(const QString& baseline, int baselineResult, const QString& challenger,
                 int challengerResult);
    [[nodiscard]] const ChartPageSpec& spec() const { return m_spec; }
    [[nodiscard]] const ChartSelection& selection() const { return m_selection; }
    [[nodiscard]] const std::vector<ChartView*>& views() const { return m_views; }
    [[nodiscard]] QComboBox* selector(Selector kind) const;
    // The notes shown below chart `index` (dropped values, crossovers, why it is empty).
    [[nodiscard]] QString notesText(std::size_t index) const;
    // The selected point's details, kernels and time line; null on pages not following the selection.
    [[nodiscard]] BreakdownDrill* drill() const { return m_drill; }

signals:
    void pointClicked(rnnprof::gui::PointRef ref);

private:
    void fillSelectors(const ChartOptions& options);
    void readSelectors();

    const ChartPageSpec& m_spec;
    const ResultStore& m_store;
    ChartSelection m_selection;
    std::vector<PairSideChoice> m_sides; // what the baseline and challenger boxes list, in order
    std::map<Selector, QComboBox*> m_selectors;
    std::vector<ChartView*> m_views;
    std::vector<QWidget*> m_noteAreas; // the scroll area around each of m_notes
    std::vector<QLabel*> m_notes;      // one per view, below it
    BreakdownDrill* m_drill = nullptr; // pages following the selection: the selected point, drilled down
    ShownPoints m_shown;
};

} // namespace rnnprof::gui

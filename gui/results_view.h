#pragma once
// The results table widget: sortable, filterable by text, numbers shown with units and the columns
// that differ first (results_columns.h), a column chooser, Tab leaves it; Ctrl+C copies the
// selection as tab-separated text with a header (the CSV's exact values); reports the point of the current
// row so charts and the breakdown can follow, and selects a point's row on request.
#include "gui/models/chart_data.h"

#include <QWidget>

#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
QT_END_NAMESPACE

namespace rnnprof::gui {

class ResultsModel;

class ResultsView : public QWidget {
    Q_OBJECT
public:
    explicit ResultsView(ResultsModel& model, QWidget* parent = nullptr);
    ~ResultsView() override;

    void selectPoint(const PointRef& ref);
    void copySelection() const;
    [[nodiscard]] QTableView* table() const { return m_table; }
    [[nodiscard]] QSortFilterProxyModel* proxy() const { return m_proxy; }
    // Hides the "source" column while only one result is loaded.
    void setSourceColumnVisible(bool visible);
    // The points of the rows the filter lets through; nullopt while there is no filter text.
    [[nodiscard]] std::optional<std::vector<PointRef>> shownPoints() const;

signals:
    void pointActivated(rnnprof::gui::PointRef ref);
    void filterChanged(); // the charts follow the table's filter

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // Varying columns first (results_columns.h), unless the user has moved a column.
    void arrangeColumnsByVariation();

    ResultsModel& m_model;
    bool m_arranging = false;
    bool m_userOrdered = false;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    QLineEdit* m_filter = nullptr;
};

} // namespace rnnprof::gui

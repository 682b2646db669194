#pragma once
// The results table: one row per point of every loaded result, with a "source" column followed by
// exactly the CSV export's columns and values (each row is built from csvRow(), the cells the CSV
// file is written from, so the table and the file never disagree). Failed, ineligible and other
// non-ok points are greyed and carry their reason as tooltip. Sort through a QSortFilterProxyModel
// on SortRole: the cells' typed values, so numbers sort as numbers and text as text.
#include "gui/models/chart_data.h"
#include "profiling/files/result_files.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <vector>

namespace rnnprof::gui {

class ResultStore;

class ResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role { SortRole = Qt::UserRole + 1, PointRefRole, OkRole };

    explicit ResultsModel(const ResultStore& store, QObject* parent = nullptr);
    ~ResultsModel() override;

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                      int role = Qt::DisplayRole) const override;

    [[nodiscard]] PointRef refAt(int row) const;
    [[nodiscard]] int rowOf(const PointRef& ref) const; // -1 when absent
    [[nodiscard]] int columnOf(const QString& name) const;

private:
    struct Row {
        PointRef ref;
        QStringList text;            // source, then each CSV cell as the file spells it
        std::vector<CsvValue> cells; // the CSV cells, typed: for sorting and alignment
    };
    void rebuild();
    [[nodiscard]] Row makeRow(const PointRef& ref) const;
    void onPointAppended(int result, int point);
    void onResultUpdated(int result);

    const ResultStore& m_store;
    QStringList m_columns;
    std::vector<Row> m_rows;
};

} // namespace rnnprof::gui

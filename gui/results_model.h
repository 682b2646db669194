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

#include <map>
#include <optional>
#include <utility>
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
    // Per column, whether the rows hold at least two different values (kept as rows come and go).
    [[nodiscard]] const std::vector<bool>& columnsVary() const { return m_varies; }

private:
    // A row's cells are made from its point when shown (csvRow()) and kept for the rows shown
    // lately, never for all: a table of 100,000 points would otherwise hold ten times the file.
    struct Row {
        QStringList text;            // source, then each CSV cell as the file spells it
        std::vector<CsvValue> cells; // the CSV cells, typed: for alignment (sorting: sortKeys())
    };
    void rebuild();
    [[nodiscard]] std::vector<CsvValue> cellsOf(const PointRef& ref) const;
    [[nodiscard]] CsvValue cellOf(const PointRef& ref, int csvColumn) const;
    [[nodiscard]] const Row& rowAt(int row) const;
    // What sorting compares in `column`, for every row: made once per column sorted by.
    [[nodiscard]] const std::vector<QVariant>& sortKeys(int column) const;
    void noteVariation(const PointRef& ref);
    void measureVariation();
    void forgetCaches(int result);
    void onPointAppended(int result, int point);
    void onResultUpdated(int result);

    const ResultStore& m_store;
    QStringList m_columns;
    std::vector<PointRef> m_refs; // the rows: by result, then point
    std::vector<bool> m_varies;
    std::optional<std::pair<QString, std::vector<CsvValue>>> m_firstRow; // what variation compares with
    mutable std::map<std::pair<int, int>, Row> m_shown;      // cells of rows shown lately, by point
    mutable std::map<int, std::vector<QVariant>> m_sortKeys; // by column
};

} // namespace rnnprof::gui

#pragma once
// How the results table presents the CSV columns to people without changing them: numbers with
// units ("353 µs", "41.6 MiB", "1.82k seq/s"), the columns whose values differ between rows before
// those that are the same in every row (the model of a sweep is one, so its columns go last), and
// a menu to show or hide columns. The model keeps the CSV's exact text (copy and export use it);
// only what is drawn changes.
#include <QStyledItemDelegate>

#include <vector>

QT_BEGIN_NAMESPACE
class QAbstractItemModel;
class QHeaderView;
class QMenu;
class QTableView;
QT_END_NAMESPACE

namespace rnnprof::gui {

// The text shown for `value` (a cell's typed value, ResultsModel::SortRole) in CSV column `column`.
[[nodiscard]] QString formatResultCell(const QString& column, const QVariant& value);

// Columns in display order: those that vary (`varies[c]`: at least two different values among the
// rows) first, then the constant ones, each group in model order.
[[nodiscard]] std::vector<int> varyingColumnsFirst(const std::vector<bool>& varies);
// Moves the header's sections into `order` (logical indices).
void arrangeColumns(QHeaderView& header, const std::vector<int>& order);
// A checkable entry per column of `table`: unchecking hides the column.
void fillColumnMenu(QMenu& menu, QTableView& table);

// Draws ResultsModel cells as formatResultCell() spells them.
class ResultsCellDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit ResultsCellDelegate(QObject* parent = nullptr);
    [[nodiscard]] QString textFor(const QModelIndex& index) const;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;
};

} // namespace rnnprof::gui

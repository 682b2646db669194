#include "gui/results_columns.h"

#include "gui/models/chart_data.h"
#include "gui/results_model.h"

#include <QAbstractItemModel>
#include <QHeaderView>
#include <QMenu>
#include <QTableView>

namespace rnnprof::gui {
namespace {

bool isNumeric(const QVariant& v) {
    switch (v.typeId()) {
    case QMetaType::Double:
    case QMetaType::LongLong:
    case QMetaType::ULongLong:
    case QMetaType::Int:
        return true;
    default:
        return false;
    }
}

} // namespace

QString formatResultCell(const QString& column, const QVariant& value) {
    if (!isNumeric(value)) return value.toString();
    const double v = value.toDouble();
    if (column.endsWith(QStringLiteral("_ms"))) return formatMs(v);
    if (column.endsWith(QStringLiteral("_bytes"))) return formatBytesQ(v);
    if (column == QStringLiteral("sequences_per_s")) return formatNumber(v) + QStringLiteral(" seq/s");
    if (column == QStringLiteral("tokens_per_s")) return formatNumber(v) + QStringLiteral(" tok/s");
    if (column == QStringLiteral("gflops")) return formatNumber(v) + QStringLiteral(" GFLOP/s");
    if (column == QStringLiteral("cv")) return QStringLiteral("%1 %").arg(formatFixed(v * 100.0, 1));
    if (column.startsWith(QStringLiteral("max_")) && column.endsWith(QStringLiteral("_err")))
        return QString::number(v, 'g', 3);
    if (value.typeId() == QMetaType::Double || v >= 1e4) return formatNumber(v);
    return value.toString(); // small whole numbers: batch, seq_len, layers, repeats
}

std::vector<int> varyingColumnsFirst(const std::vector<bool>& varies) {
    std::vector<int> varying, constant;
    for (int c = 0; c < static_cast<int>(varies.size()); ++c)
        (varies[std::size_t(c)] ? varying : constant).push_back(c);
    varying.insert(varying.end(), constant.begin(), constant.end());
    return varying;
}

void arrangeColumns(QHeaderView& header, const std::vector<int>& order) {
    for (int visual = 0; visual < static_cast<int>(order.size()); ++visual) {
        const int from = header.visualIndex(order[std::size_t(visual)]);
        if (from >= 0 && from != visual) header.moveSection(from, visual);
    }
}

void fillColumnMenu(QMenu& menu, QTableView& table) {
    menu.clear();
    const QAbstractItemModel* model = table.model();
    QHeaderView* header = table.horizontalHeader();
    for (int visual = 0; model && visual < header->count(); ++visual) {
        const int column = header->logicalIndex(visual);
        QAction* a = menu.addAction(model->headerData(column, Qt::Horizontal).toString());
        a->setCheckable(true);
        a->setChecked(!table.isColumnHidden(column));
        QObject::connect(a, &QAction::toggled, &table,
                         [&table, column](bool shown) { table.setColumnHidden(column, !shown); });
    }
}

ResultsCellDelegate::ResultsCellDelegate(QObject* parent) : QStyledItemDelegate(parent) {}

QString ResultsCellDelegate::textFor(const QModelIndex& index) const {
    const QString column = index.model()->headerData(index.column(), Qt::Horizontal).toString();
    const QVariant value = index.data(ResultsModel::SortRole);
    return isNumeric(value) ? formatResultCell(column, value) : index.data(Qt::DisplayRole).toString();
}

void ResultsCellDelegate::initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const {
    QStyledItemDelegate::initStyleOption(option, index);
    option->text = textFor(index);
}

} // namespace rnnprof::gui

#include "gui/table_copy.h"

#include <QAbstractItemModel>

#include <map>
#include <set>

namespace rnnprof::gui {
namespace {

QString cell(QString s) {
    s.replace(QLatin1Char('\t'), QLatin1Char(' '));
    s.replace(QLatin1Char('\n'), QLatin1Char(' '));
    s.remove(QLatin1Char('\r'));
    return s;
}

} // namespace

QString selectionAsTsv(const QAbstractItemModel& model, const QModelIndexList& selected) {
    if (selected.isEmpty()) return {};
    std::set<int> columns;
    std::map<int, std::map<int, QString>> rows;
    for (const QModelIndex& index : selected) {
        if (!index.isValid() || index.model() != &model) continue;
        columns.insert(index.column());
        rows[index.row()][index.column()] = cell(index.data(Qt::DisplayRole).toString());
    }
    if (rows.empty()) return {};
    QStringList header;
    for (int c : columns)
        header << cell(model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
    QString text = header.join(QLatin1Char('\t')) + QLatin1Char('\n');
    for (const auto& [row, cells] : rows) {
        QStringList line;
        for (int c : columns) {
            const auto it = cells.find(c);
            line << (it == cells.end() ? QString() : it->second);
        }
        text += line.join(QLatin1Char('\t')) + QLatin1Char('\n');
    }
    return text;
}

} // namespace rnnprof::gui

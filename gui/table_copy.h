#pragma once
// The text Ctrl+C puts on the clipboard from a table selection: a header line of the selected
// columns, then one line per selected row, tab-separated (pastes into spreadsheets as cells).
#include <QModelIndexList>
#include <QString>

QT_BEGIN_NAMESPACE
class QAbstractItemModel;
QT_END_NAMESPACE

namespace rnnprof::gui {

[[nodiscard]] QString selectionAsTsv(const QAbstractItemModel& model, const QModelIndexList& selected);

} // namespace rnnprof::gui

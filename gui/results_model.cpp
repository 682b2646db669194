#include "gui/results_model.h"

#include "gui/metatypes.h"
#include "gui/models/chart_selection.h"
#include "gui/models/result_store.h"

#include <QGuiApplication>
#include <QPalette>

namespace rnnprof::gui {
namespace {

QString sourceOf(const SweepResult& r) {
    if (!r.label.empty()) return QString::fromStdString(r.label);
    return QString::fromStdString(r.host.hostname);
}

bool isNumber(const CsvValue& v) {
    return std::holds_alternative<std::int64_t>(v) || std::holds_alternative<std::uint64_t>(v) ||
           std::holds_alternative<double>(v);
}

// What the proxy compares: the value itself; an empty cell as empty text, as it is shown.
QVariant sortKey(const CsvValue& v) {
    struct Key {
        QVariant operator()(std::monostate) const { return QString(); }
        QVariant operator()(bool b) const { return b; }
        QVariant operator()(std::int64_t n) const { return qlonglong(n); }
        QVariant operator()(std::uint64_t n) const { return qulonglong(n); }
        QVariant operator()(double x) const { return x; }
        QVariant operator()(const std::string& s) const { return QString::fromStdString(s); }
    };
    return std::visit(Key{}, v);
}

} // namespace

ResultsModel::ResultsModel(const ResultStore& store, QObject* parent)
    : QAbstractTableModel(parent), m_store(store) {
    m_columns << QStringLiteral("source");
    for (const auto& c : csvColumns())
        m_columns << QString::fromStdString(c);
    connect(&store, &ResultStore::resultsReset, this, [this] {
        beginResetModel();
        rebuild();
        endResetModel();
    });
    connect(&store, &ResultStore::pointAppended, this, &ResultsModel::onPointAppended);
    connect(&store, &ResultStore::resultUpdated, this, &ResultsModel::onResultUpdated);
    rebuild();
}

ResultsModel::~ResultsModel() = default;

void ResultsModel::rebuild() {
    m_rows.clear();
    const auto& results = m_store.results();
    for (int r = 0; r < static_cast<int>(results.size()); ++r)
        for (int i = 0; i < static_cast<int>(results[std::size_t(r)].points.size()); ++i)
            m_rows.push_back(makeRow({r, i}));
}

ResultsModel::Row ResultsModel::makeRow(const PointRef& ref) const {
    const auto& result = m_store.results()[std::size_t(ref.result)];
    // The store keeps a result's points when it replaces it (finishLive()); empty cells otherwise.
    Row row{ref, QStringList{sourceOf(result)},
            ref.point < static_cast<int>(result.points.size())
                ? csvRow(result, result.points[std::size_t(ref.point)])
                : std::vector<CsvValue>(csvColumns().size())};
    for (const CsvValue& cell : row.cells)
        row.text << QString::fromStdString(csvText(cell));
    return row;
}

void ResultsModel::onPointAppended(int result, int point) {
    // Rows are ordered by result, then point: insert after the last row of `result`.
    int at = 0;
    while (at < static_cast<int>(m_rows.size()) &&
           (m_rows[std::size_t(at)].ref.result < result ||
            (m_rows[std::size_t(at)].ref.result == result && m_rows[std::size_t(at)].ref.point < point)))
        ++at;
    beginInsertRows({}, at, at);
    m_rows.insert(m_rows.begin() + at, makeRow({result, point}));
    endInsertRows();
}

void ResultsModel::onResultUpdated(int result) {
    int first = -1, last = -1;
    for (int i = 0; i < static_cast<int>(m_rows.size()); ++i) {
        Row& row = m_rows[std::size_t(i)];
        if (row.ref.result != result) continue;
        row = makeRow(row.ref);
        if (first < 0) first = i;
        last = i;
    }
    if (first >= 0) emit dataChanged(index(first, 0), index(last, columnCount() - 1));
}

int ResultsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ResultsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_columns.size());
}

QVariant ResultsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const Row& row = m_rows[std::size_t(index.row())];
    const PointResult* p = m_store.point(row.ref);
    // Column 0 is the source; the CSV cells follow.
    const CsvValue* cell = index.column() > 0 ? &row.cells[std::size_t(index.column() - 1)] : nullptr;
    switch (role) {
    case Qt::DisplayRole:
        return row.text.at(index.column());
    case SortRole:
        return cell ? sortKey(*cell) : QVariant(row.text.at(0));
    case PointRefRole:
        return QVariant::fromValue(row.ref);
    case OkRole:
        return p && p->ok();
    case Qt::ToolTipRole:
        return pointTooltip(m_store.results(), row.ref);
    case Qt::ForegroundRole:
        if (p && !p->ok()) return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case Qt::TextAlignmentRole:
        return cell && isNumber(*cell) ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                       : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant ResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::DisplayRole && section >= 0 &&
        section < m_columns.size())
        return m_columns.at(section);
    if (orientation == Qt::Vertical && role == Qt::DisplayRole && section >= 0 && section < rowCount())
        return section + 1;
    return {};
}

PointRef ResultsModel::refAt(int row) const {
    return row >= 0 && row < rowCount() ? m_rows[std::size_t(row)].ref : PointRef{};
}

int ResultsModel::rowOf(const PointRef& ref) const {
    for (int i = 0; i < rowCount(); ++i)
        if (m_rows[std::size_t(i)].ref == ref) return i;
    return -1;
}

int ResultsModel::columnOf(const QString& name) const {
    return static_cast<int>(m_columns.indexOf(name));
}

} // namespace rnnprof::gui

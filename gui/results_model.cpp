#include "gui/results_model.h"

#include "gui/metatypes.h"
#include "gui/models/chart_selection.h"
#include "gui/models/result_store.h"

#include <QGuiApplication>
#include <QPalette>

#include <algorithm>
#include <cmath>

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

// Two cells hold the same value; NaN, "not there", equals NaN.
bool sameCell(const CsvValue& a, const CsvValue& b) {
    if (const auto* x = std::get_if<double>(&a))
        if (const auto* y = std::get_if<double>(&b)) return *x == *y || (std::isnan(*x) && std::isnan(*y));
    return a == b;
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
    m_refs.clear();
    forgetCaches(-1);
    const auto& results = m_store.results();
    for (int r = 0; r < static_cast<int>(results.size()); ++r)
        for (int i = 0; i < static_cast<int>(results[std::size_t(r)].points.size()); ++i)
            m_refs.push_back({r, i});
    measureVariation();
}

// The store keeps a result's points when it replaces it (finishLive()); empty cells otherwise.
std::vector<CsvValue> ResultsModel::cellsOf(const PointRef& ref) const {
    const PointResult* p = m_store.point(ref);
    return p ? csvRow(m_store.results()[std::size_t(ref.result)], *p)
             : std::vector<CsvValue>(csvColumns().size());
}

CsvValue ResultsModel::cellOf(const PointRef& ref, int column) const {
    const PointResult* p = m_store.point(ref);
    return p ? csvCell(m_store.results()[std::size_t(ref.result)], *p, std::size_t(column)) : CsvValue();
}

const ResultsModel::Row& ResultsModel::rowAt(int row) const {
    const PointRef& ref = m_refs[std::size_t(row)];
    const std::pair<int, int> key{ref.result, ref.point};
    if (const auto it = m_shown.find(key); it != m_shown.end()) return it->second;
    // A screenful of rows is a few dozen; the cap only bounds what scrolling through leaves behind.
    constexpr std::size_t kShownRows = 4096;
    if (m_shown.size() >= kShownRows) m_shown.clear();
    Row made{QStringList{sourceOf(m_store.results()[std::size_t(ref.result)])}, cellsOf(ref)};
    for (const CsvValue& cell : made.cells)
        made.text << QString::fromStdString(csvText(cell));
    return m_shown.emplace(key, std::move(made)).first->second;
}

const std::vector<QVariant>& ResultsModel::sortKeys(int column) const {
    if (const auto it = m_sortKeys.find(column); it != m_sortKeys.end()) return it->second;
    if (m_sortKeys.size() >= 4) m_sortKeys.clear(); // the columns sorted by lately
    std::vector<QVariant> keys;
    keys.reserve(m_refs.size());
    for (const PointRef& ref : m_refs)
        keys.push_back(column == 0 ? QVariant(sourceOf(m_store.results()[std::size_t(ref.result)]))
                                   : sortKey(cellOf(ref, column - 1)));
    return m_sortKeys.emplace(column, std::move(keys)).first->second;
}

void ResultsModel::noteVariation(const PointRef& ref) {
    const QString source = sourceOf(m_store.results()[std::size_t(ref.result)]);
    if (!m_firstRow) {
        m_firstRow.emplace(source, cellsOf(ref));
        return;
    }
    if (source != m_firstRow->first) m_varies[0] = true;
    // Only the columns not yet seen to vary: once most do, a row costs a few cells.
    for (std::size_t c = 0; c < m_firstRow->second.size(); ++c)
        if (!m_varies[c + 1] && !sameCell(cellOf(ref, int(c)), m_firstRow->second[c])) m_varies[c + 1] = true;
}

void ResultsModel::measureVariation() {
    m_varies.assign(std::size_t(m_columns.size()), false);
    m_firstRow.reset();
    for (const PointRef& ref : m_refs)
        noteVariation(ref);
}

void ResultsModel::forgetCaches(int result) {
    m_sortKeys.clear(); // rows move or change: every column's keys are stale
    if (result < 0) {
        m_shown.clear();
        return;
    }
    std::erase_if(m_shown, [result](const auto& entry) { return entry.first.first == result; });
}

void ResultsModel::onPointAppended(int result, int point) {
    // Rows are ordered by result, then point: insert after the last row of `result`.
    const auto at = std::find_if(m_refs.begin(), m_refs.end(), [&](const PointRef& ref) {
        return ref.result > result || (ref.result == result && ref.point >= point);
    });
    const int row = static_cast<int>(at - m_refs.begin());
    beginInsertRows({}, row, row);
    m_refs.insert(at, {result, point});
    forgetCaches(result);
    noteVariation({result, point});
    endInsertRows();
}

void ResultsModel::onResultUpdated(int result) {
    forgetCaches(result);
    measureVariation();
    int first = -1, last = -1;
    for (int i = 0; i < static_cast<int>(m_refs.size()); ++i) {
        if (m_refs[std::size_t(i)].result != result) continue;
        if (first < 0) first = i;
        last = i;
    }
    if (first >= 0) emit dataChanged(index(first, 0), index(last, columnCount() - 1));
}

int ResultsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_refs.size());
}

int ResultsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_columns.size());
}

QVariant ResultsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const PointRef& ref = m_refs[std::size_t(index.row())];
    const PointResult* p = m_store.point(ref);
    switch (role) {
    case Qt::DisplayRole:
        return rowAt(index.row()).text.at(index.column());
    case SortRole:
        return sortKeys(index.column())[std::size_t(index.row())];
    case PointRefRole:
        return QVariant::fromValue(ref);
    case OkRole:
        return p && p->ok();
    case Qt::ToolTipRole:
        return pointTooltip(m_store.results(), ref);
    case Qt::ForegroundRole:
        if (p && !p->ok()) return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case Qt::TextAlignmentRole: // column 0 is the source; the CSV cells follow
        return index.column() > 0 && isNumber(rowAt(index.row()).cells[std::size_t(index.column() - 1)])
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
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
    return row >= 0 && row < rowCount() ? m_refs[std::size_t(row)] : PointRef{};
}

int ResultsModel::rowOf(const PointRef& ref) const {
    const auto at = std::find(m_refs.begin(), m_refs.end(), ref);
    return at == m_refs.end() ? -1 : static_cast<int>(at - m_refs.begin());
}

int ResultsModel::columnOf(const QString& name) const {
    return static_cast<int>(m_columns.indexOf(name));
}

} // namespace rnnprof::gui

#include "gui/results_model.h"

#include "gui/charts/chart_selection.h"
#include "gui/csv_text.h"
#include "gui/metatypes.h"
#include "gui/result_store.h"
#include "profiling/result_files.h"

#include <QGuiApplication>
#include <QPalette>

namespace rnnprof::gui {
namespace {

QString sourceOf(const SweepResult& r) {
    if (!r.label.empty()) return QString::fromStdString(r.label);
    return QString::fromStdString(r.host.hostname);
}

// The CSV rows of `points` of `result` (header dropped), in order.
std::vector<QStringList> csvRows(const SweepResult& result, std::vector<PointResult> points) {
    SweepResult copy;
    copy.schemaVersion = result.schemaVersion;
    copy.createdAt = result.createdAt;
    copy.host = result.host;
    copy.plan = result.plan;
    copy.complete = result.complete;
    copy.label = result.label;
    copy.points = std::move(points);
    auto rows = parseCsv(QString::fromStdString(toCsv(copy)));
    if (!rows.empty()) rows.erase(rows.begin());
    return rows;
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
    for (int r = 0; r < static_cast<int>(results.size()); ++r) {
        const auto& result = results[std::size_t(r)];
        auto rows = csvRows(result, result.points);
        for (int i = 0; i < static_cast<int>(result.points.size()); ++i) {
            Row row{{r, i}, QStringList{sourceOf(result)}};
            if (i < static_cast<int>(rows.size())) row.cells << rows[std::size_t(i)];
            while (row.cells.size() < m_columns.size())
                row.cells << QString();
            m_rows.push_back(std::move(row));
        }
    }
}

ResultsModel::Row ResultsModel::makeRow(const PointRef& ref) const {
    const auto& result = m_store.results()[std::size_t(ref.result)];
    Row row{ref, QStringList{sourceOf(result)}};
    auto rows = csvRows(result, {result.points[std::size_t(ref.point)]});
    if (!rows.empty()) row.cells << rows.front();
    while (row.cells.size() < m_columns.size())
        row.cells << QString();
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
    // One CSV conversion for the whole result, not one per row.
    const auto& r = m_store.results()[std::size_t(result)];
    const auto rows = csvRows(r, r.points);
    int first = -1, last = -1;
    for (int i = 0; i < static_cast<int>(m_rows.size()); ++i) {
        Row& row = m_rows[std::size_t(i)];
        if (row.ref.result != result) continue;
        row.cells = QStringList{sourceOf(r)};
        if (row.ref.point < static_cast<int>(rows.size())) row.cells << rows[std::size_t(row.ref.point)];
        while (row.cells.size() < m_columns.size())
            row.cells << QString();
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
    const QString& text = row.cells.at(index.column());
    switch (role) {
    case Qt::DisplayRole:
        return text;
    case SortRole: {
        bool ok = false;
        const double v = text.toDouble(&ok);
        return ok ? QVariant(v) : QVariant(text);
    }
    case PointRefRole:
        return QVariant::fromValue(row.ref);
    case OkRole:
        return p && p->ok();
    case Qt::ToolTipRole:
        return pointTooltip(m_store.results(), row.ref);
    case Qt::ForegroundRole:
        if (p && !p->ok()) return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case Qt::TextAlignmentRole: {
        bool ok = false;
        text.toDouble(&ok);
        return ok ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    }
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

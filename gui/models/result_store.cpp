#include "gui/models/result_store.h"

namespace rnnprof::gui {

QString resultIdentity(const SweepResult& result) {
    if (result.createdAt.empty()) return {};
    return QString::fromStdString(result.createdAt) + QStringLiteral(" on ") +
           QString::fromStdString(result.host.hostname);
}

ResultStore::ResultStore(QObject* parent) : QObject(parent) {}
ResultStore::~ResultStore() = default;

const PointResult* ResultStore::point(const PointRef& ref) const {
    if (ref.result < 0 || ref.result >= count()) return nullptr;
    const auto& points = m_results[std::size_t(ref.result)].points;
    if (ref.point < 0 || ref.point >= static_cast<int>(points.size())) return nullptr;
    return &points[std::size_t(ref.point)];
}

int ResultStore::pointCount() const {
    std::size_t n = 0;
    for (const auto& r : m_results)
        n += r.points.size();
    return static_cast<int>(n);
}

void ResultStore::setResults(std::vector<SweepResult> results) {
    m_results = std::move(results);
    emit resultsReset();
}

void ResultStore::add(SweepResult result) {
    m_results.push_back(std::move(result));
    emit resultsReset();
}

bool ResultStore::setLabel(int index, const std::string& label) {
    if (index < 0 || index >= count()) return false;
    m_results[std::size_t(index)].label = label;
    emit resultsReset();
    return true;
}

void ResultStore::clear() {
    setResults({});
}

int ResultStore::beginLive(SweepResult header) {
    header.points.clear();
    header.complete = false;
    m_results.push_back(std::move(header));
    emit resultsReset();
    return count() - 1;
}

void ResultStore::appendPoint(int result, PointResult point) {
    if (result < 0 || result >= count()) return;
    auto& points = m_results[std::size_t(result)].points;
    // A point measured again (a disturbed one, at the end of a sweep) replaces its first measurement.
    for (PointResult& p : points)
        if (p.backend == point.backend && p.mode == point.mode && p.shape == point.shape) {
            p = std::move(point);
            emit resultUpdated(result);
            return;
        }
    points.push_back(std::move(point));
    emit pointAppended(result, static_cast<int>(points.size()) - 1);
}

void ResultStore::finishLive(int result, SweepResult final) {
    if (result < 0 || result >= count()) return;
    auto& live = m_results[std::size_t(result)];
    final.label = live.label;
    // The runner's points are the ones the signals delivered; keep ours if they differ in count so
    // that rows and chart references stay valid.
    if (final.points.size() != live.points.size()) final.points = std::move(live.points);
    live = std::move(final);
    emit resultUpdated(result);
}

} // namespace rnnprof::gui

#pragma once
// The results the window shows: files opened for comparison and the sweep running now, as plain
// SweepResult values. It is the one source the table, the charts and every export read; views
// listen to its signals and never keep numbers of their own. GUI thread only.
#include "gui/models/chart_data.h"
#include "profiling/result.h"

#include <QObject>

#include <vector>

namespace rnnprof::gui {

// What tells results apart across sessions and paths, for remembering their aliases: when it was
// created and on which host. Empty for a result that does not say when it was created.
[[nodiscard]] QString resultIdentity(const SweepResult& result);

class ResultStore : public QObject {
    Q_OBJECT
public:
    explicit ResultStore(QObject* parent = nullptr);
    ~ResultStore() override;

    [[nodiscard]] const std::vector<SweepResult>& results() const { return m_results; }
    [[nodiscard]] int count() const { return static_cast<int>(m_results.size()); }
    [[nodiscard]] bool empty() const { return m_results.empty(); }
    [[nodiscard]] const PointResult* point(const PointRef& ref) const;
    [[nodiscard]] int pointCount() const;

    void setResults(std::vector<SweepResult> results);
    void add(SweepResult result);
    void clear();
    // Renames result `index` (its short alias in legends, the table and footers); false when there
    // is no such result.
    bool setLabel(int index, const std::string& label);
    // A result that grows while a sweep runs; returns its index.
    int beginLive(SweepResult header);
    void appendPoint(int result, PointResult point);
    // The runner's final result replaces the live one (same points; complete flag, timestamps).
    void finishLive(int result, SweepResult final);

signals:
    void resultsReset();
    void pointAppended(int result, int point);
    void resultUpdated(int result);

private:
    std::vector<SweepResult> m_results;
};

} // namespace rnnprof::gui

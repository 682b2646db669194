#pragma once
// Every chart rnnprof draws, as data: its tab, the choices its page offers and the functions that
// reduce results to chart data. The GUI builds one page per entry and the headless renderer walks
// the same list, so both always draw the same charts.
#include "gui/models/chart_data.h"
#include "gui/models/chart_selection.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

namespace rnnprof::gui {

enum class Selector { SeqLen, Batch, Baseline, Challenger, Backend, Mode, PhaseScale };

using ChartBuilder = std::function<ChartData(const std::vector<SweepResult>&, const ChartSelection&)>;

struct ChartSpec {
    QString id; // file name stem: "time-vs-batch"
    ChartBuilder build;
    // The choices this chart depends on; headless rendering writes one file per combination of the
    // shape and backend choices among them (the speedup pair keeps its default).
    std::vector<Selector> dependsOn;
};

struct ChartPageSpec {
    QString id;    // "speedup"
    QString title; // tab title
    std::vector<Selector> selectors;
    std::vector<ChartSpec> charts; // shown top to bottom
    bool followsSelection = false; // the breakdown follows the selected point
    bool sideBySide = false;       // several charts next to each other instead of stacked
};

// Every chart of it ends its notes with machineNotes() of the results it draws.
[[nodiscard]] const std::vector<ChartPageSpec>& chartCatalog();
// What makes a result's numbers doubtful, one line each: its machine was busy (busy_host.h), some of
// its points were disturbed (starvation.h), it is a prediction for another model than a measured
// result beside it. Empty for quiet results.
[[nodiscard]] QStringList machineNotes(const std::vector<SweepResult>& results);

} // namespace rnnprof::gui

#pragma once
// Result files as the chart commands (`plot`, `report`) load them: each file once, however often
// it is named (as RESULTS and again in --baseline, or twice), so that it is not overlaid on itself.
#include "profiling/result.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace rnnprof::cli {

struct LoadedResults {
    std::vector<SweepResult> results;
    QStringList paths; // absolute, one per result

    // The index of `file` in `results`, loading it (loadResultFile()) the first time it is named.
    // Throws what loadResultFile() throws: Error(InvalidInput) naming the file and what is wrong.
    int load(const QString& file);
};

} // namespace rnnprof::cli

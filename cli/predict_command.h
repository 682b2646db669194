#pragma once
// `rnnprof predict`: the cost model of profiling/analysis/cost_model.h fitted per backend and mode on one or
// more GPU result files (--from), applied to a model and grid nobody measured. Writes one predicted
// point per grid point (status "predicted", the band and the fit in each) in the result formats, so
// that a later measurement can be checked against it; prints the fits and a summary table.
#include "profiling/plan.h"

#include <QStringList>

#include <string>
#include <vector>

namespace rnnprof::cli {

struct PredictRequest {
    std::vector<std::string> fromPaths; // --from, in order
    SweepPlan plan;                     // the model, grid, backends and modes to predict
    std::string outPath;                // --out predicted.json
    std::string csvPath;                // --csv
    bool check = false;                 // --check: print the leave-one-model-out check of --from only
    bool help = false;
    std::string helpText;
};

// `args` as QCoreApplication::arguments() minus the sub-command: args[0] is the program name.
// Collects every problem of the flags; does not read the --from files.
[[nodiscard]] PredictRequest parsePredictArguments(const QStringList& args,
                                                   std::vector<std::string>& problems);

// argv[1] is "predict". Returns the process exit code: 0 written, 1 files could not be written,
// 2 bad command line or a --from file that cannot give the asked prediction.
int runPredictCommand(int argc, char** argv);

} // namespace rnnprof::cli

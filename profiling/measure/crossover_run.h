#pragma once
// A crossover search measured for real: the sides measured here run through a SweepRunner, one
// batch size at a time, as crossover_search.h asks for them; a side may instead be a result file's
// (the reference GPU). What `rnnprof crossover` and the window's Find Crossover run.
#include "profiling/analysis/crossover_search.h"
#include "profiling/measure/runner.h"

#include <string>

namespace rnnprof {

// A side: `side` of `file` (a backend id, fastest-cpu or fastest-gpu), or of the points measured
// here when `file` is null; `name` is how records and messages call it.
struct SearchSide {
    std::string name;
    std::string side;
    const SweepResult* file = nullptr;
};

struct SearchRun {
    SweepResult result; // the points measured here, plan.batches those measured, the crossover record
    CrossoverSearch search;
};

// `plan`: the model, one mode, one sequence length, its batches the grid (ascending), its backends
// those the sides measured here need. Each point measured goes through callbacks.onPoint, each
// batch size's progress through callbacks.onProgress. A stop ends the search where it is.
[[nodiscard]] SearchRun runCrossoverSearch(const BackendRegistry& backends, const SweepPlan& plan,
                                           const SearchSide& baseline, const SearchSide& challenger,
                                           const StopToken& stop, const RunnerCallbacks& callbacks = {},
                                           KernelTracer* tracer = nullptr);

} // namespace rnnprof

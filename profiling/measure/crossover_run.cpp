#include "profiling/measure/crossover_run.h"

#include <algorithm>

namespace rnnprof {
namespace {

// Why a side has no time at (mode, T, B): the status and reason of its points there.
std::string whyNoTime(const SweepResult& r, const SearchSide& s, Mode mode, int seqLen, int batch) {
    std::string out;
    for (const PointResult& p : r.points)
        if (p.mode == mode && p.shape.seqLen == seqLen && p.shape.batch == batch)
            out += (out.empty() ? "" : "; ") + p.backend + " " + std::string(toString(p.status)) +
                   (p.reason.empty() ? "" : " (" + p.reason + ")");
    return s.name + ": no usable time" + (out.empty() ? std::string() : ": " + out);
}

} // namespace

SearchRun runCrossoverSearch(const BackendRegistry& backends, const SweepPlan& plan,
                             const SearchSide& baseline, const SearchSide& challenger, const StopToken& stop,
                             const RunnerCallbacks& callbacks, KernelTracer* tracer) {
    const Mode mode = plan.modes.front();
    const int seqLen = plan.seqLens.front();
    const std::vector<int> grid = plan.batches;
    SearchRun run;
    SweepResult& here = run.result;
    here = SweepRunner(backends, plan).header();
    auto resultOf = [&](const SearchSide& s) -> const SweepResult& { return s.file ? *s.file : here; };
    const MeasurePair measure = [&](int batch, std::string& why) -> std::optional<MatchedPoint> {
        if (stop.stopRequested()) {
            why = "stopped by request";
            return std::nullopt;
        }
        SweepPlan one = plan;
        one.batches = {batch};
        SweepRunner runner(backends, one, callbacks);
        runner.setKernelTracer(tracer);
        SweepResult measured = runner.run(stop);
        if (!here.host.loadBefore) here.host.loadBefore = measured.host.loadBefore;
        if (measured.host.loadDuring && (!here.host.loadDuring || measured.host.loadDuring->otherBusyCores >
                                                                      here.host.loadDuring->otherBusyCores))
            here.host.loadDuring = measured.host.loadDuring;
        for (PointResult& p : measured.points)
            here.points.push_back(std::move(p));
        const ShapeKey key{mode, seqLen, batch};
        MatchedPoint m;
        for (const auto& [side, out] :
             {std::pair{&baseline, &m.baseline}, std::pair{&challenger, &m.challenger}}) {
            const auto times = sideTimes(resultOf(*side), side->side);
            const auto it = times.find(key);
            if (it == times.end()) {
                why = whyNoTime(resultOf(*side), *side, mode, seqLen, batch);
                return std::nullopt;
            }
            *out = it->second;
        }
        return m;
    };
    run.search = searchCrossover(grid, mode, seqLen, measure);
    std::vector<int> batches;
    for (const MatchedPoint& p : run.search.measured)
        batches.push_back(p.batch);
    std::sort(batches.begin(), batches.end());
    here.plan.batches = batches.empty() ? std::vector<int>{grid.front()} : batches;
    here.complete = run.search.failure.empty();
    for (CrossoverRecord& record : crossoverRecords(run.search.measured, baseline.name, challenger.name)) {
        record.measuredBatches = int(run.search.measured.size());
        record.gridBatches = run.search.gridSize;
        here.crossovers.push_back(std::move(record));
    }
    return run;
}

} // namespace rnnprof

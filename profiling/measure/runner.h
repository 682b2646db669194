#pragma once
// Runs a sweep plan point by point on the calling thread (the engine thread): support check,
// memory estimate, prepare, warm-up, measured runs, numerics, derived figures. A failing or
// ineligible point is recorded with its reason and the sweep goes on. Stop requests are honoured
// between runs and, by the CPU sessions, inside a run (Session::setStopToken); the runs measured
// before the stop are kept, the abandoned one is not.
#include "engine/backend.h"
#include "engine/stop_token.h" // StopToken, the one the sessions poll
#include "profiling/measure/host_load.h"
#include "profiling/measure/phase_timer.h"
#include "profiling/measure/starvation.h"
#include "profiling/plan.h"
#include "profiling/result.h"

#include <chrono>
#include <functional>
#include <memory>
#include <string>

namespace rnnprof {

struct SweepProgress {
    int done = 0;
    int total = 0;
    double elapsedSeconds = 0.0;
    double etaSeconds = -1.0; // < 0: unknown yet
    std::string current;      // "cpu-blas train B=64 T=100"
};

// Optional GPU kernel tracing, implemented over CUPTI by profiling/gpu; the runner asks it for a
// phase hook around measured runs and for the aggregated profile afterwards.
class KernelTracer {
public:
    virtual ~KernelTracer() = default;
    // Empty when tracing works on this machine; otherwise the reason ("no NVIDIA driver").
    [[nodiscard]] virtual std::string unavailableReason() const = 0;
    virtual void beginPoint() = 0;               // enable collection (before warm-up)
    virtual void discardSoFar() = 0;             // drop warm-up records
    [[nodiscard]] virtual PhaseHook& hook() = 0; // pushes (iteration, phase) correlation ids
    virtual void endIteration() = 0;
    [[nodiscard]] virtual GpuProfile endPoint(int iterations) = 0; // flush, decode, aggregate, disable
    // After endPoint: kernels/memcpys/memsets of measured iteration `iteration` (0-based) as slices
    // on tracks 1 + stream, in us from the start of that iteration's first phase.
    [[nodiscard]] virtual std::vector<TraceSlice> traceSlices(int /*iteration*/) const { return {}; }
};

// The clock of the measured runs: each run's time (timedRun()) and the time budget, since past
// minRepeats measured runs go on while less than timeBudgetMs has passed on it since the first of
// them (and maxRepeats is not reached). Tests inject a fake one so that runs take known times and
// the budget runs out after a known number of runs; phases and steps are timed by the phase timer
// on the monotonic clock either way.
using MeasureClock = RunClock;
// The process counters read around each measured run to tell a starved run (starvation.h); tests
// inject fakes, so that runs are starved or not by construction.
using UsageProbe = std::function<UsageCounters()>;
// The load of other processes over the stretch that ended with the point just measured (default: a
// LoadWindow of host_load.h); nullopt where unknown. Tests inject a quiet or a busy machine.
using LoadProbe = std::function<std::optional<HostLoad>()>;

struct RunnerCallbacks {
    std::function<void(const SweepProgress&)> onProgress;
    std::function<void(const PointResult&)> onPoint; // each finished point, in run order
};

class SweepRunner {
public:
    SweepRunner(const BackendRegistry& backends, SweepPlan plan, RunnerCallbacks callbacks = {});
    ~SweepRunner();
    void setKernelTracer(KernelTracer* tracer) { m_tracer = tracer; }
    void setCallbacks(RunnerCallbacks callbacks) { m_callbacks = std::move(callbacks); }
    // The result's header (created_at, host, plan), made once when the runner is made: run()
    // returns it with the points, and a journal written alongside carries the same.
    [[nodiscard]] const SweepResult& header() const { return m_header; }
    void setMeasureClock(MeasureClock now) { m_clock = std::move(now); } // default: steady_clock
    void setUsageProbe(UsageProbe probe) { m_usage = std::move(probe); } // default: readUsageCounters
    void setLoadProbe(LoadProbe probe) { m_load = std::move(probe); }    // default: a LoadWindow
    // Continues `earlier`, an interrupted run of this plan (a journal): run() keeps its finished
    // points in place instead of measuring them again (a cancelled one is measured), without
    // reporting them through the callbacks, and the header becomes the earlier run's (its
    // created_at), so the results file and its journal agree. The caller checks that the plans
    // are equal.
    void resumeFrom(const SweepResult& earlier);
    // The points run() keeps from resumeFrom(), in the earlier run's order.
    [[nodiscard]] const std::vector<PointResult>& keptPoints() const { return m_earlierPoints; }

    // Measures only `shard`'s points of the plan (shard.h), in the plan's order; the header records
    // it. Call before resumeFrom() and run().
    void setShard(std::optional<Shard> shard) { m_header.shard = shard; }
    // Throws Error(InvalidConfig) naming every problem when the plan is invalid for these backends
    // (or cannot be split into the shards of setShard()).
    void requireValidPlan() const;
    // Runs every point of the plan (or until `stop`), then measures each disturbed point again, up
    // to settings.remeasureDisturbed times, each re-measurement replacing the point (and reported
    // through onPoint again); the result holds every finished point and complete == !stopped. Throws
    // Error(InvalidConfig) only when the plan itself is invalid.
    [[nodiscard]] SweepResult run(const StopToken& stop);
    // Measures one point; never throws. Its session polls `stop` inside each run (CPU backends).
    // A stop makes the point Cancelled: the runs measured before it are kept (measuredRuns and
    // every figure derived from them, no numeric check), the run it interrupted is dropped.
    [[nodiscard]] PointResult measurePoint(const PointSpec& point, const StopToken& stop);

private:
    const BackendRegistry& m_backends;
    SweepPlan m_plan;
    SweepResult m_header;
    std::vector<PointResult> m_earlierPoints; // resumeFrom()
    RunnerCallbacks m_callbacks;
    KernelTracer* m_tracer = nullptr;
    MeasureClock m_clock = [] { return std::chrono::steady_clock::now(); };
    UsageProbe m_usage = readUsageCounters;
    LoadProbe m_load;
    std::optional<LoadWindow> m_window; // without m_load: the load around each point of run()
    // Records the load around `point` (m_load) and whether that disturbed it.
    void judgeLoad(PointResult& point, int cores);
    // The disturbed points of `result` measured again (run()); false when a stop ended it.
    bool remeasureDisturbed(SweepResult& result, const std::vector<PointSpec>& grid, const StopToken& stop);
};

} // namespace rnnprof

#include "profiling/measure/runner.h"

#include "profiling/files/recorded_limits.h"

#include "engine/error.h"
#include "engine/host_memory.h"
#include "profiling/analysis/flops.h"
#include "profiling/measure/cudnn_best.h"
#include "profiling/measure/device_phase_timer.h"
#include "profiling/measure/eta.h"
#include "profiling/measure/host_load.h"
#include "profiling/measure/numerics.h"
#include "profiling/measure/phase_timer.h"
#include "profiling/measure/process_memory.h"

#include <algorithm>
#include <chrono>
#include <exception>

namespace rnnprof {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start, Clock::time_point now = Clock::now()) {
    return std::chrono::duration<double>(now - start).count();
}

PointStatus statusFor(ErrorKind kind) {
    switch (kind) {
    case ErrorKind::OutOfMemory:
        return PointStatus::Refused;
    case ErrorKind::Unsupported:
        return PointStatus::Ineligible;
    case ErrorKind::DeviceUnavailable:
        return PointStatus::Unavailable;
    case ErrorKind::Cancelled:
        return PointStatus::Cancelled;
    case ErrorKind::InvalidConfig:
        return PointStatus::Refused;
    default:
        return PointStatus::Failed;
    }
}

// GPU points: runs of the per-step pass, and as many traced runs interleaved with them (fewer when
// the timed runs were fewer). Enough for stable per-step medians and kernel statistics; few enough
// that a point costs at most about twice its timed runs.
constexpr int kDetailRuns = 10;

// Load sampling (profiling/measure/host_load.h): the window of the sample before the first point, long
// enough for a few clock ticks per core, short enough not to delay a sweep noticeably; and how
// often the load is sampled between points (each sample reads every /proc/PID/stat).
constexpr std::chrono::milliseconds kLoadBeforeWindow{100};
constexpr double kLoadSampleSeconds = 1.0;
// A shorter window holds too few clock ticks (10 ms each) for a share: the last stretch of a sweep
// is sampled only when at least this long.
constexpr double kShortestLoadWindowSeconds = 0.25;

// Keeps the busier of two samples.
void keepBusier(std::optional<HostLoad>& kept, std::optional<HostLoad> sample) {
    if (sample && (!kept || sample->otherBusyCores > kept->otherBusyCores)) kept = std::move(sample);
}

// Thrown inside measurePoint when a stop is requested between runs (a session throws the engine's
// StopRequested when it abandons a run).
struct StopBetweenRuns {};

// The reason of a point stopped after `measured` runs; `where` says where the run in progress was
// abandoned, empty when the stop came between runs.
std::string stoppedReason(int measured, int minRepeats, bool warmingUp, const std::string& where) {
    std::string reason = "stopped by request after " + std::to_string(measured) + " of at least " +
                         std::to_string(minRepeats) + " measured runs";
    if (!where.empty())
        reason += std::string("; the ") + (warmingUp ? "warm-up run" : "run") +
                  " in progress was abandoned " + where;
    return reason;
}

} // namespace

SweepRunner::SweepRunner(const BackendRegistry& backends, SweepPlan plan, RunnerCallbacks callbacks)
    : m_backends(backends), m_plan(std::move(plan)), m_callbacks(std::move(callbacks)) {
    acceptBackendIds(m_backends.ids()); // its results must load back (recorded_limits.h)
    m_header.createdAt = isoTimestampUtc();
    m_header.host = currentHost();
    m_header.plan = m_plan;
}

SweepRunner::~SweepRunner() = default;

void SweepRunner::requireValidPlan() const {
    if (const auto issues = validate(m_plan, m_backends.ids()); !issues.empty())
        throw Error(ErrorKind::InvalidConfig, joinIssues(issues));
    if (m_header.shard)
        if (const std::string problem = shardProblem(m_plan, *m_header.shard); !problem.empty())
            throw Error(ErrorKind::InvalidConfig, "shard " + problem);
}

void SweepRunner::resumeFrom(const SweepResult& earlier) {
    m_header.createdAt = earlier.createdAt;
    m_earlierPoints.clear();
    for (const PointResult& p : earlier.points)
        if (p.status != PointStatus::Cancelled) m_earlierPoints.push_back(p);
}

namespace {

// The earlier run's point of series `series` at (mode, shape), if it has one.
const PointResult* findPoint(const std::vector<PointResult>& points, std::string_view series, Mode mode,
                             const Shape& shape) {
    for (const PointResult& p : points)
        if (p.backend == series && p.mode == mode && p.shape == shape) return &p;
    return nullptr;
}

} // namespace

SweepResult SweepRunner::run(const StopToken& stop) {
    requireValidPlan();
    SweepResult result = m_header;
    result.host.loadBefore = sampleHostLoad(kLoadBeforeWindow);
    HostLoadMonitor load;
    m_window.emplace(kShortestLoadWindowSeconds); // the default load probe, started with the sweep
    m_window->mark();
    const EtaRates etaDefaults = defaultEtaRates(m_plan, result.host.cpuCores, [this](const std::string& id) {
        const Backend* backend = m_backends.find(id);
        return backend && backend->availability().available;
    });
    const std::vector<PointSpec> grid =
        m_header.shard ? shardPoints(m_plan, *m_header.shard) : points(m_plan);
    const auto start = Clock::now();
    SweepProgress progress;
    progress.total = int(grid.size());
    int measured = 0;     // grid points finished (not counting derived ones nor a cancelled one)
    int measuredHere = 0; // of them measured by this run, not kept from an earlier one
    bool stopped = false;
    const auto& algos = m_plan.settings.cudnnAlgos;
    for (std::size_t i = 0; i < grid.size(); ++i) {
        if (stop.stopRequested()) {
            stopped = true;
            break;
        }
        const PointSpec& spec = grid[i];
        if (const PointResult* kept = findPoint(m_earlierPoints, seriesId(spec), spec.mode, spec.shape)) {
            result.points.push_back(*kept);
        } else {
            progress.done = int(i);
            progress.elapsedSeconds = secondsSince(start);
            // From the plan: the remaining points' FLOPs at the rates measured so far (eta.h).
            progress.etaSeconds =
                estimateSeconds(m_plan, std::vector<PointSpec>(grid.begin() + std::ptrdiff_t(i), grid.end()),
                                learnEtaRates(etaDefaults, result.points, m_plan.settings));
            progress.current = describe(spec);
            if (m_callbacks.onProgress) m_callbacks.onProgress(progress);
            PointResult point = measurePoint(spec, stop);
            judgeLoad(point, result.host.cpuCores);
            const bool cancelled = point.status == PointStatus::Cancelled;
            result.points.push_back(point);
            if (m_callbacks.onPoint) m_callbacks.onPoint(result.points.back());
            if (cancelled) {
                stopped = true;
                break;
            }
            ++measuredHere;
            if (load.secondsSinceLastSample() >= kLoadSampleSeconds)
                keepBusier(result.host.loadDuring, load.sample());
        }
        ++measured;
        // After the last algorithm of gpu-cudnn at this (mode, shape): the derived best point.
        if (algos.size() >= 2 && runsPerCudnnAlgo(spec.backend) && spec.cudnnAlgo == algos.back()) {
            if (const PointResult* kept =
                    findPoint(m_earlierPoints, kCudnnBestSeries, spec.mode, spec.shape)) {
                result.points.push_back(*kept);
                continue;
            }
            const std::vector<PointResult> siblings(result.points.end() - std::ptrdiff_t(algos.size()),
                                                    result.points.end());
            result.points.push_back(bestCudnnPoint(siblings));
            if (m_callbacks.onPoint) m_callbacks.onPoint(result.points.back());
        }
    }
    if (!stopped && !remeasureDisturbed(result, grid, stop)) stopped = true;
    if (measuredHere > 0 && load.secondsSinceLastSample() >= kShortestLoadWindowSeconds)
        keepBusier(result.host.loadDuring, load.sample()); // the last stretch
    progress.done = measured;
    progress.elapsedSeconds = secondsSince(start);
    progress.etaSeconds = 0.0;
    progress.current.clear();
    if (m_callbacks.onProgress) m_callbacks.onProgress(progress);
    result.complete = !stopped;
    if (stopped) result.stoppedBy = stop.reason();
    return result;
}

void SweepRunner::judgeLoad(PointResult& point, int cores) {
    if (!point.measured()) return;
    const std::optional<HostLoad> load = m_load     ? m_load()
                                         : m_window ? m_window->sinceWindowStart()
                                                    : std::nullopt;
    if (!load) return;
    point.disturbance.otherBusyCores = load->otherBusyCores;
    point.disturbance.hostBusy = !busyWarning(*load, cores, m_plan.settings.threads).empty();
    point.disturbed = isDisturbed(point.disturbance);
}

bool SweepRunner::remeasureDisturbed(SweepResult& result, const std::vector<PointSpec>& grid,
                                     const StopToken& stop) {
    for (int round = 0; round < m_plan.settings.remeasureDisturbed; ++round) {
        bool any = false;
        for (PointResult& p : result.points) {
            if (!p.ok() || !p.disturbed) continue;
            const auto spec = std::find_if(grid.begin(), grid.end(), [&](const PointSpec& s) {
                return seriesId(s) == p.backend && s.mode == p.mode && s.shape == p.shape;
            });
            if (spec == grid.end()) continue; // a derived point (gpu-cudnn[best]) is not measured
            if (stop.stopRequested()) return false;
            any = true;
            if (m_callbacks.onProgress) {
                SweepProgress progress;
                progress.done = progress.total = int(grid.size());
                progress.etaSeconds = -1.0;
                progress.current = "measuring again, disturbed: " + describe(*spec);
                m_callbacks.onProgress(progress);
            }
            PointResult again = measurePoint(*spec, stop);
            judgeLoad(again, result.host.cpuCores);
            if (again.status == PointStatus::Cancelled) return false; // the first measurement stays
            if (!again.ok()) continue;                                // likewise
            again.disturbance.remeasured = p.disturbance.remeasured + 1;
            p = std::move(again);
            if (m_callbacks.onPoint) m_callbacks.onPoint(p);
        }
        if (!any) break;
    }
    return true;
}

PointResult SweepRunner::measurePoint(const PointSpec& spec, const StopToken& stop) {
    const auto start = Clock::now();
    const MeasureSettings& settings = m_plan.settings;
    PointResult r;
    r.backend = seriesId(spec);
    r.mode = spec.mode;
    r.shape = spec.shape;
    r.noiseThreshold = settings.noiseThreshold;
    auto finish = [&](PointStatus status, std::string reason) {
        r.status = status;
        r.reason = std::move(reason);
        r.measureSeconds = secondsSince(start);
        return r;
    };

    const Backend* backend = m_backends.find(spec.backend);
    if (!backend) return finish(PointStatus::Failed, "unknown backend '" + spec.backend + "'");
    const Problem problem = problemFor(m_plan, spec);
    // The same verdict prepare() enforces: recorded as the point's status when not ready.
    Verdict verdict;
    try {
        verdict = assess(*backend, problem);
    } catch (const Error& e) { // the estimate itself failed
        return finish(statusFor(e.kind()), e.what());
    }
    const bool tooLarge = !verdict.ready() && *verdict.refusal == ErrorKind::OutOfMemory;
    if (!verdict.ready() && !tooLarge) return finish(statusFor(*verdict.refusal), verdict.reason);
    // A point refused for its memory keeps its estimate and work, to show what it would have needed.
    r.flopsPerIteration = iterationFlops(problem.config, problem.shape, problem.mode);
    r.memory = verdict.footprint;
    if (tooLarge) return finish(PointStatus::Refused, verdict.reason);

    KernelTracer* tracer = nullptr;
    std::optional<GpuProfile> gpu;
    if (backend->isGpu()) {
        if (!settings.gpuTrace) {
            gpu.emplace().unavailableReason = "kernel trace off (gpu_trace = false)";
        } else if (!m_tracer) {
            gpu.emplace().unavailableReason = "kernel trace unavailable: no kernel tracer attached";
        } else if (const std::string why = m_tracer->unavailableReason(); !why.empty()) {
            gpu.emplace().unavailableReason = why;
        } else {
            tracer = m_tracer;
        }
    }

    resetPeakRss();
    const auto memBefore = readProcessMemory();
    PhaseTimer timer;
    std::vector<double> samples;
    std::vector<RunUsage> usages;           // what the process did over each measured run
    std::optional<DevicePhaseTimer> device; // GPU sessions: GPU time of each phase
    PhaseTimer stepTimer;                   // GPU sessions: the per-step pass
    PhaseTimer tracedTimer;                 // GPU sessions: the traced runs of that pass
    int tracedRuns = 0;
    std::string mathType;
    bool stopped = false;   // a stop request ended the point
    bool warmingUp = false; // ... during a warm-up run
    std::string abandoned;  // where the session abandoned the run in progress for it
    try {
        std::unique_ptr<Session> session = backend->prepare(problem, verdict);
        session->setStopToken(&stop); // polled inside each run by the CPU sessions
        r.memory = session->memory();
        r.notes = session->notes();
        mathType = session->mathType();
        auto checkStop = [&] {
            if (stop.stopRequested()) throw StopBetweenRuns{};
        };
        NullPhaseHook nullHook;
        warmingUp = true;
        for (int w = 0; w < settings.warmup; ++w) {
            checkStop();
            session->run(nullHook);
        }
        warmingUp = false;
        r.warmupRuns = settings.warmup;

        // The timed runs: never traced, so CPU and GPU points are measured alike.
        DeviceQueue* queue = session->deviceQueue();
        if (queue) device.emplace(*queue, DevicePhaseTimer::WaitAt::PhaseEnds);
        std::vector<PhaseHook*> hooks{&timer};
        if (device) hooks.push_back(&*device);
        FanOutHook hook(hooks);
        const auto measureStart = m_clock();
        while (int(samples.size()) < settings.minRepeats ||
               (int(samples.size()) < settings.maxRepeats &&
                secondsSince(measureStart, m_clock()) * 1000.0 < settings.timeBudgetMs)) {
            checkStop();
            const UsageCounters before = m_usage();
            const double ms = timedRun(*session, timer, hook, m_clock);
            usages.push_back(usageBetween(before, m_usage(), ms));
            samples.push_back(ms);
        }

        // GPU sessions: a pass that waits after every step (what each step costs on the device),
        // interleaved with the same runs traced by CUPTI after one traced warm-up run, so that the
        // collector's overhead is the ratio of two medians taken under the same conditions.
        if (queue) {
            const int runs = std::clamp(int(samples.size()), 1, kDetailRuns);
            DevicePhaseTimer stepWait(*queue, DevicePhaseTimer::WaitAt::StepEnds);
            FanOutHook untracedHook({&stepTimer, &stepWait});
            std::vector<double> untraced, traced;
            if (tracer) {
                tracer->beginPoint();
                session->run(tracer->hook());
                tracer->discardSoFar();
            }
            for (int i = 0; i < runs; ++i) {
                checkStop();
                untraced.push_back(timedRun(*session, stepTimer, untracedHook));
                if (!tracer) continue;
                FanOutHook tracedHook({&tracedTimer, &tracer->hook(), &stepWait});
                traced.push_back(timedRun(*session, tracedTimer, tracedHook));
                tracer->endIteration();
            }
            if (tracer) {
                tracedRuns = runs;
                gpu = tracer->endPoint(runs);
                gpu->tracedMedianMs = summarize(traced).median;
                gpu->untracedMedianMs = summarize(untraced).median;
            }
        }
    } catch (const StopBetweenRuns&) {
        stopped = true;
    } catch (const StopRequested& e) { // the session abandoned a run: timedRun() dropped it
        stopped = true;
        abandoned = e.where();
    } catch (const Error& e) {
        if (tracer) (void)tracer->endPoint(0);
        return finish(statusFor(e.kind()), e.what());
    } catch (const std::exception& e) {
        if (tracer) (void)tracer->endPoint(0);
        return finish(PointStatus::Failed, std::string("unexpected error: ") + e.what());
    }
    if (stopped) {
        if (tracer) (void)tracer->endPoint(0);
        tracer = nullptr; // a stop before the traced pass ended: no kernel profile
        if (backend->isGpu() && !gpu)
            gpu.emplace().unavailableReason = "kernel trace not taken: the sweep was stopped";
        const std::string reason =
            stoppedReason(int(samples.size()), settings.minRepeats, warmingUp, abandoned);
        if (samples.empty()) return finish(PointStatus::Cancelled, reason);
        r.status = PointStatus::Cancelled;
        r.reason = reason;
    }
    if (const auto memAfter = readProcessMemory(); memAfter && memBefore)
        r.peakRssGrowthBytes =
            memAfter->peakBytes > memBefore->rssBytes ? memAfter->peakBytes - memBefore->rssBytes : 0;

    r.measuredRuns = int(samples.size());
    r.iteration = summarize(samples);
    r.phaseMedianMs = timer.phaseMedians();
    r.steps = device ? stepTimer.stepStats() : timer.stepStats();
    r.noisy = isNoisy(r.iteration, settings.noiseThreshold);
    r.disturbance = summarizeRuns(usages);
    r.disturbed = isDisturbed(r.disturbance);
    if (tracer && gpu && gpu->traced && tracedRuns > 0) {
        // The timeline of the median traced run: its host phases and steps, and its kernels, which
        // are timed from that run's first phase.
        const int traced = tracedTimer.medianIteration();
        r.trace = tracedTimer.trace(traced);
        double origin = 0.0;
        for (const TraceSlice& s : r.trace)
            if (s.category == "phase") {
                origin = s.startUs;
                break;
            }
        for (TraceSlice s : tracer->traceSlices(traced)) {
            s.startUs += origin;
            r.trace.push_back(std::move(s));
        }
    } else {
        r.trace = timer.trace(timer.medianIteration());
    }
    r.sequencesPerSecond = sequencesPerSecond(spec.shape, r.iteration.median);
    r.tokensPerSecond = tokensPerSecond(spec.shape, r.iteration.median);
    r.gflopsPerSecond = achievedGflops(r.flopsPerIteration, r.iteration.median);
    if (gpu) {
        if (device) gpu->eventMs = device->phaseMedians();
        // Peak device memory of each phase that ran: everything the session allocated in prepare()
        // (live throughout) plus the peak of what CUPTI saw allocated during the phase.
        for (int p = 0; p < kPhaseCount && device && r.memory.onDevice; ++p)
            if (device->ran(Phase(p))) gpu->peakDeviceBytes[std::size_t(p)] += r.memory.total();
        // The library buffers the session named in its footprint (engine/backend.h).
        gpu->cudnnWorkspaceBytes = r.memory.part(kBufferCudnnWorkspace);
        gpu->cudnnReserveBytes = r.memory.part(kBufferCudnnReserve);
        gpu->dropoutStateBytes = r.memory.part(kBufferCudnnDropoutStates);
        gpu->cublasWorkspaceBytes = r.memory.part(kBufferCublasWorkspace);
        gpu->mathType = mathType;
        r.gpu = std::move(gpu);
    }
    if (stopped) { // the runs measured before the stop, without a numeric check
        r.measureSeconds = secondsSince(start);
        return r;
    }
    if (settings.checkNumerics && !stop.stopRequested())
        r.numerics = checkNumerics(*backend, problem, settings.numericsMaxWork);
    return finish(PointStatus::Ok, "");
}

} // namespace rnnprof

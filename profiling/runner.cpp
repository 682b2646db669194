#include "profiling/runner.h"

#include "engine/error.h"
#include "engine/host_memory.h"
#include "profiling/flops.h"
#include "profiling/numerics.h"
#include "profiling/phase_timer.h"
#include "profiling/process_memory.h"

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

// Thrown inside measurePoint when a stop is requested between runs.
struct StopRequested {};

} // namespace

SweepRunner::SweepRunner(const BackendRegistry& backends, SweepPlan plan, RunnerCallbacks callbacks)
    : m_backends(backends), m_plan(std::move(plan)), m_callbacks(std::move(callbacks)) {
    m_header.createdAt = isoTimestampUtc();
    m_header.host = currentHost();
    m_header.plan = m_plan;
}

SweepRunner::~SweepRunner() = default;

void SweepRunner::requireValidPlan() const {
    if (const auto issues = validate(m_plan, m_backends.ids()); !issues.empty())
        throw Error(ErrorKind::InvalidConfig, joinIssues(issues));
}

SweepResult SweepRunner::run(const StopToken& stop) {
    requireValidPlan();
    SweepResult result = m_header;
    const std::vector<PointSpec> grid = points(m_plan);
    const auto start = Clock::now();
    SweepProgress progress;
    progress.total = int(grid.size());
    bool stopped = false;
    for (std::size_t i = 0; i < grid.size(); ++i) {
        if (stop.stopRequested()) {
            stopped = true;
            break;
        }
        progress.done = int(i);
        progress.elapsedSeconds = secondsSince(start);
        progress.etaSeconds = i == 0 ? -1.0 : progress.elapsedSeconds / double(i) * double(grid.size() - i);
        progress.current = describe(grid[i]);
        if (m_callbacks.onProgress) m_callbacks.onProgress(progress);
        PointResult point = measurePoint(grid[i], stop);
        const bool cancelled = point.status == PointStatus::Cancelled;
        result.points.push_back(point);
        if (m_callbacks.onPoint) m_callbacks.onPoint(result.points.back());
        if (cancelled) {
            stopped = true;
            break;
        }
    }
    progress.done =
        int(result.points.size()) -
        (stopped && !result.points.empty() && result.points.back().status == PointStatus::Cancelled ? 1 : 0);
    progress.elapsedSeconds = secondsSince(start);
    progress.etaSeconds = 0.0;
    progress.current.clear();
    if (m_callbacks.onProgress) m_callbacks.onProgress(progress);
    result.complete = !stopped;
    return result;
}

PointResult SweepRunner::measurePoint(const PointSpec& spec, const StopToken& stop) {
    const auto start = Clock::now();
    const MeasureSettings& settings = m_plan.settings;
    PointResult r;
    r.backend = spec.backend;
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
    std::vector<std::array<double, kPhaseCount>> eventMs;
    std::string mathType;
    try {
        std::unique_ptr<Session> session = backend->prepare(problem, verdict);
        r.memory = session->memory();
        r.notes = session->notes();
        mathType = session->mathType();
        auto checkStop = [&] {
            if (stop.stopRequested()) throw StopRequested{};
        };
        NullPhaseHook nullHook;
        if (tracer) tracer->beginPoint();
        for (int w = 0; w < settings.warmup; ++w) {
            checkStop();
            session->run(tracer ? tracer->hook() : static_cast<PhaseHook&>(nullHook));
        }
        r.warmupRuns = settings.warmup;
        if (tracer) tracer->discardSoFar();
        std::vector<PhaseHook*> hooks{&timer};
        if (tracer) hooks.push_back(&tracer->hook());
        FanOutHook hook(hooks);
        const auto measureStart = m_budgetClock();
        while (int(samples.size()) < settings.minRepeats ||
               (int(samples.size()) < settings.maxRepeats &&
                secondsSince(measureStart, m_budgetClock()) * 1000.0 < settings.timeBudgetMs)) {
            checkStop();
            samples.push_back(timedRun(*session, timer, hook));
            if (tracer) tracer->endIteration();
            if (auto ev = session->deviceEventMs()) eventMs.push_back(*ev);
        }
        if (tracer) {
            gpu = tracer->endPoint(int(samples.size()));
            // The collector's own cost: the same runs without tracing.
            std::vector<double> untraced;
            const int n = std::min<int>(int(samples.size()), 5);
            for (int i = 0; i < n; ++i) {
                const auto t0 = Clock::now();
                session->run(nullHook);
                untraced.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            }
            gpu->untracedMedianMs = summarize(untraced).median;
        }
    } catch (const StopRequested&) {
        if (tracer) (void)tracer->endPoint(0);
        return finish(PointStatus::Cancelled, "stopped by request after " + std::to_string(samples.size()) +
                                                  " of at least " + std::to_string(settings.minRepeats) +
                                                  " measured runs");
    } catch (const Error& e) {
        if (tracer) (void)tracer->endPoint(0);
        return finish(statusFor(e.kind()), e.what());
    } catch (const std::exception& e) {
        if (tracer) (void)tracer->endPoint(0);
        return finish(PointStatus::Failed, std::string("unexpected error: ") + e.what());
    }
    if (const auto memAfter = readProcessMemory(); memAfter && memBefore)
        r.peakRssGrowthBytes =
            memAfter->peakBytes > memBefore->rssBytes ? memAfter->peakBytes - memBefore->rssBytes : 0;

    r.measuredRuns = int(samples.size());
    r.iteration = summarize(samples);
    r.phaseMedianMs = timer.phaseMedians();
    r.steps = timer.stepStats();
    r.noisy = r.iteration.cv > settings.noiseThreshold;
    const int traced = timer.medianIteration();
    r.trace = timer.trace(traced);
    if (tracer && gpu && gpu->traced) {
        // GPU slices are timed from the iteration's first phase; the CPU trace from its start.
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
    }
    r.sequencesPerSecond = sequencesPerSecond(spec.shape, r.iteration.median);
    r.tokensPerSecond = tokensPerSecond(spec.shape, r.iteration.median);
    r.gflopsPerSecond = achievedGflops(r.flopsPerIteration, r.iteration.median);
    if (gpu) {
        if (!eventMs.empty())
            for (int p = 0; p < kPhaseCount; ++p) {
                std::vector<double> v;
                for (const auto& e : eventMs)
                    v.push_back(e[std::size_t(p)]);
                gpu->eventMs[std::size_t(p)] = summarize(v).median;
            }
        if (gpu->traced) gpu->tracedMedianMs = r.iteration.median;
        // The library buffers the session named in its footprint (engine/backend.h).
        gpu->cudnnWorkspaceBytes = r.memory.part(kBufferCudnnWorkspace);
        gpu->cudnnReserveBytes = r.memory.part(kBufferCudnnReserve);
        gpu->dropoutStateBytes = r.memory.part(kBufferCudnnDropoutStates);
        gpu->cublasWorkspaceBytes = r.memory.part(kBufferCublasWorkspace);
        gpu->mathType = mathType;
        r.gpu = std::move(gpu);
    }
    if (settings.checkNumerics && !stop.stopRequested())
        r.numerics = checkNumerics(*backend, problem, settings.numericsMaxWork);
    return finish(PointStatus::Ok, "");
}

} // namespace rnnprof

#include "profiling/gpu/activity_tracer.h"

#include <algorithm>
#include <exception>

namespace rnnprof::gpu {

std::string_view toString(ActivityKind kind) {
    switch (kind) {
    case ActivityKind::ConcurrentKernel:
        return "CONCURRENT_KERNEL";
    case ActivityKind::Memcpy:
        return "MEMCPY";
    case ActivityKind::Memset:
        return "MEMSET";
    case ActivityKind::Memory:
        return "MEMORY2";
    case ActivityKind::Runtime:
        return "RUNTIME";
    case ActivityKind::Driver:
        return "DRIVER";
    case ActivityKind::ExternalCorrelation:
        return "EXTERNAL_CORRELATION";
    }
    return "?";
}

CuptiVersionCheck checkCuptiVersion(std::uint32_t version) {
    CuptiVersionCheck check;
    const std::string named = "CUPTI API version " + std::to_string(version);
    if (version < kCupti130Ga)
        check.refusal = named + " is older than " + std::to_string(kCupti130Ga) +
                        " (CUDA 13.0), whose activity record layouts this build decodes: install CUPTI " +
                        std::to_string(kCupti130Update1) + " (CUDA 13.0 Update 1) or newer";
    else if (version < kCupti130Update1)
        check.warning = named + " (CUDA 13.0 GA) lacks the fixes of 13.0 Update 1 (" +
                        std::to_string(kCupti130Update1) +
                        "): a possible deadlock when disabling CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, a "
                        "possible crash in cuptiActivityFlushAll; tracing anyway (if a sweep hangs or "
                        "crashes while tracing, update CUPTI or use --no-gpu-trace)";
    return check;
}

std::unique_ptr<ActivityTracer> makeActivityTracer(std::uint32_t version, const OpenActivityApi& open) {
    CuptiVersionCheck check = checkCuptiVersion(version);
    if (!check.refusal.empty()) return std::make_unique<ActivityTracer>(std::move(check.refusal));
    std::string error;
    std::unique_ptr<ActivityApi> api = open(error);
    if (!api)
        return std::make_unique<ActivityTracer>(error.empty() ? "opening CUPTI failed" : std::move(error));
    return std::make_unique<ActivityTracer>(std::move(api), std::move(check.warning));
}

ActivityTracer::ActivityTracer(std::unique_ptr<ActivityApi> api, std::string warning)
    : m_api(std::move(api)), m_warning(std::move(warning)) {
    if (!m_api) m_unavailable = std::string(kUnavailablePrefix) + "no CUPTI activity interface";
}

ActivityTracer::ActivityTracer(std::string reason)
    : m_unavailable(std::string(kUnavailablePrefix) + (reason.empty() ? "unknown reason" : reason)) {}

ActivityTracer::~ActivityTracer() {
    if (!m_active) return;
    popAll();
    disableAll();
    m_api->discardRecords();
}

void ActivityTracer::makeUnavailable(const std::string& reason) {
    m_unavailable = std::string(kUnavailablePrefix) + reason;
}

bool ActivityTracer::push(const PhaseTag& tag) {
    if (m_api->pushExternalId(encodeExternalId(tag)).ok()) return true;
    ++m_pushFailures;
    return false;
}

void ActivityTracer::pushSetup() {
    m_setupPushed = push(PhaseTag{m_pointId, m_iteration, std::nullopt});
}

void ActivityTracer::popSetup() {
    if (m_setupPushed) (void)m_api->popExternalId();
    m_setupPushed = false;
}

void ActivityTracer::popAll() {
    // CUPTI's stack is LIFO: phases were pushed above the setup id.
    while (!m_phasePushes.empty()) {
        if (m_phasePushes.back()) (void)m_api->popExternalId();
        m_phasePushes.pop_back();
    }
    popSetup();
}

void ActivityTracer::disableAll() {
    for (auto it = m_enabled.rbegin(); it != m_enabled.rend(); ++it)
        (void)m_api->disable(*it);
    m_enabled.clear();
}

void ActivityTracer::startEpoch() {
    m_pointId = ++m_epochs;
    m_iteration = 0;
    m_windows.clear();
    m_iterationStart = m_api->nowNs();
    m_firstPhaseBegin.reset();
    m_lastPhaseEnd.reset();
    pushSetup();
}

void ActivityTracer::beginPoint() {
    if (!m_unavailable.empty()) return;
    if (m_active) { // a point that never ended: forget it
        popAll();
        disableAll();
        m_active = false;
    }
    m_lastTrace = {};
    m_lastWindows.clear();
    m_pointError.clear();
    m_api->discardRecords();
    (void)m_api->takeDroppedCount();
    for (const ActivityKind kind : kTracedActivityKinds) {
        if (const ApiStatus s = m_api->enable(kind); !s.ok()) {
            disableAll();
            m_api->detach();
            makeUnavailable(s.error);
            return;
        }
        m_enabled.push_back(kind);
    }
    m_active = true;
    startEpoch();
}

void ActivityTracer::discardSoFar() {
    if (!m_active) return;
    popAll();
    if (const ApiStatus s = m_api->flush(); !s.ok() && m_pointError.empty()) m_pointError = s.error;
    m_api->discardRecords();
    (void)m_api->takeDroppedCount();
    startEpoch(); // records of warm-up that surface later carry the old point id and are ignored
}

void ActivityTracer::onBeginPhase(Phase phase) {
    if (!m_active) return;
    if (!m_firstPhaseBegin) m_firstPhaseBegin = m_api->nowNs();
    m_phasePushes.push_back(push(PhaseTag{m_pointId, m_iteration, phase}));
}

void ActivityTracer::onEndPhase(Phase) {
    if (!m_active || m_phasePushes.empty()) return;
    if (m_phasePushes.back()) (void)m_api->popExternalId();
    m_phasePushes.pop_back();
    m_lastPhaseEnd = m_api->nowNs();
}

void ActivityTracer::endIteration() {
    if (!m_active) return;
    const std::uint64_t now = m_api->nowNs();
    // The iteration's host window: its phases when it marked any, else the time since the last one.
    m_windows.push_back({m_firstPhaseBegin.value_or(m_iterationStart), m_lastPhaseEnd.value_or(now)});
    ++m_iteration;
    m_iterationStart = now;
    m_firstPhaseBegin.reset();
    m_lastPhaseEnd.reset();
    if (m_phasePushes.empty()) { // the setup id sits below any open phase; swap it only when on top
        popSetup();
        pushSetup();
    }
}

GpuProfile ActivityTracer::endPoint(int iterations) {
    GpuProfile profile = collect(iterations);
    if (!m_warning.empty()) profile.warnings.push_back(m_warning);
    return profile;
}

GpuProfile ActivityTracer::collect(int iterations) {
    GpuProfile profile;
    if (!m_unavailable.empty()) {
        profile.unavailableReason = m_unavailable;
        return profile;
    }
    if (!m_active) {
        profile.unavailableReason = std::string(kUnavailablePrefix) + "endPoint() without beginPoint()";
        return profile;
    }
    popAll();
    const ApiStatus flushed = m_api->flush();
    std::vector<RecordBatch> batches = m_api->takeRecords();
    const std::uint64_t dropped = m_api->takeDroppedCount();
    disableAll();
    m_api->detach();
    m_active = false;
    if (m_pointError.empty() && !flushed.ok()) m_pointError = flushed.error;
    if (!m_pointError.empty()) {
        profile.unavailableReason = std::string(kUnavailablePrefix) + m_pointError;
        return profile;
    }
    if (iterations <= 0) { // an abandoned point (stopped, failed): nothing to aggregate
        profile.unavailableReason = std::string(kUnavailablePrefix) + "no measured iterations";
        return profile;
    }
    try {
        const auto n = std::uint32_t(iterations);
        m_lastTrace = attributeRecords(batches, m_pointId, n);
        m_lastWindows.assign(m_windows.begin(), m_windows.begin() + std::min<std::ptrdiff_t>(
                                                                        std::ptrdiff_t(m_windows.size()), n));
        profile = aggregateProfile(m_lastTrace, n, m_lastWindows);
        profile.droppedRecords += dropped;
    } catch (const std::exception& e) { // out of memory while decoding a huge trace
        m_lastTrace = {};
        profile = GpuProfile{};
        profile.unavailableReason =
            std::string(kUnavailablePrefix) + "aggregating the records failed: " + e.what();
    }
    return profile;
}

std::vector<TraceSlice> ActivityTracer::traceSlices(int iteration) const {
    if (iteration < 0 || std::size_t(iteration) >= m_lastWindows.size()) return {};
    // Origin: the start of the iteration's first phase, which the CPU trace marks too.
    return gpu::traceSlices(m_lastTrace, std::uint32_t(iteration),
                            m_lastWindows[std::size_t(iteration)].start);
}

} // namespace rnnprof::gpu

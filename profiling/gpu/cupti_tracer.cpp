// The ActivityApi over libcupti and the factory that hands it to an ActivityTracer. Built only
// when CUPTI is found (cupti_tracer_none.cpp otherwise).
#include "profiling/gpu/cupti_tracer.h"

#include "engine/gpu/gpu_info.h"
#include "profiling/gpu/activity_buffer_pool.h"
#include "profiling/gpu/activity_tracer.h"
#include "profiling/gpu/cupti_decode.h"

#include <cuda_runtime_api.h>
#include <cupti.h>

#include <array>
#include <chrono>
#include <string_view>

namespace rnnprof {
namespace gpu {
namespace {

// CUPTI's buffer callbacks are plain functions without user data, so they reach the buffers
// through this process-wide pool, which outlives every tracer.
ActivityBufferPool& processBufferPool() {
    static ActivityBufferPool pool;
    return pool;
}

void CUPTIAPI onBufferRequested(std::uint8_t** buffer, std::size_t* size, std::size_t* maxNumRecords) {
    *maxNumRecords = 0; // as many as fit
    *buffer = processBufferPool().request(*size);
}

void CUPTIAPI onBufferCompleted(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t,
                                std::size_t validSize) {
    processBufferPool().complete(buffer, validSize);
}

// The subscription only claims CUPTI; no callback domain is enabled.
void CUPTIAPI onCallback(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void*) {}

// What a user can do about the statuses that mean "CUPTI cannot be used here".
std::string_view hintFor(CUptiResult r) {
    switch (r) {
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
        return "another profiler holds CUPTI (Nsight Systems, Nsight Compute, cuda-gdb, compute-sanitizer "
               "or an in-process tool): run rnnprof outside it";
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
        return "insufficient privileges for GPU profiling: run as root, with CAP_SYS_ADMIN (containers: "
               "--cap-add SYS_ADMIN) or with NVreg_RestrictProfilingToAdminUsers=0";
    case CUPTI_ERROR_NOT_INITIALIZED:
        return "CUPTI could not initialise: is the NVIDIA driver older than CUDA 13 needs (r580 or newer)?";
    default:
        return {};
    }
}

ApiStatus check(CUptiResult r, std::string_view call) {
    if (r == CUPTI_SUCCESS) return {};
    std::string error = std::string(call) + " failed: " + describeCuptiStatus(int(r));
    if (const std::string_view hint = hintFor(r); !hint.empty()) error += "; " + std::string(hint);
    return {std::move(error)};
}

CUpti_ActivityKind toCupti(ActivityKind kind) {
    switch (kind) {
    case ActivityKind::ConcurrentKernel:
        return CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    case ActivityKind::Memcpy:
        return CUPTI_ACTIVITY_KIND_MEMCPY;
    case ActivityKind::Memset:
        return CUPTI_ACTIVITY_KIND_MEMSET;
    case ActivityKind::Memory:
        return CUPTI_ACTIVITY_KIND_MEMORY2;
    case ActivityKind::Runtime:
        return CUPTI_ACTIVITY_KIND_RUNTIME;
    case ActivityKind::Driver:
        return CUPTI_ACTIVITY_KIND_DRIVER;
    case ActivityKind::ExternalCorrelation:
        return CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION;
    }
    return CUPTI_ACTIVITY_KIND_INVALID;
}

std::string withKind(std::string_view call, ActivityKind kind) {
    return std::string(call) + "(" + std::string(toString(kind)) + ")";
}

// CUPTI's subscription, held from attach() to detach(): attached for the traced pass of each
// point and detached after it (cuptiFinalize), so that the untraced runs of the next point run
// without CUPTI's instrumentation. Its methods are called on the engine thread; the buffers arrive
// through the process pool from CUPTI's threads.
class CuptiActivityApi final : public ActivityApi {
public:
    CuptiActivityApi() = default;
    CuptiActivityApi(const CuptiActivityApi&) = delete;
    CuptiActivityApi& operator=(const CuptiActivityApi&) = delete;
    ~CuptiActivityApi() override { release(/*finalize=*/false); }

    // Claims CUPTI in the order NVIDIA asks for: subscribe before any other activity call (only
    // cuptiGetVersion, in makeKernelTracer(), comes first), then the attributes and the buffer
    // callbacks. On failure the status names the call.
    ApiStatus attach() {
        if (m_attached) return {};
        std::array<char, CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN> other{};
        CUpti_SubscriberParams params{};
        params.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
        params.subscriberName = "rnnprof";
        params.oldSubscriberName = other.data();
        params.oldSubscriberSize = other.size();
        const CUptiResult subscribed = cuptiSubscribe_v2(&m_subscriber, onCallback, nullptr, &params);
        if (subscribed != CUPTI_SUCCESS) {
            ApiStatus s = check(subscribed, "cuptiSubscribe_v2");
            other.back() = '\0';
            if (subscribed == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED && other.front() != '\0')
                s.error += " (attached: " + std::string(other.data()) + ")";
            return s;
        }
        m_attached = true; // unsubscribes from here on
        // Optional: our buffers come zeroed from calloc, so CUPTI need not zero them on the
        // application thread. A failure only costs that stall.
        std::uint8_t zeroed = 1;
        std::size_t zeroedSize = sizeof zeroed;
        (void)cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, &zeroedSize, &zeroed);
        return check(cuptiActivityRegisterCallbacks(onBufferRequested, onBufferCompleted),
                     "cuptiActivityRegisterCallbacks");
    }

    ApiStatus enable(ActivityKind kind) override {
        if (ApiStatus s = attach(); !s.ok()) return s;
        return check(cuptiActivityEnable(toCupti(kind)), withKind("cuptiActivityEnable", kind));
    }
    ApiStatus disable(ActivityKind kind) override {
        if (!m_attached) return {};
        return check(cuptiActivityDisable(toCupti(kind)), withKind("cuptiActivityDisable", kind));
    }
    ApiStatus pushExternalId(std::uint64_t externalId) override {
        return check(
            cuptiActivityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, externalId),
            "cuptiActivityPushExternalCorrelationId");
    }
    ApiStatus popExternalId() override {
        return check(cuptiActivityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, nullptr),
                     "cuptiActivityPopExternalCorrelationId");
    }
    ApiStatus flush() override {
        // FlushAll does not wait for the device; records of unfinished work would be missing.
        if (const cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess)
            return {std::string("cudaDeviceSynchronize failed: ") + cudaGetErrorName(e) + " (" +
                    cudaGetErrorString(e) + ")"};
        if (!m_attached) return {};
        // No lock is held here: the completion callbacks run inside FlushAll and take the pool's.
        return check(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");
    }
    std::vector<RecordBatch> takeRecords() override {
        std::vector<FilledBuffer> filled = processBufferPool().takeCompleted();
        std::vector<RecordBatch> batches;
        batches.reserve(filled.size());
        for (FilledBuffer& f : filled)
            batches.push_back(decodeBuffer(f.buffer.data(), f.validSize));
        return batches;
    }
    void discardRecords() override { processBufferPool().discardCompleted(); }
    std::uint64_t takeDroppedCount() override {
        // Detached, nothing can have been dropped, and any CUPTI call would attach CUPTI again.
        std::size_t dropped = 0;
        if (!m_attached || cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped) != CUPTI_SUCCESS) return 0;
        return dropped;
    }
    std::uint64_t nowNs() override {
        std::uint64_t t = 0;
        if (m_attached && cuptiGetTimestamp(&t) == CUPTI_SUCCESS) return t;
        // CUPTI's default clock on Linux is CLOCK_REALTIME, which system_clock reads.
        return std::uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count());
    }
    void detach() override { release(/*finalize=*/true); }

private:
    // Hands back what CUPTI still holds, then the subscription; activity is disabled by now. With
    // `finalize`, also detaches CUPTI from the process (NVIDIA: after syncing and flushing, which
    // flush() did on this thread, the only one that makes CUDA calls during a sweep).
    void release(bool finalize) {
        if (!m_attached) return;
        (void)cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
        processBufferPool().discardCompleted();
        (void)cuptiUnsubscribe(m_subscriber);
        m_attached = false;
        if (finalize) (void)cuptiFinalize();
    }

    CUpti_SubscriberHandle m_subscriber{};
    bool m_attached = false;
};

// The CUPTI activity interface, attached once here so that a refusal (another profiler, no
// driver, no privileges) makes the tracer unavailable from the start, then detached until the
// first traced pass: merely subscribed, CUPTI slowed a --no-gpu-trace sweep on the H100 by up to
// 1.35x. On failure returns null and sets `error`.
std::unique_ptr<ActivityApi> openCupti(std::string& error) {
    auto api = std::make_unique<CuptiActivityApi>();
    if (const ApiStatus s = api->attach(); !s.ok()) {
        error = s.error;
        if (const GpuInfo& info = gpuInfo(); !info.available && !info.reason.empty())
            error += "; " + info.reason;
        return nullptr;
    }
    if (const GpuInfo& info = gpuInfo(); !info.available) {
        error = "no usable GPU: " + info.reason;
        return nullptr;
    }
    api->detach();
    return api;
}

} // namespace

std::string describeCuptiStatus(int status) {
    const char* name = nullptr;
    const bool known = cuptiGetResultString(CUptiResult(status), &name) == CUPTI_SUCCESS && name != nullptr;
    return (known ? std::string(name) : "unknown CUPTI status") + " (" + std::to_string(status) + ")";
}

} // namespace gpu

void describeCupti(GpuInfo& gpu) {
    gpu.builtWithCupti = true;
    std::uint32_t v = 0;
    gpu.cuptiVersion = cuptiGetVersion(&v) == CUPTI_SUCCESS ? std::to_string(v) : "unknown";
}

std::unique_ptr<KernelTracer> makeKernelTracer() {
    std::uint32_t version = 0;
    if (const gpu::ApiStatus s = gpu::check(cuptiGetVersion(&version), "cuptiGetVersion"); !s.ok())
        return std::make_unique<gpu::ActivityTracer>(s.error);
    // Below 13.0 refused, 13.0 GA traced with a warning (gpu::checkCuptiVersion).
    return gpu::makeActivityTracer(version, [](std::string& error) { return gpu::openCupti(error); });
}

} // namespace rnnprof

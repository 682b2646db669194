#pragma once
// An ActivityApi that behaves like CUPTI as far as the tracer can tell: a per-thread stack of
// external ids, kinds switched on and off, records held until a flush, injected failures. Its
// state is shared with the test, because the tracer owns the api.
#include "profiling/gpu/activity_api.h"
#include "trace_builders.h"

#include <memory>
#include <set>
#include <utility>

namespace rnnprof::test {

struct FakeCupti {
    std::vector<std::string> log;
    std::vector<std::uint64_t> stack; // external ids, top at the back
    std::set<gpu::ActivityKind> enabled;
    std::optional<gpu::ActivityKind> failEnable;
    bool failFlush = false;
    bool failPush = false;
    std::vector<gpu::RecordBatch> pending; // in CUPTI's buffers, delivered by a flush
    std::vector<gpu::RecordBatch> flushed;
    std::uint64_t dropped = 0;
    std::uint64_t now = 1'000'000;
    std::uint32_t nextCorrelation = 1;

    // A kernel launched now from the calling thread: CUPTI tags its API call with the external id
    // on top of the stack. The tag lands in a later buffer than the kernel, as it can for real.
    void launch(std::string name, std::uint64_t start, std::uint64_t end, std::uint32_t stream = 7) {
        const std::uint32_t id = nextCorrelation++;
        if (!enabled.contains(gpu::ActivityKind::ConcurrentKernel)) return;
        gpu::RecordBatch kernels;
        kernels.kernels.push_back(kernel(std::move(name), start, end, id, stream));
        pending.push_back(std::move(kernels));
        if (!stack.empty() && enabled.contains(gpu::ActivityKind::ExternalCorrelation)) {
            gpu::RecordBatch tags;
            tags.correlations.push_back({gpu::kCustom0CorrelationKind, stack.back(), id});
            pending.push_back(std::move(tags));
        }
    }
};

class FakeActivityApi final : public gpu::ActivityApi {
public:
    explicit FakeActivityApi(std::shared_ptr<FakeCupti> state) : m(std::move(state)) {}

    gpu::ApiStatus enable(gpu::ActivityKind kind) override {
        m->log.push_back("enable " + std::string(toString(kind)));
        if (m->failEnable == kind)
            return {"cuptiActivityEnable(" + std::string(toString(kind)) +
                    ") failed: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35)"};
        m->enabled.insert(kind);
        return {};
    }
    gpu::ApiStatus disable(gpu::ActivityKind kind) override {
        m->log.push_back("disable " + std::string(toString(kind)));
        m->enabled.erase(kind);
        return {};
    }
    gpu::ApiStatus pushExternalId(std::uint64_t id) override {
        if (m->failPush) return {"cuptiActivityPushExternalCorrelationId failed: CUPTI_ERROR_UNKNOWN (999)"};
        m->stack.push_back(id);
        return {};
    }
    gpu::ApiStatus popExternalId() override {
        if (m->stack.empty())
            return {"cuptiActivityPopExternalCorrelationId failed: CUPTI_ERROR_QUEUE_EMPTY (18)"};
        m->stack.pop_back();
        return {};
    }
    gpu::ApiStatus flush() override {
        m->log.push_back("flush");
        if (m->failFlush)
            return {"cudaDeviceSynchronize failed: cudaErrorIllegalAddress (an illegal memory access)"};
        for (gpu::RecordBatch& b : m->pending)
            m->flushed.push_back(std::move(b));
        m->pending.clear();
        return {};
    }
    std::vector<gpu::RecordBatch> takeRecords() override { return std::exchange(m->flushed, {}); }
    void discardRecords() override {
        m->log.push_back("discard");
        m->flushed.clear();
    }
    std::uint64_t takeDroppedCount() override { return std::exchange(m->dropped, 0); }
    std::uint64_t nowNs() override { return m->now; }
    void detach() override { m->log.push_back("detach"); }

private:
    std::shared_ptr<FakeCupti> m;
};

} // namespace rnnprof::test

#include "engine/gpu/stream_queue.h"

#include "engine/gpu/cuda_check.h"

namespace rnnprof::gpu {
namespace {

class EventStopwatch final : public DeviceStopwatch {
public:
    explicit EventStopwatch(cudaStream_t stream) : m_stream(stream) {}
    void start() override { m_start.record(m_stream); }
    void stop() override { m_stop.record(m_stream); }
    [[nodiscard]] double elapsedMs() const override {
        float ms = 0.0f;
        checkCuda(cudaEventElapsedTime(&ms, m_start.get(), m_stop.get()), "cudaEventElapsedTime");
        return double(ms);
    }

private:
    cudaStream_t m_stream;
    CudaEvent m_start;
    CudaEvent m_stop;
};

} // namespace

std::unique_ptr<DeviceStopwatch> StreamQueue::makeStopwatch() {
    return std::make_unique<EventStopwatch>(m_stream.get());
}

} // namespace rnnprof::gpu

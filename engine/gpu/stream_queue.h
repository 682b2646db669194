#pragma once
// DeviceQueue (engine/device_queue.h) over a session's CUDA stream: synchronize() waits for the
// stream, stopwatches are pairs of CUDA events recorded on it. CUDA builds only.
#include "engine/device_queue.h"
#include "engine/gpu/cuda_resources.h"

namespace rnnprof::gpu {

class StreamQueue final : public DeviceQueue {
public:
    // `stream` must outlive the queue and every stopwatch made from it.
    explicit StreamQueue(const CudaStream& stream) : m_stream(stream) {}
    void synchronize() override { m_stream.synchronize(); }
    [[nodiscard]] std::unique_ptr<DeviceStopwatch> makeStopwatch() override;

private:
    const CudaStream& m_stream;
};

} // namespace rnnprof::gpu

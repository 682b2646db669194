#include "engine/gpu/phase_events.h"

#include "engine/gpu/cuda_check.h"

namespace rnnprof::gpu {

std::array<double, kPhaseCount> PhaseEvents::elapsedMs() const {
    std::array<double, kPhaseCount> ms{};
    for (std::size_t i = 0; i < ms.size(); ++i) {
        if (!m_recorded[i]) continue;
        float value = 0.0f;
        checkCuda(cudaEventElapsedTime(&value, m_start[i].get(), m_stop[i].get()), "cudaEventElapsedTime");
        ms[i] = double(value);
    }
    return ms;
}

} // namespace rnnprof::gpu

#pragma once
// CUDA events around each phase of a run on one stream: the device-side time of forward, backward
// and update (Session::deviceEventMs). CUDA builds only.
#include "engine/gpu/cuda_resources.h"
#include "engine/phase_hook.h"

#include <array>

namespace rnnprof::gpu {

class PhaseEvents {
public:
    // Forget the previous run: phases not recorded again report 0.
    void reset() { m_recorded = {}; }
    void begin(Phase phase, cudaStream_t stream) { m_start[index(phase)].record(stream); }
    void end(Phase phase, cudaStream_t stream) {
        m_stop[index(phase)].record(stream);
        m_recorded[index(phase)] = true;
    }
    // Milliseconds per phase; call after the stream has completed the run.
    [[nodiscard]] std::array<double, kPhaseCount> elapsedMs() const;

private:
    static std::size_t index(Phase p) { return std::size_t(p); }
    std::array<CudaEvent, kPhaseCount> m_start;
    std::array<CudaEvent, kPhaseCount> m_stop;
    std::array<bool, kPhaseCount> m_recorded{};
};

} // namespace rnnprof::gpu

#pragma once
// Optional CUDA Graph replay of each phase of an iteration (BackendOptions::cudaGraph). The first
// run() of a phase captures what the phase enqueues on the session's stream into a graph; from then
// on every run launches the instantiated graph: one launch per phase instead of one per kernel and
// library call, so the time a small-batch iteration spends launching work shows as the difference
// to the same point measured without graphs. Capturing executes nothing, so a freshly captured
// phase is launched right after its capture. The phase's work is enqueued with a hook that marks
// nothing (a hook may wait for the stream, which a capture forbids): with graphs, points have no
// sub-steps. CUDA builds only.
#include "engine/phase_hook.h"

#include <cuda_runtime_api.h>

#include <array>
#include <functional>
#include <memory>

namespace rnnprof::gpu {

class PhaseGraphs {
public:
    explicit PhaseGraphs(bool enabled);
    ~PhaseGraphs();
    PhaseGraphs(const PhaseGraphs&) = delete;
    PhaseGraphs& operator=(const PhaseGraphs&) = delete;

    [[nodiscard]] bool enabled() const { return m_enabled; }
    // Enqueues `phase` on `stream`: `enqueue(hook)` itself without graphs; with graphs, the
    // phase's graph (captured from `enqueue` on first use).
    void run(Phase phase, cudaStream_t stream, PhaseHook& hook,
             const std::function<void(PhaseHook&)>& enqueue);

private:
    struct Graph;
    bool m_enabled;
    std::array<std::unique_ptr<Graph>, kPhaseCount> m_graphs;
};

} // namespace rnnprof::gpu

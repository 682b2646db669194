#include "engine/gpu/phase_graphs.h"

#include "engine/gpu/cuda_check.h"

#include <exception>

namespace rnnprof::gpu {

// A captured graph and its executable instance, each destroyed with its own call.
struct PhaseGraphs::Graph {
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    Graph() = default;
    Graph(const Graph&) = delete;
    Graph& operator=(const Graph&) = delete;
    ~Graph() {
        if (exec) cudaGraphExecDestroy(exec);
        if (graph) cudaGraphDestroy(graph);
    }
};

PhaseGraphs::PhaseGraphs(bool enabled) : m_enabled(enabled) {}

PhaseGraphs::~PhaseGraphs() = default;

void PhaseGraphs::run(Phase phase, cudaStream_t stream, PhaseHook& hook,
                      const std::function<void(PhaseHook&)>& enqueue) {
    if (!m_enabled) {
        enqueue(hook);
        return;
    }
    std::unique_ptr<Graph>& slot = m_graphs[std::size_t(phase)];
    if (!slot) {
        auto g = std::make_unique<Graph>();
        // Thread-local mode: only this thread's unsafe calls (a synchronisation, say) end the capture.
        checkCuda(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
        NullPhaseHook quiet;
        try {
            enqueue(quiet);
        } catch (...) {
            cudaGraph_t discarded = nullptr; // leave the stream out of capture mode, then report
            if (cudaStreamEndCapture(stream, &discarded) == cudaSuccess && discarded)
                cudaGraphDestroy(discarded);
            cudaGetLastError();
            throw;
        }
        checkCuda(cudaStreamEndCapture(stream, &g->graph), "cudaStreamEndCapture");
        checkCuda(cudaGraphInstantiate(&g->exec, g->graph, 0), "cudaGraphInstantiate");
        slot = std::move(g);
    }
    checkCuda(cudaGraphLaunch(slot->exec, stream), "cudaGraphLaunch");
}

} // namespace rnnprof::gpu

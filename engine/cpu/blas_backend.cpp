#include "engine/cpu/blas_backend.h"

#include "engine/cpu/blas_layout.h"
#include "engine/cpu/blas_session.h"

namespace rnnprof {

std::vector<std::string> BlasBackend::unsupportedReasons(const RnnConfig&, Mode) const {
    return {};
}

MemoryFootprint BlasBackend::estimateMemory(const Problem& problem) const {
    const cpu::BlasLayout layout(problem);
    const int threads = cpu::sessionThreads(layout, problem.options.gemm, problem.options.threads);
    const cpu::RecurrentPlan plan = cpu::recurrentPlan(layout, problem.options.gemm, threads);
    MemoryFootprint m = cpu::blasFootprint(layout, cpu::inputProjectionSteps(layout, plan));
    for (const MemoryFootprint& part :
         {cpu::packedProductsFootprint(layout, plan), cpu::packedInputFootprint(layout, plan, threads),
          cpu::weightGradientFootprint(layout, problem.options.gemm, threads)}) {
        m.weights += part.weights;
        m.workspace += part.workspace;
        m.detail.insert(m.detail.end(), part.detail.begin(), part.detail.end());
    }
    return m;
}

std::unique_ptr<Session> BlasBackend::makeSession(const Problem& problem, const MemoryFootprint&) const {
    return std::make_unique<cpu::BlasSession>(problem);
}

} // namespace rnnprof

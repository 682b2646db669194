#pragma once
// "cpu-blas": the fast CPU path. Per layer: the input projection (one GEMM over all steps, or at
// large batch one per step), then the recurrence step by step - a product on W_hh packed once
// (engine/cpu/packed_gemm.h) and one fused gate pass per step (engine/kernels/step_kernels.h), or
// in inference at small batch the fused step that does both from L1 (engine/cpu/fused_step.h) - on
// a step team where the work pays for one (recurrent_threads.h); in training, weight gradients are
// one GEMM over all steps. GEMMs go to oneDNN (matmul, sgemm) or OpenBLAS, by option; blas_plan.h
// decides which runs where.
#include "engine/backend.h"

namespace rnnprof {

class BlasBackend final : public Backend {
public:
    [[nodiscard]] std::string_view id() const override { return "cpu-blas"; }
    [[nodiscard]] std::string_view description() const override {
        return "Fused CPU implementation over a BLAS sgemm (oneDNN or OpenBLAS)";
    }
    [[nodiscard]] Availability availability() const override { return {}; }
    [[nodiscard]] std::vector<std::string> unsupportedReasons(const RnnConfig& config,
                                                              Mode mode) const override;
    [[nodiscard]] MemoryFootprint estimateMemory(const Problem& problem) const override;

protected:
    [[nodiscard]] std::unique_ptr<Session> makeSession(const Problem& problem,
                                                       const MemoryFootprint& estimate) const override;
};

} // namespace rnnprof

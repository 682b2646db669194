#pragma once
// "cpu-blas": the fast CPU path. Per layer: the input projection (one GEMM over all steps, at
// large batch one per step, or in chunks of steps where all of it would leave L2), then the recurrence step
// by step: a product per step on W_hh (a oneDNN matmul on W_hh packed once, again after every SGD step in
// training, where blas_plan.h allows it; else sgemm) and one fused gate pass (engine/kernels/step_kernels.h);
// or, in inference (LSTM, reset-after GRU, oneDNN as provider) at batch <= kFusedMaxBatch, where a block of
// W_hh fits in L1, or (AVX-512) at batch <= kFusedStreamMaxBatch where a slice of W_hh streams from beyond
// L2, the fused step that does both in one pass (fused_step.h). Steps run on a team where the
// work pays for one (recurrent_threads.h). In training, weight gradients are GEMMs over all steps (dW_ih one
// a layer, dW_hh one a direction) and input gradients one GEMM. GEMMs go to oneDNN (matmul, sgemm) or
// OpenBLAS, by option; blas_plan.h decides which runs where.
#include "engine/backend.h"

namespace rnnprof {

class BlasBackend final : public Backend {
public:
    [[nodiscard]] std::string_view id() const override { return "cpu-blas"; }
    [[nodiscard]] std::string_view description() const override {
        return "Fused CPU implementation over GEMMs: oneDNN (weights packed once) or OpenBLAS";
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

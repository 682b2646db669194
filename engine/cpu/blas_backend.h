#pragma once
// "cpu-blas": the fast CPU path. Per layer: the input projection x * W_ih^T (over all steps, per step, or in
// chunks of steps), then step by step a product on W_hh (a oneDNN matmul on W_hh packed once, and again after
// every SGD step in training, where blas_plan.h allows it; else sgemm) and one fused gate pass
// (engine/kernels/step_kernels.h), or, in inference, the fused step that does both in one pass
// (fused_step.h). Steps run on a team where the work pays for one (recurrent_threads.h). Training adds the
// weight gradients (GEMMs over all steps) and one input-gradient GEMM. GEMMs go to oneDNN or OpenBLAS, by
// option; blas_plan.h decides which runs where, and docs/cpu-blas.md explains each rule.
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

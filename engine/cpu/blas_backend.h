#pragma once
// "cpu-blas": the fast CPU path. One GEMM projects the input of all time steps (both directions),
// one GEMM (a GEMV at batch 1) per step runs the recurrence, the gate math is one fused pass per
// step (engine/kernels/step_kernels.h), weight gradients are one GEMM over all steps and input
// gradients one GEMM. GEMMs go to oneDNN's sgemm (AVX-512 JIT) or OpenBLAS, by option.
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

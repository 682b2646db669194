#pragma once
// The two GPU backends. Both are always registered: without CUDA in the build, without a driver
// or without a device, availability() says why and prepare() throws DeviceUnavailable. The
// sessions (engine/gpu/generic_session.cpp, engine/gpu/cudnn_session.cpp) create every CUDA
// object on the thread that calls prepare() and must be run on that thread.
#include "engine/backend.h"

namespace rnnprof {

// "gpu-generic": cuBLAS GEMMs plus rnnprof's element-wise CUDA kernels, step by step, the path a
// framework falls back to when cuDNN's criteria are not met. Supports every option.
class GpuGenericBackend final : public Backend {
public:
    [[nodiscard]] std::string_view id() const override { return "gpu-generic"; }
    [[nodiscard]] std::string_view description() const override {
        return "cuBLAS GEMMs and fused element-wise CUDA kernels per step (the framework fallback); every "
               "option";
    }
    [[nodiscard]] bool isGpu() const override { return true; }
    [[nodiscard]] Availability availability() const override;
    [[nodiscard]] std::vector<std::string> unsupportedReasons(const RnnConfig& config,
                                                              Mode mode) const override;
    [[nodiscard]] MemoryFootprint estimateMemory(const Problem& problem) const override;

protected:
    [[nodiscard]] std::unique_ptr<Session> makeSession(const Problem& problem,
                                                       const MemoryFootprint& estimate) const override;
};

// "gpu-cudnn": cuDNN's RNN API (v8/v9), CUDNN_FWD_MODE_TRAINING with reserve space or
// CUDNN_FWD_MODE_INFERENCE without. Every configuration cuDNN can run (engine/gpu/cudnn_eligibility.h).
class GpuCudnnBackend final : public Backend {
public:
    [[nodiscard]] std::string_view id() const override { return "gpu-cudnn"; }
    [[nodiscard]] std::string_view description() const override {
        return "cuDNN RNN API: cudnnRNNForward (training or inference mode) and the v8 backward calls";
    }
    [[nodiscard]] bool isGpu() const override { return true; }
    [[nodiscard]] Availability availability() const override;
    [[nodiscard]] std::vector<std::string> unsupportedReasons(const RnnConfig& config,
                                                              Mode mode) const override;
    [[nodiscard]] MemoryFootprint estimateMemory(const Problem& problem) const override;

protected:
    [[nodiscard]] std::unique_ptr<Session> makeSession(const Problem& problem,
                                                       const MemoryFootprint& estimate) const override;
};

} // namespace rnnprof

#pragma once
// Where the GPU sessions come from: defined by the CUDA translation units, or by
// gpu_sessions_none.cpp / cudnn_session_none.cpp (which throw DeviceUnavailable) in builds
// without CUDA or cuDNN. Called by the backends once assess() said ready; internal to engine/gpu.
#include "engine/backend.h"

#include <cstdint>
#include <memory>
#include <string>

namespace rnnprof::gpu {

[[nodiscard]] std::unique_ptr<Session> makeGenericSession(const Problem& problem);
// Why gpu-generic cannot run on a machine whose GPU is usable ("cuBLAS could not be loaded: ..."),
// or "". Loads cuBLAS (cublas_library.h), so it is asked only once a GPU was found.
[[nodiscard]] std::string genericLibraryProblem();
[[nodiscard]] std::unique_ptr<Session> makeCudnnSession(const Problem& problem);

// Throws Error(OutOfMemory) "<what> needs 31.2 GiB of device memory, 22.0 GiB free: ..." when
// `needed` exceeds `freeBytes`. Pure, so the refusal is tested without a device.
void requireDeviceFits(std::uint64_t needed, std::uint64_t freeBytes, const std::string& what);
// "gpu-cudnn at batch 64, seq_len 100"

} // namespace rnnprof::gpu

#include "engine/gpu/gpu_backends.h"

#include "engine/error.h"
#include "engine/gpu/cudnn_eligibility.h"
#include "engine/gpu/cudnn_memory.h"
#include "engine/gpu/generic_buffers.h"
#include "engine/gpu/gpu_info.h"
#include "engine/gpu/gpu_session_factory.h"
#include "engine/host_memory.h"

namespace rnnprof {

namespace gpu {

void requireDeviceFits(std::uint64_t needed, std::uint64_t freeBytes, const std::string& what) {
    if (needed <= freeBytes) return;
    throw Error(ErrorKind::OutOfMemory, what + " needs " + formatBytes(needed) + " of device memory, " +
                                            formatBytes(freeBytes) +
                                            " free: reduce batch, sequence length or hidden size");
}

} // namespace gpu

Availability GpuGenericBackend::availability() const {
    const GpuInfo& info = gpuInfo();
    if (!info.available) return {false, info.reason};
    if (std::string problem = gpu::genericLibraryProblem(); !problem.empty()) return {false, problem};
    return {};
}

std::vector<std::string> GpuGenericBackend::unsupportedReasons(const RnnConfig&, Mode) const {
    return {};
}

MemoryFootprint GpuGenericBackend::estimateMemory(const Problem& problem) const {
    return gpu::genericFootprint(gpu::GenericDims::of(problem));
}

std::unique_ptr<Session> GpuGenericBackend::makeSession(const Problem& problem,
                                                        const MemoryFootprint&) const {
    return gpu::makeGenericSession(problem);
}

Availability GpuCudnnBackend::availability() const {
    const GpuInfo& info = gpuInfo();
    if (info.builtWithCuda && !info.builtWithCudnn)
        return {false,
                "rnnprof was built without cuDNN (cudnn.h or libcudnn was not found at configure time)"};
    if (!info.available) return {false, info.reason};
    return {};
}

std::vector<std::string> GpuCudnnBackend::unsupportedReasons(const RnnConfig& config, Mode mode) const {
    return gpu::cudnnEligibility(config, mode);
}

MemoryFootprint GpuCudnnBackend::estimateMemory(const Problem& problem) const {
    return gpu::cudnnFootprint(problem, gpu::estimateCudnnSpaces(problem));
}

std::unique_ptr<Session> GpuCudnnBackend::makeSession(const Problem& problem, const MemoryFootprint&) const {
    return gpu::makeCudnnSession(problem);
}

} // namespace rnnprof

// makeKernelTracer for builds without CUPTI: a tracer that says so and never traces.
#include "profiling/gpu/activity_tracer.h"
#include "profiling/gpu/cupti_tracer.h"

namespace rnnprof {

void describeCupti(GpuInfo& gpu) {
    gpu.builtWithCupti = false;
    gpu.cuptiVersion.clear();
}

std::unique_ptr<KernelTracer> makeKernelTracer() {
    return std::make_unique<gpu::ActivityTracer>(std::string("built without CUPTI"));
}

namespace gpu {

std::string describeCuptiStatus(int status) {
    return "unknown CUPTI status (" + std::to_string(status) + ")";
}

} // namespace gpu
} // namespace rnnprof

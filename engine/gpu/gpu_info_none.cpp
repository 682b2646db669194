#include "engine/gpu/gpu_info.h"

namespace rnnprof {

GpuInfo queryGpuInfo() {
    GpuInfo info;
    info.reason = "rnnprof was built without CUDA (the CUDA toolkit was not found at configure time)";
    return info;
}

void measureFreeMemory(GpuInfo&) {}

} // namespace rnnprof

// Builds without CUDA: the GPU backends exist (and say why they are unavailable) but can never
// create a session.
#include "engine/error.h"
#include "engine/gpu/gpu_info.h"
#include "engine/gpu/gpu_session_factory.h"

namespace rnnprof::gpu {

std::unique_ptr<Session> makeGenericSession(const Problem&) {
    throw Error(ErrorKind::DeviceUnavailable, "gpu-generic unavailable: " + gpuInfo().reason);
}

std::string genericLibraryProblem() {
    return "rnnprof was built without CUDA";
}

std::unique_ptr<Session> makeCudnnSession(const Problem&) {
    throw Error(ErrorKind::DeviceUnavailable, "gpu-cudnn unavailable: " + gpuInfo().reason);
}

} // namespace rnnprof::gpu

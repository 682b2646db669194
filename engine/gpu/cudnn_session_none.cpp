// Builds with CUDA but without cuDNN: gpu-cudnn exists (and says why it is unavailable) but can
// never create a session.
#include "engine/error.h"
#include "engine/gpu/gpu_session_factory.h"

namespace rnnprof::gpu {

std::unique_ptr<Session> makeCudnnSession(const Problem&) {
    throw Error(
        ErrorKind::DeviceUnavailable,
        "gpu-cudnn unavailable: rnnprof was built without cuDNN (cudnn.h or libcudnn was not found at "
        "configure time)");
}

} // namespace rnnprof::gpu

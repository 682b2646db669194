#include "engine/gpu/cudnn_resources.h"

#include "engine/gpu/gpu_status.h"

#include <array>

namespace rnnprof::gpu {

void checkCudnn(cudnnStatus_t status, std::string_view call) {
    if (status == CUDNN_STATUS_SUCCESS) return;
    std::array<char, 512> detail{};
    cudnnGetLastErrorString(detail.data(), detail.size());
    detail.back() = '\0';
    throw cudnnFailure(call, int(status), cudnnGetErrorString(status), detail.data());
}

} // namespace rnnprof::gpu

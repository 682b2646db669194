#include "engine/gpu/device_probe.h"

#include <cuda_runtime.h>

#include <vector>

namespace rnnprof {
namespace {

__global__ void fillKernel(int* out, int n, int value) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = value + i;
}

std::string failure(const char* call, cudaError_t err) {
    return std::string(call) + " failed: " + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")";
}

} // namespace

std::string runDeviceProbe() {
    constexpr int n = 1024;
    int* device = nullptr;
    if (cudaError_t err = cudaMalloc(&device, n * sizeof(int)); err != cudaSuccess)
        return failure("cudaMalloc", err);
    fillKernel<<<(n + 255) / 256, 256>>>(device, n, 7);
    std::string result;
    std::vector<int> host(n);
    if (cudaError_t err = cudaGetLastError(); err != cudaSuccess)
        result = failure("fillKernel launch", err);
    else if (cudaError_t err2 = cudaMemcpy(host.data(), device, n * sizeof(int), cudaMemcpyDeviceToHost);
             err2 != cudaSuccess)
        result = failure("cudaMemcpy", err2);
    else
        for (int i = 0; i < n && result.empty(); ++i)
            if (host[i] != 7 + i) result = "device probe read back wrong values";
    cudaFree(device);
    return result;
}

} // namespace rnnprof

#include "engine/gpu/cuda_resources.h"

#include "engine/gpu/cublas_library.h"
#include "engine/gpu/cuda_check.h"
#include "engine/gpu/generic_buffers.h"
#include "engine/host_memory.h"

#include <utility>

namespace rnnprof::gpu {

DeviceBuffer::DeviceBuffer(std::size_t bytes, const std::string& what) : m_bytes(bytes) {
    if (bytes == 0) return;
    checkCuda(cudaMalloc(&m_ptr, bytes), "cudaMalloc of " + formatBytes(bytes) + " for " + what);
}

DeviceBuffer::~DeviceBuffer() {
    if (m_ptr) (void)cudaFree(m_ptr);
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : m_ptr(std::exchange(other.m_ptr, nullptr)), m_bytes(std::exchange(other.m_bytes, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
        if (m_ptr) (void)cudaFree(m_ptr);
        m_ptr = std::exchange(other.m_ptr, nullptr);
        m_bytes = std::exchange(other.m_bytes, 0);
    }
    return *this;
}

CudaStream::CudaStream() {
    checkCuda(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
}

CudaStream::~CudaStream() {
    if (m_stream) (void)cudaStreamDestroy(m_stream);
}

void CudaStream::synchronize() const {
    checkCuda(cudaStreamSynchronize(m_stream), "cudaStreamSynchronize");
}

CudaEvent::CudaEvent() {
    checkCuda(cudaEventCreate(&m_event), "cudaEventCreate");
}

CudaEvent::~CudaEvent() {
    if (m_event) (void)cudaEventDestroy(m_event);
}

void CudaEvent::record(cudaStream_t stream) const {
    checkCuda(cudaEventRecord(m_event, stream), "cudaEventRecord");
}

CublasHandle::CublasHandle(cudaStream_t stream, bool allowTf32) {
    checkCublas(cublas().create(&m_handle), "cublasCreate");
    // From here on the destructor releases the handle should a later call throw.
    try {
        checkCublas(cublas().setStream(m_handle, stream), "cublasSetStream");
        checkCublas(
            cublas().setMathMode(m_handle, allowTf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH),
            "cublasSetMathMode");
        m_workspace = DeviceBuffer(kCublasWorkspaceBytes, "the cuBLAS workspace");
        checkCublas(cublas().setWorkspace(m_handle, m_workspace.get(), m_workspace.bytes()),
                    "cublasSetWorkspace");
    } catch (...) {
        (void)cublas().destroy(m_handle);
        throw;
    }
}

CublasHandle::~CublasHandle() {
    if (m_handle) (void)cublas().destroy(m_handle);
}

void selectDevice() {
    checkCuda(cudaSetDevice(0), "cudaSetDevice(0)");
    checkCuda(cudaFree(nullptr), "CUDA context creation (cudaFree(nullptr))");
}

std::uint64_t freeDeviceMemory() {
    std::size_t freeBytes = 0, totalBytes = 0;
    checkCuda(cudaMemGetInfo(&freeBytes, &totalBytes), "cudaMemGetInfo");
    return freeBytes;
}

void copyToDevice(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) {
    if (bytes == 0) return;
    checkCuda(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream),
              "cudaMemcpyAsync (host to device)");
    checkCuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}

void copyToHost(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) {
    if (bytes == 0) return;
    checkCuda(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream),
              "cudaMemcpyAsync (device to host)");
    checkCuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}

} // namespace rnnprof::gpu

#pragma once
// RAII owners of CUDA runtime and cuBLAS objects: device memory, a stream, an event, a cuBLAS
// handle. Each is created by its constructor (status checked, Error on failure) and released by
// its destructor; move-only. Create and destroy them on the thread that runs the session.
// CUDA builds only.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace rnnprof::gpu {

// Owns cudaMalloc'd bytes. `what` names the buffer in the error when the allocation fails.
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    DeviceBuffer(std::size_t bytes, const std::string& what);
    ~DeviceBuffer();
    DeviceBuffer(DeviceBuffer&& other) noexcept;
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    [[nodiscard]] void* get() const { return m_ptr; }
    template <class T>
    [[nodiscard]] T* as() const {
        return static_cast<T*>(m_ptr);
    }
    [[nodiscard]] std::size_t bytes() const { return m_bytes; }

private:
    void* m_ptr = nullptr;
    std::size_t m_bytes = 0;
};

// A non-blocking stream: it never synchronises implicitly with the legacy default stream, so
// every copy to or from it goes through the helpers below.
class CudaStream {
public:
    CudaStream();
    ~CudaStream();
    CudaStream(const CudaStream&) = delete;
    CudaStream& operator=(const CudaStream&) = delete;
    [[nodiscard]] cudaStream_t get() const { return m_stream; }
    void synchronize() const;

private:
    cudaStream_t m_stream = nullptr;
};

class CudaEvent {
public:
    CudaEvent();
    ~CudaEvent();
    CudaEvent(const CudaEvent&) = delete;
    CudaEvent& operator=(const CudaEvent&) = delete;
    [[nodiscard]] cudaEvent_t get() const { return m_event; }
    void record(cudaStream_t stream) const;

private:
    cudaEvent_t m_event = nullptr;
};

// A cuBLAS handle bound to `stream`, with math mode strict FP32 (CUBLAS_DEFAULT_MATH: no tensor
// cores for FP32) or TF32 tensor cores allowed (CUBLAS_TF32_TENSOR_OP_MATH), and a workspace of
// kCublasWorkspaceBytes that it owns, so cuBLAS allocates nothing behind our back.
class CublasHandle {
public:
    CublasHandle(cudaStream_t stream, bool allowTf32);
    ~CublasHandle();
    CublasHandle(const CublasHandle&) = delete;
    CublasHandle& operator=(const CublasHandle&) = delete;
    [[nodiscard]] cublasHandle_t get() const { return m_handle; }

private:
    cublasHandle_t m_handle = nullptr;
    DeviceBuffer m_workspace;
};

// Makes device 0 current on this thread (creating its context): DeviceUnavailable without one.
void selectDevice();
// cudaMemGetInfo's free bytes on the current device.
[[nodiscard]] std::uint64_t freeDeviceMemory();
// Copies ordered on `stream`; each waits for completion, so host buffers may go away after.
void copyToDevice(void* dst, const void* src, std::size_t bytes, cudaStream_t stream);
void copyToHost(void* dst, const void* src, std::size_t bytes, cudaStream_t stream);

} // namespace rnnprof::gpu

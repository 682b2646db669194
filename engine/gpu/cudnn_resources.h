#pragma once
// cuDNN status checks and one small RAII owner per cuDNN object (handle, tensor, RNN-data, RNN and
// dropout descriptors). A failed call throws rnnprof::Error naming the call, e.g.
// "cudnnCreate failed: CUDNN_STATUS_NOT_INITIALIZED (1001): ..." (DeviceUnavailable), with the
// category from engine/gpu/gpu_status.h (NOT_SUPPORTED -> Unsupported). CUDA + cuDNN builds only.
#include <cudnn.h>

#include <string_view>
#include <utility>

namespace rnnprof::gpu {

// Throws on anything but CUDNN_STATUS_SUCCESS; the message carries cuDNN's last error text.
void checkCudnn(cudnnStatus_t status, std::string_view call);

// Owner of one cuDNN object; Traits provide type, create(), destroy() and createCall.
template <class Traits>
class CudnnObject {
public:
    using Handle = typename Traits::Handle;
    CudnnObject() { checkCudnn(Traits::create(&m_handle), Traits::createCall); }
    ~CudnnObject() {
        if (m_handle) (void)Traits::destroy(m_handle);
    }
    CudnnObject(const CudnnObject&) = delete;
    CudnnObject& operator=(const CudnnObject&) = delete;
    [[nodiscard]] Handle get() const { return m_handle; }

private:
    Handle m_handle{};
};

struct CudnnHandleTraits {
    using Handle = cudnnHandle_t;
    static cudnnStatus_t create(Handle* h) { return cudnnCreate(h); }
    static cudnnStatus_t destroy(Handle h) { return cudnnDestroy(h); }
    static constexpr const char* createCall = "cudnnCreate";
};
struct TensorDescriptorTraits {
    using Handle = cudnnTensorDescriptor_t;
    static cudnnStatus_t create(Handle* h) { return cudnnCreateTensorDescriptor(h); }
    static cudnnStatus_t destroy(Handle h) { return cudnnDestroyTensorDescriptor(h); }
    static constexpr const char* createCall = "cudnnCreateTensorDescriptor";
};
struct RnnDataDescriptorTraits {
    using Handle = cudnnRNNDataDescriptor_t;
    static cudnnStatus_t create(Handle* h) { return cudnnCreateRNNDataDescriptor(h); }
    static cudnnStatus_t destroy(Handle h) { return cudnnDestroyRNNDataDescriptor(h); }
    static constexpr const char* createCall = "cudnnCreateRNNDataDescriptor";
};
struct RnnDescriptorTraits {
    using Handle = cudnnRNNDescriptor_t;
    static cudnnStatus_t create(Handle* h) { return cudnnCreateRNNDescriptor(h); }
    static cudnnStatus_t destroy(Handle h) { return cudnnDestroyRNNDescriptor(h); }
    static constexpr const char* createCall = "cudnnCreateRNNDescriptor";
};
struct DropoutDescriptorTraits {
    using Handle = cudnnDropoutDescriptor_t;
    static cudnnStatus_t create(Handle* h) { return cudnnCreateDropoutDescriptor(h); }
    static cudnnStatus_t destroy(Handle h) { return cudnnDestroyDropoutDescriptor(h); }
    static constexpr const char* createCall = "cudnnCreateDropoutDescriptor";
};

using CudnnHandle = CudnnObject<CudnnHandleTraits>;
using TensorDescriptor = CudnnObject<TensorDescriptorTraits>;
using RnnDataDescriptor = CudnnObject<RnnDataDescriptorTraits>;
using RnnDescriptor = CudnnObject<RnnDescriptorTraits>;
using DropoutDescriptor = CudnnObject<DropoutDescriptorTraits>;

} // namespace rnnprof::gpu

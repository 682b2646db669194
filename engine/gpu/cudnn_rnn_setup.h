#pragma once
// The cuDNN description of one (configuration, shape, mode): dropout, RNN (v8: the options'
// algorithm, DOUBLE_BIAS or NO_BIAS (cudnnBiasMode), LINEAR_INPUT, FP32, projection off, padded
// I/O), SEQ_MAJOR_UNPACKED x/y data descriptors and the [L*D, B, H] h/c descriptors, plus the sizes
// cuDNN asks for at this shape and mode, and the place of every canonical gate block in the weight
// space. Allocates only the dropout states; everything big is allocated by the session after the
// memory check.
// CUDA + cuDNN builds only; used by cudnn_session.cpp.
#include "engine/gpu/cuda_resources.h"
#include "engine/gpu/cudnn_memory.h"
#include "engine/gpu/cudnn_resources.h"
#include "engine/gpu/cudnn_weight_map.h"
#include "engine/problem.h"

#include <vector>

namespace rnnprof::gpu {

class CudnnRnnSetup {
public:
    // Binds `handle` to `stream` first: setting a dropout descriptor with p > 0 launches the RNG
    // initialisation on the handle's stream, which must be the session's.
    CudnnRnnSetup(cudnnHandle_t handle, cudaStream_t stream, const Problem& problem);

    [[nodiscard]] cudnnRNNDescriptor_t rnn() const { return m_rnn.get(); }
    [[nodiscard]] cudnnRNNDataDescriptor_t xDesc() const { return m_x.get(); }
    [[nodiscard]] cudnnRNNDataDescriptor_t yDesc() const { return m_y.get(); }
    [[nodiscard]] cudnnTensorDescriptor_t hDesc() const { return m_h.get(); }
    [[nodiscard]] cudnnTensorDescriptor_t cDesc() const { return m_c.get(); }
    [[nodiscard]] cudnnForwardMode_t forwardMode() const { return m_mode; }
    [[nodiscard]] cudnnMathType_t mathType() const { return m_mathType; }
    [[nodiscard]] CudnnAlgo algo() const { return m_algo; }
    [[nodiscard]] const CudnnSpaceSizes& spaces() const { return m_spaces; }
    [[nodiscard]] float dropout() const { return m_dropoutP; }
    // Where cudnnGetRNNWeightParams puts every gate block in a weight space at `weightSpace`
    // (checked: inside the space, no overlaps, the expected element counts).
    [[nodiscard]] std::vector<CudnnPlacedBlock> locateBlocks(const void* weightSpace) const;

private:
    void describeDropout(const Problem& problem);
    void describeRnn(const Problem& problem);
    void describeData(const Problem& problem);

    cudnnHandle_t m_handle;
    [[maybe_unused]] int m_streamBound; // set before any other member touches the handle
    RnnConfig m_config;
    cudnnForwardMode_t m_mode;
    cudnnMathType_t m_mathType;
    CudnnAlgo m_algo;
    float m_dropoutP = 0.0f;
    float m_paddingFill = 0.0f;
    DropoutDescriptor m_dropout;
    DeviceBuffer m_dropoutStates; // must outlive the RNN descriptor that refers to it
    RnnDescriptor m_rnn;
    RnnDataDescriptor m_x;
    RnnDataDescriptor m_y;
    TensorDescriptor m_h;
    TensorDescriptor m_c;
    CudnnSpaceSizes m_spaces;
};

} // namespace rnnprof::gpu

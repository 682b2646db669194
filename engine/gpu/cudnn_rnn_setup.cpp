#include "engine/gpu/cudnn_rnn_setup.h"

#include "engine/error.h"

#include <array>

namespace rnnprof::gpu {
namespace {

cudnnRNNAlgo_t cudnnAlgoOf(CudnnAlgo algo) {
    switch (algo) {
    case CudnnAlgo::Standard:
        return CUDNN_RNN_ALGO_STANDARD;
    case CudnnAlgo::PersistStatic:
        return CUDNN_RNN_ALGO_PERSIST_STATIC;
    case CudnnAlgo::PersistDynamic:
        return CUDNN_RNN_ALGO_PERSIST_DYNAMIC;
    case CudnnAlgo::PersistStaticSmallH:
        return CUDNN_RNN_ALGO_PERSIST_STATIC_SMALL_H;
    }
    return CUDNN_RNN_ALGO_STANDARD;
}

int bindStream(cudnnHandle_t handle, cudaStream_t stream) {
    checkCudnn(cudnnSetStream(handle, stream), "cudnnSetStream");
    return 1;
}

} // namespace

CudnnRnnSetup::CudnnRnnSetup(cudnnHandle_t handle, cudaStream_t stream, const Problem& problem)
    : m_handle(handle), m_streamBound(bindStream(handle, stream)), m_config(problem.config),
      m_mode(problem.mode == Mode::Training ? CUDNN_FWD_MODE_TRAINING : CUDNN_FWD_MODE_INFERENCE),
      m_mathType(problem.options.allowTf32 ? CUDNN_DEFAULT_MATH : CUDNN_FMA_MATH),
      m_algo(problem.options.cudnnAlgo) {
    describeDropout(problem);
    describeRnn(problem);
    describeData(problem);
    // PERSIST_DYNAMIC compiles its kernels for this GPU and batch size once, before any use.
    if (m_algo == CudnnAlgo::PersistDynamic)
        checkCudnn(cudnnBuildRNNDynamic(m_handle, m_rnn.get(), problem.shape.batch), "cudnnBuildRNNDynamic");
    std::size_t weightBytes = 0, workBytes = 0, reserveBytes = 0;
    checkCudnn(cudnnGetRNNWeightSpaceSize(m_handle, m_rnn.get(), &weightBytes), "cudnnGetRNNWeightSpaceSize");
    // Sizes depend on the mode and are not monotonic in T and B: asked for exactly this run. A
    // persistent algorithm that cannot run this shape here says NOT_SUPPORTED now: the point is
    // then ineligible, with cuDNN's status in the reason.
    checkCudnn(cudnnGetRNNTempSpaceSizes(m_handle, m_rnn.get(), m_mode, m_x.get(), &workBytes, &reserveBytes),
               "cudnnGetRNNTempSpaceSizes");
    m_spaces.weightSpace = weightBytes;
    m_spaces.workspace = workBytes;
    m_spaces.reserve = m_mode == CUDNN_FWD_MODE_TRAINING ? reserveBytes : 0;
    m_spaces.dropoutStates = m_dropoutStates.bytes();
}

void CudnnRnnSetup::describeDropout(const Problem& problem) {
    // cuDNN applies dropout between layers in training only; otherwise a p = 0 descriptor without
    // states (what PyTorch passes), since a null descriptor is not accepted everywhere.
    m_dropoutP = cudnnDrawsDropout(problem) ? float(problem.config.dropout) : 0.0f;
    std::size_t stateBytes = 0;
    if (m_dropoutP > 0.0f) {
        checkCudnn(cudnnDropoutGetStatesSize(m_handle, &stateBytes), "cudnnDropoutGetStatesSize");
        m_dropoutStates = DeviceBuffer(stateBytes, "the cuDNN dropout states");
    }
    checkCudnn(cudnnSetDropoutDescriptor(m_dropout.get(), m_handle, m_dropoutP, m_dropoutStates.get(),
                                         m_dropoutStates.bytes(), problem.config.seed),
               "cudnnSetDropoutDescriptor");
}

void CudnnRnnSetup::describeRnn(const Problem& problem) {
    const RnnConfig& c = problem.config;
    checkCudnn(cudnnSetRNNDescriptor_v8(
                   m_rnn.get(), cudnnAlgoOf(m_algo), c.cell == CellType::Lstm ? CUDNN_LSTM : CUDNN_GRU,
                   cudnnBiasMode(c) == CudnnBiasMode::DoubleBias ? CUDNN_RNN_DOUBLE_BIAS : CUDNN_RNN_NO_BIAS,
                   c.bidirectional ? CUDNN_BIDIRECTIONAL : CUDNN_UNIDIRECTIONAL, CUDNN_LINEAR_INPUT,
                   CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, m_mathType, c.inputSize, c.hiddenSize,
                   /*projSize = hidden: no projection*/ c.hiddenSize, c.layers, m_dropout.get(),
                   CUDNN_RNN_PADDED_IO_ENABLED),
               "cudnnSetRNNDescriptor_v8");
}

void CudnnRnnSetup::describeData(const Problem& problem) {
    const RnnConfig& c = problem.config;
    const int T = problem.shape.seqLen, B = problem.shape.batch, H = c.hiddenSize, D = directionCount(c);
    // Every sequence has the full length; cuDNN copies this host array into the descriptor.
    const std::vector<int> lengths(std::size_t(B), T);
    checkCudnn(cudnnSetRNNDataDescriptor(m_x.get(), CUDNN_DATA_FLOAT,
                                         CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED, T, B, c.inputSize,
                                         lengths.data(), &m_paddingFill),
               "cudnnSetRNNDataDescriptor (x)");
    checkCudnn(cudnnSetRNNDataDescriptor(m_y.get(), CUDNN_DATA_FLOAT,
                                         CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED, T, B, D * H,
                                         lengths.data(), &m_paddingFill),
               "cudnnSetRNNDataDescriptor (y)");
    const std::array<int, 3> dims{c.layers * D, B, H};
    const std::array<int, 3> strides{B * H, H, 1};
    checkCudnn(cudnnSetTensorNdDescriptor(m_h.get(), CUDNN_DATA_FLOAT, 3, dims.data(), strides.data()),
               "cudnnSetTensorNdDescriptor (h)");
    checkCudnn(cudnnSetTensorNdDescriptor(m_c.get(), CUDNN_DATA_FLOAT, 3, dims.data(), strides.data()),
               "cudnnSetTensorNdDescriptor (c)");
}

std::vector<CudnnPlacedBlock> CudnnRnnSetup::locateBlocks(const void* weightSpace) const {
    std::vector<CudnnPlacedBlock> placed;
    TensorDescriptor desc;
    for (const CudnnWeightBlock& block : cudnnWeightBlocks(m_config)) {
        void* address = nullptr;
        const bool bias = block.slot.bias;
        checkCudnn(cudnnGetRNNWeightParams(m_handle, m_rnn.get(), block.slot.pseudoLayer,
                                           m_spaces.weightSpace, weightSpace, block.slot.linLayerId,
                                           bias ? nullptr : desc.get(), bias ? nullptr : &address,
                                           bias ? desc.get() : nullptr, bias ? &address : nullptr),
                   "cudnnGetRNNWeightParams");
        const std::string name = describeBlock(m_config, block.canonical);
        if (!address)
            throw Error(ErrorKind::BackendFailure, "cudnnGetRNNWeightParams returned no address for " + name);
        cudnnDataType_t type{};
        int rank = 0;
        std::array<int, 8> dims{}, strides{};
        checkCudnn(cudnnGetTensorNdDescriptor(desc.get(), int(dims.size()), &type, &rank, dims.data(),
                                              strides.data()),
                   "cudnnGetTensorNdDescriptor");
        std::int64_t elements = 1;
        for (int i = 0; i < rank && i < int(dims.size()); ++i)
            elements *= dims[std::size_t(i)];
        if (elements != block.size())
            throw Error(ErrorKind::BackendFailure, "cuDNN describes " + name + " with " +
                                                       std::to_string(elements) + " elements, expected " +
                                                       std::to_string(block.rows) + " x " +
                                                       std::to_string(block.cols));
        const std::ptrdiff_t bytes =
            static_cast<const char*>(address) - static_cast<const char*>(weightSpace);
        if (bytes < 0 || bytes % std::ptrdiff_t(sizeof(float)) != 0)
            throw Error(ErrorKind::BackendFailure,
                        "cuDNN placed " + name + " at an unaligned or negative offset");
        placed.push_back({block, std::int64_t(bytes) / std::int64_t(sizeof(float))});
    }
    checkPlacement(m_config, placed, std::int64_t(m_spaces.weightSpace / sizeof(float)));
    return placed;
}

} // namespace rnnprof::gpu

// Device memory of the GPU backends by category, cuDNN's size formulas, the refusal before
// allocation, and the checks on problem overrides: all without a GPU.
#include "engine/backend.h"
#include "engine/error.h"
#include "engine/gpu/cudnn_memory.h"
#include "engine/gpu/cudnn_weight_map.h"
#include "engine/gpu/generic_buffers.h"
#include "engine/gpu/gpu_session_factory.h"
#include "engine/problem.h"

#include <gtest/gtest.h>

namespace rnnprof {
namespace {

Problem problem(CellType cell, Mode mode) {
    Problem p;
    p.config.cell = cell;
    p.config.inputSize = 32;
    p.config.hiddenSize = 64;
    p.config.layers = 2;
    p.shape = {16, 50};
    p.mode = mode;
    return p;
}

TEST(GpuMemory, RefusalSaysHowMuchDeviceMemoryIsNeededAndFree) {
    try {
        gpu::requireDeviceFits(std::uint64_t(31.2 * 1073741824.0), std::uint64_t(22) << 30,
                               describePoint("gpu-cudnn", problem(CellType::Lstm, Mode::Training)));
        FAIL() << "expected a refusal";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::OutOfMemory);
        EXPECT_EQ(std::string(e.what()),
                  "gpu-cudnn at batch 16, seq_len 50 needs 31.2 GiB of device memory, 22.0 "
                  "GiB free: reduce batch, sequence length or hidden size");
    }
    EXPECT_NO_THROW(gpu::requireDeviceFits(100, 100, "x"));
}

TEST(GpuMemory, CudnnWeightsAreTheDenseParameterCount) {
    const Problem p = problem(CellType::Gru, Mode::Inference);
    const auto spaces = gpu::estimateCudnnSpaces(p);
    EXPECT_EQ(spaces.weightSpace, std::uint64_t(gpu::cudnnDenseParameterCount(p.config)) * sizeof(float));
    EXPECT_EQ(spaces.reserve, 0u);
}

TEST(GpuMemory, CudnnTrainingKeepsReserveSpaceAndGradientsInferenceDoesNot) {
    for (CellType cell : {CellType::Lstm, CellType::Gru}) {
        const Problem train = problem(cell, Mode::Training), infer = problem(cell, Mode::Inference);
        const MemoryFootprint t = builtinBackends().find("gpu-cudnn")->estimateMemory(train);
        const MemoryFootprint i = builtinBackends().find("gpu-cudnn")->estimateMemory(infer);
        EXPECT_TRUE(t.onDevice);
        EXPECT_GT(t.activations, 0u);
        EXPECT_EQ(t.gradients, t.weights);
        EXPECT_EQ(i.activations, 0u);
        EXPECT_EQ(i.gradients, 0u);
        EXPECT_GT(t.io, i.io); // target and gradients of y and x
    }
}

TEST(GpuMemory, CudnnFootprintPlacesQueriedSizesInTheirCategories) {
    Problem p = problem(CellType::Lstm, Mode::Training);
    gpu::CudnnSpaceSizes s;
    s.weightSpace = 1000;
    s.workspace = 2000;
    s.reserve = 30000;
    s.dropoutStates = 400;
    const MemoryFootprint m = gpu::cudnnFootprint(p, s);
    EXPECT_EQ(m.weights, 1000u);
    EXPECT_EQ(m.gradients, 1000u);
    EXPECT_EQ(m.activations, 30000u);
    // cuDNN's workspace, its dropout states and the 1024 partial sums of the loss; no cuBLAS.
    EXPECT_EQ(m.workspace, 2000u + 400u + 1024u * 4u);
    // x, y, h0/c0, h_n/c_n, lengths, target, dy, dx, loss.
    const std::uint64_t x = 50 * 16 * 32 * 4, y = 50 * 16 * 64 * 4, states = 2 * 16 * 64 * 4;
    EXPECT_EQ(m.io, x + y + 4 * states + 16 * 4 + y + y + x + 4);
    const std::vector<NamedBytes> named{{"cuDNN reserve space", BufferCategory::Activations, 30000},
                                        {"cuDNN workspace", BufferCategory::Workspace, 2000},
                                        {"cuDNN dropout states", BufferCategory::Workspace, 400},
                                        {"loss partial sums", BufferCategory::Workspace, 4096}};
    EXPECT_EQ(m.detail, named);
    EXPECT_EQ(m.part(kBufferCublasWorkspace), 0u);
    p.mode = Mode::Inference;
    const MemoryFootprint i = gpu::cudnnFootprint(p, s);
    EXPECT_EQ(i.activations, 0u);
    EXPECT_EQ(i.workspace, 2000u + 400u);
    EXPECT_EQ(i.part(kBufferCudnnReserve), 0u);
}

TEST(GpuMemory, CudnnNeedsNoCublasWorkspaceAndGenericNamesItsOwn) {
    for (Mode mode : {Mode::Inference, Mode::Training}) {
        const Problem p = problem(CellType::Lstm, mode);
        const MemoryFootprint cudnn = builtinBackends().find("gpu-cudnn")->estimateMemory(p);
        EXPECT_EQ(cudnn.part(kBufferCublasWorkspace), 0u);
        EXPECT_GT(cudnn.part(kBufferCudnnWorkspace), 0u);
        EXPECT_LT(cudnn.workspace, gpu::kCublasWorkspaceBytes) << "the workspace of a small model";
        const MemoryFootprint generic = builtinBackends().find("gpu-generic")->estimateMemory(p);
        EXPECT_EQ(generic.part(kBufferCublasWorkspace), gpu::kCublasWorkspaceBytes);
        EXPECT_EQ(generic.part(kBufferCudnnWorkspace), 0u);
    }
}

TEST(GpuMemory, CudnnLossPartialSumsOnlyWithTheMseLoss) {
    Problem p = problem(CellType::Gru, Mode::Training);
    gpu::CudnnSpaceSizes s;
    s.workspace = 100;
    EXPECT_EQ(gpu::cudnnFootprint(p, s).part("loss partial sums"), 4096u);
    p.overrides.outputGrad = std::make_shared<Tensor<float>>(std::vector<std::int64_t>{50, 16, 64});
    const MemoryFootprint given = gpu::cudnnFootprint(p, s);
    EXPECT_EQ(given.part("loss partial sums"), 0u) << "dy is given: no loss is computed";
    EXPECT_EQ(given.workspace, 100u);
}

// pytorch/pytorch#2895 (P100): 4-layer unidirectional H=320, input 123, T*B = 25,000: reserve LSTM
// 736,000,000 B, GRU 864,000,000 B. The estimate must not fall short of them.
TEST(GpuMemory, CudnnReserveEstimateLeansHighAgainstPublishedSizes) {
    Problem p;
    p.config.inputSize = 123;
    p.config.hiddenSize = 320;
    p.config.layers = 4;
    p.shape = {1000, 25};
    p.mode = Mode::Training;
    p.config.cell = CellType::Lstm;
    const auto lstm = gpu::estimateCudnnSpaces(p).reserve;
    EXPECT_GE(lstm, 736000000u);
    EXPECT_LE(lstm, 2 * 736000000u);
    p.config.cell = CellType::Gru;
    const auto gru = gpu::estimateCudnnSpaces(p).reserve;
    EXPECT_GE(gru, 864000000u);
    EXPECT_LE(gru, 2 * 864000000u);
}

TEST(GpuMemory, CudnnDropoutStatesOnlyWhenCudnnDrawsDropout) {
    Problem p = problem(CellType::Lstm, Mode::Training);
    EXPECT_EQ(gpu::estimateCudnnSpaces(p).dropoutStates, 0u);
    p.config.dropout = 0.3;
    EXPECT_TRUE(gpu::cudnnDrawsDropout(p));
    EXPECT_GT(gpu::estimateCudnnSpaces(p).dropoutStates, 0u);
    p.config.layers = 1; // nothing between layers
    EXPECT_FALSE(gpu::cudnnDrawsDropout(p));
    p.config.layers = 2;
    p.mode = Mode::Inference;
    EXPECT_FALSE(gpu::cudnnDrawsDropout(p));
}

TEST(GpuMemory, GenericGrowsWithBatchAndSequenceLength) {
    Problem p = problem(CellType::Gru, Mode::Training);
    const auto& generic = *builtinBackends().find("gpu-generic");
    const MemoryFootprint base = generic.estimateMemory(p);
    p.shape.batch *= 2;
    const MemoryFootprint wider = generic.estimateMemory(p);
    p.shape.seqLen *= 2;
    const MemoryFootprint longer = generic.estimateMemory(p);
    EXPECT_EQ(wider.weights, base.weights);
    EXPECT_GT(wider.activations, base.activations);
    EXPECT_GT(longer.activations, wider.activations);
    EXPECT_GT(longer.io, wider.io);
}

// How overrides are resolved and checked is tested once, for every backend, in
// tests/engine/problem_test.cpp (ResolveProblem.*).

} // namespace
} // namespace rnnprof

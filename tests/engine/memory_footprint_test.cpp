// Every CPU backend's memory estimate against what its session really holds after prepare(),
// category by category, over cells, depths, directions, modes and dropout. An estimate that is a
// second hand-written list beside the allocations drifts without anyone noticing; this pins them.
// cpu-reference's session reports its estimate (it allocates as the reference algorithm goes), so
// for it this only pins the interface; cpu-blas and cpu-onednn tally their real allocations, and
// cpu-onednn's scratchpad is exact too (the session allocates the plan's scratchpad_desc size).
// GPU backends are covered without a device by tests/gpu (gpu-generic's footprint and arena come
// from one list, GenericStructure.*).
#include "engine/backend.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rnnprof {
namespace {

struct Variant {
    CellType cell;
    bool resetAfter;
    int layers;
    bool bidirectional;
    Mode mode;
    double dropout;
    double recurrentDropout;
};

std::string describe(const Problem& p) {
    return std::string(p.config.cell == CellType::Lstm ? "LSTM" : (p.config.resetAfter ? "GRU" : "GRU-rb")) +
           " L=" + std::to_string(p.config.layers) + (p.config.bidirectional ? " bi" : " uni") +
           (p.mode == Mode::Training ? " training" : " inference") +
           " dropout=" + std::to_string(p.config.dropout) +
           " recurrentDropout=" + std::to_string(p.config.recurrentDropout) +
           (p.config.bias ? "" : " no-bias") + (p.inputGradients ? " input-gradients" : "");
}

// A problem of input size 5 at the sizes where cpu-blas changes its plan (packed products, team
// slices, the weight-gradient matmul).
Problem sized(CellType cell, int hidden, int layers, Shape shape, Mode mode, int threads) {
    Problem p;
    p.config.cell = cell;
    p.config.inputSize = 5;
    p.config.hiddenSize = hidden;
    p.config.layers = layers;
    p.shape = shape;
    p.mode = mode;
    p.options.threads = threads;
    return p;
}

std::vector<Problem> problems() {
    std::vector<Problem> out;
    for (const auto& [cell, resetAfter] :
         {std::pair{CellType::Lstm, true}, std::pair{CellType::Gru, true}, std::pair{CellType::Gru, false}})
        for (int layers : {1, 2, 3})
            for (bool bidirectional : {false, true})
                for (Mode mode : {Mode::Inference, Mode::Training})
                    for (const auto& [dropout, recurrentDropout] :
                         {std::pair{0.0, 0.0}, std::pair{0.3, 0.0}, std::pair{0.0, 0.2},
                          std::pair{0.3, 0.2}}) {
                        Problem p;
                        p.config.cell = cell;
                        p.config.resetAfter = resetAfter;
                        p.config.inputSize = 5;
                        p.config.hiddenSize = 7;
                        p.config.layers = layers;
                        p.config.bidirectional = bidirectional;
                        p.config.bias = layers != 2; // some problems without bias
                        p.config.dropout = dropout;
                        p.config.recurrentDropout = recurrentDropout;
                        p.shape = {.batch = 3, .seqLen = 4};
                        p.mode = mode;
                        p.inputGradients = mode == Mode::Training && bidirectional;
                        p.options.threads = 1;
                        out.push_back(p);
                    }
    // Training whose weight gradients run on oneDNN's matmul with a shared scratchpad (T*B = 1024,
    // 4H = 1024 rows; the second layer's input is 256 wide).
    for (int layers : {1, 2})
        for (int threads : {1, 2})
            out.push_back(
                sized(CellType::Lstm, 256, layers, {.batch = 64, .seqLen = 16}, Mode::Training, threads));
    // Large batches on a team of one and of two: the packed products of W_hh (training, inference)
    // and inference's per-step input projection on packed W_ih, with a team's slice buffers and
    // biases (700 units keep a block of W_hh out of L1 on every ISA, so that the fused step does not
    // run instead).
    for (CellType cell : {CellType::Lstm, CellType::Gru})
        for (int layers : {1, 2})
            for (Mode mode : {Mode::Inference, Mode::Training})
                for (int threads : {1, 2})
                    out.push_back(sized(cell, 700, layers, {.batch = 64, .seqLen = 3}, mode, threads));
    // Training at batch 1 on a team of two, whose slices of W_hh (2 and 1.5 MiB at H=512) are packed
    // (kMinSmallBatchPackedSliceBytes); one thread keeps sgemm.
    for (CellType cell : {CellType::Lstm, CellType::Gru})
        for (int threads : {1, 2})
            out.push_back(sized(cell, 512, 1, {.batch = 1, .seqLen = 3}, Mode::Training, threads));
    // Training at batch 1 on one thread with W_hh's rows 4 KiB apart (H = 1024): the copy of W_hh
    // in padded rows (RecurrentProduct::PaddedCopy), per layer.
    for (int layers : {1, 2})
        out.push_back(sized(CellType::Gru, 1024, layers, {.batch = 1, .seqLen = 2}, Mode::Training, 1));
    // Inference on one thread whose input projection runs in chunks of steps (InputProjection::
    // PackedChunks; 8 MiB for all steps at H=32 with the fused step, 7.5 MiB at H=300 on the packed
    // products), the last chunk shorter: one packed W_ih per chunk length and a buffer of one chunk.
    for (CellType cell : {CellType::Lstm, CellType::Gru})
        for (int layers : {1, 2}) {
            out.push_back(sized(cell, 32, layers, {.batch = 64, .seqLen = 250}, Mode::Inference, 1));
            out.push_back(sized(cell, 300, layers, {.batch = 16, .seqLen = 130}, Mode::Inference, 1));
        }
    // Inference at batch 5-16 whose slices of W_hh (16 MiB at H=1024, 8 on a team of two) stream
    // from beyond L2: with AVX-512 the streamed fused step (RecurrentProduct::FusedStream), with each
    // team thread's buffer of transposed rows of h (12 rows at B=9); otherwise the packed products.
    for (CellType cell : {CellType::Lstm, CellType::Gru})
        for (int layers : {1, 2})
            for (int threads : {1, 2})
                out.push_back(sized(cell, 1024, layers, {.batch = 9, .seqLen = 2}, Mode::Inference, threads));
    return out;
}

class MemoryFootprintTest : public testing::TestWithParam<std::string> {};

TEST_P(MemoryFootprintTest, EstimateEqualsAllocation) {
    const Backend* backend = builtinBackends().find(GetParam());
    ASSERT_NE(backend, nullptr);
    if (const Availability a = backend->availability(); !a.available) GTEST_SKIP() << a.reason;
    int checked = 0;
    for (const Problem& p : problems()) {
        if (!backend->unsupportedReasons(p.config, p.mode).empty()) continue;
        SCOPED_TRACE(describe(p));
        const MemoryFootprint estimate = backend->estimateMemory(p);
        const MemoryFootprint allocated = backend->prepare(p)->memory();
        EXPECT_EQ(estimate.weights, allocated.weights);
        EXPECT_EQ(estimate.gradients, allocated.gradients);
        EXPECT_EQ(estimate.activations, allocated.activations);
        EXPECT_EQ(estimate.workspace, allocated.workspace);
        EXPECT_EQ(estimate.io, allocated.io);
        EXPECT_EQ(estimate.onDevice, allocated.onDevice);
        ++checked;
    }
    EXPECT_GT(checked, 0);
}

INSTANTIATE_TEST_SUITE_P(CpuBackends, MemoryFootprintTest,
                         testing::Values("cpu-reference", "cpu-blas", "cpu-onednn"), [](const auto& info) {
                             std::string name = info.param;
                             std::erase(name, '-');
                             return name;
                         });

} // namespace
} // namespace rnnprof

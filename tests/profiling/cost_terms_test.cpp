// The cost model's terms, each against its formula worked out by hand for small models.
#include "profiling/analysis/cost_terms.h"

#include <gtest/gtest.h>

namespace rnnprof {
namespace {

const CostFamily kCudnnInfer{"gpu-cudnn", Mode::Inference};
const CostFamily kCudnnTrain{"gpu-cudnn", Mode::Training};

TEST(CostTerms, OneLstmStepOfOneRowInInference) {
    const RnnConfig lstm; // 128 -> 256, one layer, 4 gates
    const CostFeatures x = costFeatures(lstm, {1, 1}, kCudnnInfer);
    EXPECT_DOUBLE_EQ(x[kFixedTerm], 1.0);
    EXPECT_DOUBLE_EQ(x[kLaunchTerm], 2.05); // cuDNN's kernels per step, one step
    // Recurrent weights 4*256*256 and input weights 4*256*128, 4 bytes each, read once.
    EXPECT_DOUBLE_EQ(x[kStreamTerm], 4.0 * (262144 + 131072));
    // 2*4*256*128 + 2*4*256*256 + 256*(13 + 2*4) FLOPs (flops.h).
    EXPECT_DOUBLE_EQ(x[kComputeTerm], 791808.0);
    EXPECT_DOUBLE_EQ(x[kElementTerm], 4.0 * 256); // one row, 4 gates of 256
}

TEST(CostTerms, TrainingReadsTheRecurrentWeightsTwiceAndLaunchesMore) {
    const RnnConfig lstm;
    const CostFeatures small = costFeatures(lstm, {4, 10}, kCudnnTrain);
    EXPECT_DOUBLE_EQ(small[kLaunchTerm], 4.5 * 10);
    EXPECT_DOUBLE_EQ(small[kStreamTerm], 4.0 * (262144.0 * 10 * 2 + 131072.0 * 3));
    EXPECT_DOUBLE_EQ(small[kElementTerm], 2.0 * 10 * 4 * 4 * 256); // forward and backward steps
    EXPECT_DOUBLE_EQ(costFeatures(lstm, {8, 10}, kCudnnTrain)[kLaunchTerm], 5.45 * 10);
}

TEST(CostTerms, DeepBidirectionalStacksCountEveryLayerAndDirection) {
    RnnConfig gru;
    gru.cell = CellType::Gru;
    gru.inputSize = 32;
    gru.hiddenSize = 16;
    gru.layers = 2;
    gru.bidirectional = true;
    const CostFamily generic{"gpu-generic", Mode::Inference};
    const CostFeatures x = costFeatures(gru, {16, 5}, generic);
    EXPECT_DOUBLE_EQ(x[kLaunchTerm], 3.05 * 5 * 2 * 2); // GEMM kernels above B = 4
    // Recurrent 3*16*16 per layer-direction-step; input 3*16*32 (layer 0) and 3*16*32 (2*16 wide).
    EXPECT_DOUBLE_EQ(x[kStreamTerm], 4.0 * (768.0 * 2 * 2 * 5 + (1536.0 + 1536.0) * 2));
    EXPECT_DOUBLE_EQ(x[kElementTerm], 2.0 * 2 * 5 * 16 * 3 * 16);
}

TEST(CostTerms, PersistentKernelsKeepTheWeightsOnChipAndCpuBackendsLaunchNothing) {
    const RnnConfig lstm;
    const CostFeatures persistent =
        costFeatures(lstm, {64, 20}, {"gpu-cudnn[persist_static]", Mode::Inference});
    EXPECT_DOUBLE_EQ(persistent[kLaunchTerm], 0.0);
    EXPECT_DOUBLE_EQ(persistent[kStreamTerm], 0.0);
    EXPECT_DOUBLE_EQ(kernelsPerStep("cpu-blas", Mode::Training, 1), 0.0);
    EXPECT_DOUBLE_EQ(kernelsPerStep("gpu-cudnn[best]", Mode::Inference, 64), 2.05);
}

TEST(CostTerms, PublishedPeaksByTheNameCudaReports) {
    const auto h100 = publishedPeaks("NVIDIA H100 80GB HBM3", false);
    ASSERT_TRUE(h100.has_value());
    EXPECT_DOUBLE_EQ(h100->bytesPerMs, 3.35e9); // 3.35 TB/s
    EXPECT_DOUBLE_EQ(h100->flopsPerMs, 67e9);   // 67 TFLOP/s FP32
    EXPECT_DOUBLE_EQ(publishedPeaks("NVIDIA H100 80GB HBM3", true)->flopsPerMs, 494.7e9);
    EXPECT_DOUBLE_EQ(publishedPeaks("NVIDIA H200", false)->bytesPerMs, 4.8e9);
    EXPECT_FALSE(publishedPeaks("Synthetic GPU", false).has_value());
}

TEST(CostTerms, AFamilyIsNamedByBackendModeAndGraphs) {
    EXPECT_EQ(toString(kCudnnTrain), "gpu-cudnn train");
    EXPECT_EQ(toString(CostFamily{"gpu-generic", Mode::Inference, true}), "gpu-generic infer, CUDA graphs");
}

} // namespace
} // namespace rnnprof

// The crossover search on known curves: it measures the two ends of the grid, bisects in log2(B)
// where the sign changes, and stops one grid step wide or where the runs' spread reaches equal time;
// the crossover of what it measured is the one a full sweep would give between the same points.
#include "profiling/analysis/crossover_search.h"
#include "profiling/files/result_files.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

namespace rnnprof {
namespace {

using ::testing::HasSubstr;

const std::vector<int> kGrid{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};

// A CPU whose time grows linearly with B against a GPU flat at 10 ms: the GPU is faster from B=10.
// `spread` widens both sides' p10-p90 band by that factor.
MeasurePair linearCpuFlatGpu(std::vector<int>& asked, double spread = 1.0) {
    return [&asked, spread](int batch, std::string&) -> std::optional<MatchedPoint> {
        asked.push_back(batch);
        MatchedPoint p;
        p.baseline = {double(batch), 0, "cpu", double(batch) / spread, double(batch) * spread};
        p.challenger = {10.0, 0, "gpu", 10.0 / spread, 10.0 * spread};
        return p;
    };
}

TEST(CrossoverSearch, BisectsInLog2BUntilTheBracketIsOneGridStepWide) {
    std::vector<int> asked;
    const CrossoverSearch s = searchCrossover(kGrid, Mode::Inference, 20, linearCpuFlatGpu(asked));
    // Ends 1 and 1024; then the middles 32 (index 5), 4 (index 2), 8 (index 3), 16 (index 4).
    EXPECT_EQ(asked, (std::vector<int>{1, 1024, 32, 4, 8, 16}));
    EXPECT_EQ(s.gridSize, 11);
    EXPECT_EQ(s.stoppedBecause, "bracket one grid step wide (B=8..16)");
    EXPECT_TRUE(s.failure.empty());
    const auto c = findCrossovers(s.measured, Mode::Inference);
    ASSERT_EQ(c.size(), 1u);
    ASSERT_TRUE(c[0].batch.has_value());
    // log(10/B) is zero at B=10; linear in log B between 8 and 16 it is at 8 * 2^(ln(10/8)/ln 2).
    EXPECT_NEAR(*c[0].batch, 8.0 * std::pow(2.0, std::log(10.0 / 8.0) / std::log(2.0)), 1e-9);
    EXPECT_EQ(searchSummary(s, kGrid),
              "measured 6 of 11 batch sizes of the grid (B=1..1024): bracket one grid step wide (B=8..16)");
}

TEST(CrossoverSearch, StopsWhereTheRunsSpreadReachesEqualTime) {
    std::vector<int> asked;
    // A band of x1.5 each way on both sides: at B=32 the ratio 10/32 spans 0.14..0.70, decided; at
    // B=4 (10/4 = 2.5, band 1.1..5.6) decided; at B=8 (1.25, band 0.56..2.8) it reaches 1.
    const CrossoverSearch s = searchCrossover(kGrid, Mode::Inference, 20, linearCpuFlatGpu(asked, 1.5));
    EXPECT_EQ(asked, (std::vector<int>{1, 1024, 32, 4, 8}));
    EXPECT_THAT(s.stoppedBecause, HasSubstr("spread at B=8 reaches equal time"));
}

TEST(CrossoverSearch, TheSameSideAtBothEndsStopsAfterTwoPoints) {
    std::vector<int> asked;
    const std::vector<int> grid{16, 32, 64};
    const CrossoverSearch s = searchCrossover(grid, Mode::Inference, 20, linearCpuFlatGpu(asked));
    EXPECT_EQ(asked, (std::vector<int>{16, 64}));
    EXPECT_THAT(s.stoppedBecause, HasSubstr("faster at both ends (B=16..64)"));
    const auto c = findCrossovers(s.measured, Mode::Inference);
    EXPECT_TRUE(c[0].fasterEverywhere);
}

TEST(CrossoverSearch, ASideWithoutATimeEndsTheSearchSayingWhere) {
    const MeasurePair failing = [](int batch, std::string& why) -> std::optional<MatchedPoint> {
        if (batch > 100) {
            why = "gpu-cudnn: refused (out of memory)";
            return std::nullopt;
        }
        return MatchedPoint{};
    };
    const CrossoverSearch s = searchCrossover(kGrid, Mode::Training, 20, failing);
    EXPECT_EQ(s.failure, "B=1024: gpu-cudnn: refused (out of memory)");
    ASSERT_EQ(s.measured.size(), 1u);
    EXPECT_EQ(s.measured[0].mode, Mode::Training);
    EXPECT_THAT(searchSummary(s, kGrid), HasSubstr("stopped: B=1024"));
}

TEST(CrossoverRecordFile, TheRecordReadsBackFromTheResultFileOpenEndsIncluded) {
    SweepResult r;
    r.createdAt = "2026-01-01T00:00:00Z";
    CrossoverRecord c;
    c.baseline = "fastest-cpu";
    c.challenger = "ref.json:fastest-gpu";
    c.mode = Mode::Training;
    c.seqLen = 20;
    c.batch = 3.5;
    c.low = 2.0; // high stays open (NaN, null in the file)
    c.verdict = "faster from B\u22483.5 (2\u2013>64)";
    c.flags = {"B=4: cpu-blas disturbed"};
    c.measuredBatches = 4;
    c.gridBatches = 7;
    r.crossovers = {c};
    const SweepResult back = resultFromJson(toJson(r), "r.json");
    ASSERT_EQ(back.crossovers.size(), 1u);
    EXPECT_EQ(back.crossovers[0], c);
    EXPECT_TRUE(std::isnan(back.crossovers[0].high));
    EXPECT_EQ(back, r);
}

} // namespace
} // namespace rnnprof

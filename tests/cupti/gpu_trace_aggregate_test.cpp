// Aggregation of attributed GPU records: kernel statistics, copies, busy time, memory peaks, slices.
#include "profiling/gpu/gpu_trace_model.h"
#include "trace_builders.h"

#include <gtest/gtest.h>

#include <numeric>

namespace rnnprof::gpu {
namespace {

using test::copy;
using test::kernel;
using test::memory;
using test::memsetOp;
using test::tagged;

constexpr std::uint32_t kPoint = 9;
constexpr std::uint64_t kUs = 1000; // ns

// Correlation ids 1..6: iteration 0 forward/backward/update, iteration 1 the same; 7, 8: setup.
RecordBatch twoTrainingIterations() {
    RecordBatch b;
    std::uint32_t id = 1;
    for (std::uint32_t it = 0; it < 2; ++it)
        for (Phase p : {Phase::Forward, Phase::Backward, Phase::Update})
            b.correlations.push_back(tagged(id++, kPoint, it, p));
    b.correlations.push_back(tagged(7, kPoint, 0, std::nullopt));
    b.correlations.push_back(tagged(8, kPoint, 1, std::nullopt));
    return b;
}

GpuProfile profileOf(const RecordBatch& batch, std::uint32_t iterations,
                     std::vector<TimeInterval> windows = {}) {
    const std::vector<RecordBatch> batches{batch};
    return aggregateProfile(attributeRecords(batches, kPoint, iterations), iterations, windows);
}

TEST(UnionLength, CountsOverlappingIntervalsOnce) {
    EXPECT_EQ(unionLength({{20, 30}, {0, 10}, {5, 15}}), 25u);
    EXPECT_EQ(unionLength({{0, 100}, {10, 20}, {50, 60}}), 100u) << "nested intervals";
    EXPECT_EQ(unionLength({{0, 10}, {10, 20}}), 20u) << "touching intervals";
    EXPECT_EQ(unionLength({}), 0u);
    EXPECT_EQ(unionLength({{5, 5}, {9, 3}}), 0u) << "empty and inverted intervals add nothing";
}

TEST(GpuBusyTime, CountsOverlappingKernelsOnTwoStreamsOnce) {
    RecordBatch b = twoTrainingIterations();
    b.kernels = {kernel("a", 1 * kUs, 3 * kUs, 1, 1), kernel("b", 2 * kUs, 4 * kUs, 1, 2),
                 kernel("c", 10 * kUs, 11 * kUs, 4, 1)};
    b.memcpys = {copy(CopyKind::HtoD, 8, 3500, 5 * kUs, 7)}; // overlaps b, extends to 5 us
    const GpuProfile p = profileOf(b, 2);
    // Iteration 0: [1, 5] us = 4 us; iteration 1: 1 us; mean 2.5 us.
    EXPECT_DOUBLE_EQ(p.gpuBusyUs, 2.5);
}

TEST(KernelStats, AggregatePerPhaseAndNamePerIteration) {
    RecordBatch b = twoTrainingIterations();
    b.kernels = {kernel("gemm", 60 * kUs, 61 * kUs, 1), kernel("gemm", 10 * kUs, 12 * kUs, 1),
                 kernel("gemm", 20 * kUs, 23 * kUs, 4), kernel("gemm", 30 * kUs, 34 * kUs, 2),
                 kernel("tanh", 40 * kUs, 41 * kUs, 1), kernel("tanh", 50 * kUs, 51 * kUs, 4)};
    const GpuProfile p = profileOf(b, 2);
    ASSERT_EQ(p.kernels.size(), 3u);
    const KernelStat& gemm = p.kernels[0];
    EXPECT_EQ(gemm.name, "gemm");
    EXPECT_EQ(gemm.phase, Phase::Forward);
    EXPECT_EQ(gemm.count, 2) << "3 launches over 2 iterations, rounded";
    EXPECT_DOUBLE_EQ(gemm.totalUs, 3.0) << "6 us over 2 iterations";
    EXPECT_DOUBLE_EQ(gemm.meanUs, 2.0);
    EXPECT_DOUBLE_EQ(gemm.minUs, 1.0);
    EXPECT_DOUBLE_EQ(gemm.maxUs, 3.0);
    EXPECT_DOUBLE_EQ(gemm.share, 6.0 / 12.0);
    EXPECT_EQ(p.kernels[1].name, "tanh");
    EXPECT_EQ(p.kernels[1].count, 1);
    EXPECT_EQ(p.kernels[2].phase, Phase::Backward);
    EXPECT_DOUBLE_EQ(p.kernels[2].share, 4.0 / 12.0);
}

TEST(KernelStats, SharesSumToOne) {
    RecordBatch b = twoTrainingIterations();
    std::uint64_t t = 0;
    for (int i = 0; i < 40; ++i) {
        const std::uint64_t d = 100 + 37 * std::uint64_t(i % 7);
        const std::string name(1, char('a' + i % 5));
        b.kernels.push_back(kernel(name, t, t + d, std::uint32_t(1 + i % 6), i % 3));
        t += 2 * d;
    }
    const GpuProfile p = profileOf(b, 2);
    const double sum = std::accumulate(p.kernels.begin(), p.kernels.end(), 0.0,
                                       [](double s, const KernelStat& k) { return s + k.share; });
    EXPECT_NEAR(sum, 1.0, 1e-12);
    EXPECT_EQ(p.kernels.size(), 15u) << "5 names in 3 phases";
}

TEST(KernelStats, AreSortedByPhaseThenTotalTime) {
    RecordBatch b = twoTrainingIterations();
    b.kernels = {kernel("small", 30 * kUs, 31 * kUs, 3), kernel("big", 2 * kUs, 9 * kUs, 3),
                 kernel("fwd", 10 * kUs, 11 * kUs, 1), kernel("mid", 20 * kUs, 24 * kUs, 3)};
    const GpuProfile p = profileOf(b, 1);
    std::vector<std::string> order;
    for (const KernelStat& k : p.kernels)
        order.push_back(k.name);
    EXPECT_EQ(order, (std::vector<std::string>{"fwd", "big", "mid", "small"}));
}

TEST(KernelStats, LeaveOutKernelsOutsidePhasesAndTheUnattributedOnes) {
    RecordBatch b = twoTrainingIterations();
    b.kernels = {kernel("in phase", kUs / 2, 3 * kUs / 2, 1), kernel("between phases", 2 * kUs, 3 * kUs, 7),
                 kernel("untagged", 4 * kUs, 5 * kUs, 99)};
    const GpuProfile p = profileOf(b, 1);
    ASSERT_EQ(p.kernels.size(), 1u);
    EXPECT_EQ(p.kernels[0].name, "in phase");
    EXPECT_DOUBLE_EQ(p.kernels[0].share, 1.0);
    EXPECT_EQ(p.unattributedRecords, 1u);
    EXPECT_DOUBLE_EQ(p.gpuBusyUs, 2.0) << "between-phase work is GPU work of the iteration";
}

TEST(CopyStats, SumBytesTimeAndCountByDirectionPerIteration) {
    RecordBatch b = twoTrainingIterations();
    b.memcpys = {
        copy(CopyKind::HtoD, 1000, 1 * kUs, 3 * kUs, 1), copy(CopyKind::HtoD, 3000, 5 * kUs, 7 * kUs, 4),
        copy(CopyKind::DtoH, 16, 8 * kUs, 9 * kUs, 8), copy(CopyKind::DtoD, 5, 10 * kUs, 11 * kUs, 99)};
    b.memsets = {memsetOp(64, 12 * kUs, 13 * kUs, 2), memsetOp(64, 14 * kUs, 15 * kUs, 5)};
    const GpuProfile p = profileOf(b, 2);
    ASSERT_EQ(p.memcpys.size(), 3u) << "the untagged DtoD copy is left out";
    EXPECT_EQ(p.memcpys[0], (MemcpyStat{"HtoD", 2000, 2.0, 1}));
    EXPECT_EQ(p.memcpys[1], (MemcpyStat{"DtoH", 8, 0.5, 1})) << "a copy between phases still counts";
    EXPECT_EQ(p.memcpys[2], (MemcpyStat{"Memset", 64, 1.0, 1}));
}

TEST(MemoryPeak, FollowsTheRunningSumOfAllocationsAndReleasesInTimeOrder) {
    // Two buffers whose records interleave in time: the running sum needs them sorted first.
    std::vector<RecordBatch> batches(2);
    batches[0] = twoTrainingIterations();
    batches[0].memory = {memory(MemoryOperation::Allocation, 0xA, 100, 10, 1),
                         memory(MemoryOperation::Release, 0xA, 100, 40, 2),
                         memory(MemoryOperation::Allocation, 0xD, 10, 60, 3)};
    batches[1].memory = {memory(MemoryOperation::Allocation, 0xB, 50, 20, 1),
                         memory(MemoryOperation::Allocation, 0xC, 30, 50, 2)};
    const AttributedTrace trace = attributeRecords(batches, kPoint, 1);
    const auto peaks = peakDeviceBytes(trace.memory);
    EXPECT_EQ(peaks[0], 150u) << "forward: A + B";
    EXPECT_EQ(peaks[1], 150u) << "backward starts at 150 before it releases A, then 80";
    EXPECT_EQ(peaks[2], 90u) << "update: B + C + D";
}

TEST(MemoryPeak, IgnoresAReleaseWhoseAllocationWasNotSeen) {
    std::vector<RecordBatch> batches{twoTrainingIterations()};
    batches[0].memory = {memory(MemoryOperation::Release, 0xE, 1000, 10, 1), // allocated before tracing
                         memory(MemoryOperation::Allocation, 0xF, 100, 20, 1)};
    const auto peaks = peakDeviceBytes(attributeRecords(batches, kPoint, 1).memory);
    EXPECT_EQ(peaks[0], 100u) << "no underflow, no negative level";
}

TEST(MemoryPeak, CountsOnlyDeviceMemory) {
    std::vector<RecordBatch> batches{twoTrainingIterations()};
    batches[0].memory = {memory(MemoryOperation::Allocation, 0x1, 4096, 10, 1, MemoryKind::Pinned),
                         memory(MemoryOperation::Allocation, 0x2, 64, 20, 1)};
    EXPECT_EQ(peakDeviceBytes(attributeRecords(batches, kPoint, 1).memory)[0], 64u);
}

TEST(MemoryPeak, IncludesLiveMemoryAllocatedOutsideThePhases) {
    std::vector<RecordBatch> batches{twoTrainingIterations()};
    batches[0].memory = {memory(MemoryOperation::Allocation, 0x1, 500, 10, 99), // untagged
                         memory(MemoryOperation::Allocation, 0x2, 100, 20, 1)};
    const GpuProfile p = aggregateProfile(attributeRecords(batches, kPoint, 1), 1, {});
    EXPECT_EQ(p.peakDeviceBytes[0], 600u);
    EXPECT_EQ(p.peakDeviceBytes[1], 0u) << "no record in backward: no figure";
}

TEST(WallTime, IsTheMeanOfTheIterationWindows) {
    RecordBatch b = twoTrainingIterations();
    b.kernels = {kernel("a", 1 * kUs, 2 * kUs, 1)};
    EXPECT_DOUBLE_EQ(profileOf(b, 2, {{0, 10 * kUs}, {20 * kUs, 50 * kUs}}).wallUs, 20.0);
}

TEST(WallTime, FallsBackToTheSpanOfEachIterationsGpuWork) {
    RecordBatch b = twoTrainingIterations();
    b.kernels = {kernel("a", 1 * kUs, 2 * kUs, 1), kernel("b", 5 * kUs, 7 * kUs, 2),
                 kernel("c", 10 * kUs, 12 * kUs, 4)};
    EXPECT_DOUBLE_EQ(profileOf(b, 2).wallUs, (6.0 + 2.0) / 2);
}

TEST(AggregateProfile, ReportsMissingTimestampsAsDroppedAndCountsUnattributed) {
    RecordBatch b = twoTrainingIterations();
    b.kernels = {kernel("lost", 0, 0, 1), kernel("ok", 10, 20, 1), kernel("untagged", 30, 40, 100)};
    const GpuProfile p = profileOf(b, 1);
    EXPECT_TRUE(p.traced);
    EXPECT_EQ(p.droppedRecords, 1u);
    EXPECT_EQ(p.unattributedRecords, 1u);
}

TEST(AggregateProfile, WithoutIterationsIsTracedButEmpty) {
    RecordBatch b = twoTrainingIterations();
    b.kernels = {kernel("a", 10, 20, 1)};
    const GpuProfile p = profileOf(b, 0);
    EXPECT_TRUE(p.traced);
    EXPECT_TRUE(p.kernels.empty());
    EXPECT_EQ(p.gpuBusyUs, 0.0);
}

TEST(TraceSlices, ShowOneIterationOnStreamTracksRelativeToTheOrigin) {
    // Realistic CLOCK_REALTIME nanoseconds: beyond double's exact range, so offsets must be exact.
    constexpr std::uint64_t origin = 1795297608538348597ull;
    RecordBatch b = twoTrainingIterations();
    b.kernels = {kernel("gemm", origin + 1500, origin + 4000, 1, 3),
                 kernel("next iteration", origin + 9000, origin + 9500, 4, 3),
                 kernel("untagged", origin + 100, origin + 200, 99, 3)};
    b.memcpys = {copy(CopyKind::DtoH, 8, origin - 500, origin + 500, 7)};
    b.memsets = {memsetOp(8, origin + 5000, origin + 5250, 2)};
    const std::vector<RecordBatch> batches{b};
    const auto slices = traceSlices(attributeRecords(batches, kPoint, 2), 0, origin);
    ASSERT_EQ(slices.size(), 3u);
    EXPECT_EQ(slices[0], (TraceSlice{"Memcpy DtoH", "memcpy", -0.5, 1.0, 8}));
    EXPECT_EQ(slices[1], (TraceSlice{"gemm", "kernel", 1.5, 2.5, 4}));
    EXPECT_EQ(slices[2], (TraceSlice{"Memset", "memset", 5.0, 0.25, 8}));
}

} // namespace
} // namespace rnnprof::gpu

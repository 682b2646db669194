// Correlation and attribution of GPU records to (iteration, phase), on hand-built records.
#include "profiling/gpu/gpu_trace_model.h"
#include "trace_builders.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace rnnprof::gpu {
namespace {

using test::copy;
using test::kernel;
using test::memory;
using test::memsetOp;
using test::tagged;

constexpr std::uint32_t kPoint = 4;

TEST(ExternalId, PacksPointIterationAndPhasePlusOne) {
    EXPECT_EQ(encodeExternalId({5, 3, Phase::Backward}), (std::uint64_t(5) << 32) | (3u << 8) | 2u);
    EXPECT_EQ(encodeExternalId({5, 3, Phase::Forward}) & 0xFF, 1u);
    EXPECT_EQ(encodeExternalId({5, 3, Phase::Update}) & 0xFF, 3u);
    EXPECT_EQ(encodeExternalId({5, 3, std::nullopt}) & 0xFF, 0u) << "0 marks setup / warm-up";
}

TEST(ExternalId, RoundTripsEveryPhaseAndSetup) {
    for (const std::optional<Phase> phase : {std::optional<Phase>{}, std::optional{Phase::Forward},
                                             std::optional{Phase::Backward}, std::optional{Phase::Update}}) {
        const PhaseTag tag{0xFFFFFFFFu, 123456, phase};
        EXPECT_EQ(decodeExternalId(encodeExternalId(tag)), tag);
    }
}

TEST(ExternalId, RejectsIdsWhoseLowByteNamesNoPhase) {
    EXPECT_FALSE(decodeExternalId(4).has_value());
    EXPECT_FALSE(decodeExternalId(0xFF).has_value());
    EXPECT_TRUE(decodeExternalId(3).has_value());
}

TEST(ExternalId, SaturatesIterationsBeyondTwentyFourBits) {
    const auto tag = decodeExternalId(encodeExternalId({1, kMaxTaggedIteration + 10, Phase::Forward}));
    ASSERT_TRUE(tag.has_value());
    EXPECT_EQ(tag->iteration, kMaxTaggedIteration);
    EXPECT_EQ(tag->pointId, 1u) << "the iteration must not spill into the point id";
}

TEST(CorrelationMap, CollectsCustom0RecordsOfEveryBatchAndIgnoresOtherKinds) {
    std::vector<RecordBatch> batches(2);
    batches[0].correlations.push_back(tagged(10, kPoint, 0, Phase::Forward));
    batches[1].correlations.push_back(tagged(11, kPoint, 0, Phase::Backward));
    batches[1].correlations.push_back({kCustom0CorrelationKind + 1, 999, 12}); // CUSTOM1: not ours
    const CorrelationMap map = buildCorrelationMap(batches);
    EXPECT_EQ(map.externalIds.size(), 2u);
    EXPECT_EQ(map.externalIds.at(11), encodeExternalId({kPoint, 0, Phase::Backward}));
    EXPECT_FALSE(map.externalIds.contains(12));
    EXPECT_EQ(map.conflicts, 0u);
}

TEST(CorrelationMap, KeepsTheFirstIdOfAConflictAndCountsIt) {
    std::vector<RecordBatch> batches(1);
    batches[0].correlations.push_back(tagged(10, kPoint, 0, Phase::Forward));
    batches[0].correlations.push_back(tagged(10, kPoint, 0, Phase::Forward)); // duplicate, same id
    batches[0].correlations.push_back(tagged(10, kPoint, 1, Phase::Update));
    const CorrelationMap map = buildCorrelationMap(batches);
    EXPECT_EQ(map.externalIds.at(10), encodeExternalId({kPoint, 0, Phase::Forward}));
    EXPECT_EQ(map.conflicts, 1u);
}

TEST(Attribution, CorrelatesAKernelWithATagFromALaterBuffer) {
    std::vector<RecordBatch> batches(2);
    batches[0].kernels.push_back(kernel("gemm", 100, 200, 10));
    batches[1].correlations.push_back(tagged(10, kPoint, 1, Phase::Backward));
    const AttributedTrace trace = attributeRecords(batches, kPoint, 2);
    ASSERT_EQ(trace.kernels.size(), 1u);
    EXPECT_EQ(trace.kernels[0].where, (Attribution{Scope::Phase, 1, Phase::Backward}));
    EXPECT_EQ(trace.counters.unattributed, 0u);
}

TEST(Attribution, AssignsEachRecordItsIterationAndPhase) {
    std::vector<RecordBatch> batches(1);
    RecordBatch& b = batches[0];
    b.correlations = {tagged(1, kPoint, 0, Phase::Forward), tagged(2, kPoint, 0, Phase::Backward),
                      tagged(3, kPoint, 1, Phase::Update), tagged(4, kPoint, 1, std::nullopt)};
    b.kernels = {kernel("a", 10, 20, 1), kernel("b", 30, 40, 2), kernel("c", 50, 60, 3)};
    b.memsets = {memsetOp(64, 70, 80, 4)};
    b.memory = {memory(MemoryOperation::Allocation, 0x1000, 256, 25, 2)};
    const AttributedTrace trace = attributeRecords(batches, kPoint, 2);
    ASSERT_EQ(trace.kernels.size(), 3u);
    EXPECT_EQ(trace.kernels[0].where, (Attribution{Scope::Phase, 0, Phase::Forward}));
    EXPECT_EQ(trace.kernels[1].where, (Attribution{Scope::Phase, 0, Phase::Backward}));
    EXPECT_EQ(trace.kernels[2].where, (Attribution{Scope::Phase, 1, Phase::Update}));
    ASSERT_EQ(trace.memsets.size(), 1u);
    EXPECT_EQ(trace.memsets[0].where.scope, Scope::Setup);
    EXPECT_EQ(trace.memsets[0].where.iteration, 1u);
    ASSERT_EQ(trace.memory.size(), 1u);
    EXPECT_EQ(trace.memory[0].where, (Attribution{Scope::Phase, 0, Phase::Backward}));
}

TEST(Attribution, PutsUntaggedRecordsInTheUnattributedBucket) {
    std::vector<RecordBatch> batches(1);
    batches[0].correlations = {tagged(1, kPoint, 0, Phase::Forward)};
    batches[0].kernels = {kernel("tagged", 10, 20, 1), kernel("other thread", 30, 40, 77)};
    batches[0].memcpys = {copy(CopyKind::HtoD, 8, 50, 60, 78)};
    batches[0].memory = {memory(MemoryOperation::Allocation, 0x10, 8, 55, 79)};
    const AttributedTrace trace = attributeRecords(batches, kPoint, 1);
    EXPECT_EQ(trace.counters.unattributed, 3u);
    ASSERT_EQ(trace.kernels.size(), 2u) << "unattributed records stay in the trace, marked";
    EXPECT_EQ(trace.kernels[1].where.scope, Scope::Unattributed);
    EXPECT_EQ(trace.memcpys[0].where.scope, Scope::Unattributed);
}

TEST(Attribution, TreatsOtherPointsAndIterationsBeyondTheMeasuredOnesAsForeign) {
    std::vector<RecordBatch> batches(1);
    batches[0].correlations = {tagged(1, kPoint - 1, 0, Phase::Forward),
                               tagged(2, kPoint, 3, Phase::Forward),
                               {kCustom0CorrelationKind, 0xFE, 3}}; // low byte names no phase
    batches[0].kernels = {kernel("warm-up leftover", 10, 20, 1), kernel("fourth run", 30, 40, 2),
                          kernel("someone else's id", 50, 60, 3)};
    const AttributedTrace trace = attributeRecords(batches, kPoint, 3);
    EXPECT_EQ(trace.counters.foreign, 3u);
    EXPECT_EQ(trace.counters.unattributed, 0u);
    for (const auto& k : trace.kernels)
        EXPECT_EQ(k.where.scope, Scope::Foreign) << k.record.name;
}

TEST(Attribution, DropsAndCountsRecordsWithoutTimestamps) {
    std::vector<RecordBatch> batches(1);
    RecordBatch& b = batches[0];
    b.correlations = {tagged(1, kPoint, 0, Phase::Forward)};
    b.kernels = {kernel("lost", 0, 0, 1), kernel("kept", 10, 20, 1), kernel("backwards", 30, 25, 1)};
    b.memcpys = {copy(CopyKind::DtoH, 4, 0, 0, 1)};
    b.memsets = {memsetOp(4, 0, 0, 1)};
    b.memory = {memory(MemoryOperation::Allocation, 0x10, 4, 0, 1)};
    const AttributedTrace trace = attributeRecords(batches, kPoint, 1);
    EXPECT_EQ(trace.counters.missingTimestamps, 5u);
    ASSERT_EQ(trace.kernels.size(), 1u);
    EXPECT_EQ(trace.kernels[0].record.name, "kept");
    EXPECT_TRUE(trace.memcpys.empty());
    EXPECT_TRUE(trace.memsets.empty());
    EXPECT_TRUE(trace.memory.empty());
}

TEST(Attribution, SortsRecordsOfUnorderedBuffersByTime) {
    std::vector<RecordBatch> batches(3);
    batches[0].kernels = {kernel("k5", 500, 510, 1), kernel("k1", 100, 110, 1)};
    batches[1].kernels = {kernel("k3", 300, 310, 1)};
    batches[2].kernels = {kernel("k2", 200, 210, 1), kernel("k4", 400, 410, 1)};
    batches[1].memory = {memory(MemoryOperation::Release, 0x1, 1, 900, 1)};
    batches[0].memory = {memory(MemoryOperation::Allocation, 0x1, 1, 150, 1)};
    batches[2].correlations = {tagged(1, kPoint, 0, Phase::Forward)};
    const AttributedTrace trace = attributeRecords(batches, kPoint, 1);
    std::vector<std::string> order;
    for (const auto& k : trace.kernels)
        order.push_back(k.record.name);
    EXPECT_EQ(order, (std::vector<std::string>{"k1", "k2", "k3", "k4", "k5"}));
    ASSERT_EQ(trace.memory.size(), 2u);
    EXPECT_EQ(trace.memory[0].record.operation, MemoryOperation::Allocation);
}

TEST(Attribution, MatchesAMemcpyThroughItsRuntimeCorrelationId) {
    std::vector<RecordBatch> batches(1);
    // Only the runtime call (id 51) was tagged; the driver id (50) is unknown.
    batches[0].correlations = {tagged(51, kPoint, 0, Phase::Forward), tagged(60, kPoint, 0, Phase::Update)};
    batches[0].memcpys = {copy(CopyKind::HtoD, 1024, 10, 20, 50, 51), copy(CopyKind::DtoH, 8, 30, 40, 60, 0),
                          copy(CopyKind::DtoD, 8, 50, 60, 70, 71)};
    const AttributedTrace trace = attributeRecords(batches, kPoint, 1);
    ASSERT_EQ(trace.memcpys.size(), 3u);
    EXPECT_EQ(trace.memcpys[0].where, (Attribution{Scope::Phase, 0, Phase::Forward}));
    EXPECT_EQ(trace.memcpys[1].where, (Attribution{Scope::Phase, 0, Phase::Update})) << "driver id alone";
    EXPECT_EQ(trace.memcpys[2].where.scope, Scope::Unattributed);
    EXPECT_EQ(trace.counters.unattributed, 1u);
}

TEST(Attribution, CountsTruncatedBuffersAndCorrelationConflicts) {
    std::vector<RecordBatch> batches(2);
    batches[0].truncated = true;
    batches[0].correlations = {tagged(1, kPoint, 0, Phase::Forward)};
    batches[1].correlations = {tagged(1, kPoint, 0, Phase::Update)};
    const AttributedTrace trace = attributeRecords(batches, kPoint, 1);
    EXPECT_EQ(trace.counters.truncatedBuffers, 1u);
    EXPECT_EQ(trace.counters.correlationConflicts, 1u);
}

TEST(CopyKind, NamesEveryDirection) {
    EXPECT_EQ(toString(CopyKind::HtoD), "HtoD");
    EXPECT_EQ(toString(CopyKind::DtoH), "DtoH");
    EXPECT_EQ(toString(CopyKind::DtoD), "DtoD");
    EXPECT_EQ(toString(CopyKind::PtoP), "PtoP");
    EXPECT_EQ(toString(CopyKind::Unknown), "unknown");
}

} // namespace
} // namespace rnnprof::gpu

// Decoding of hand-built CUPTI activity records (the structs of the installed cupti_activity.h),
// and iteration over a synthetic buffer with the real cuptiActivityGetNextRecord, which works
// without a GPU or driver.
#include <gtest/gtest.h>

#if RNNPROF_WITH_CUPTI
#include "profiling/gpu/cupti_decode.h"

#include <cstring>
#include <vector>

namespace rnnprof::gpu {
namespace {

template <class Record>
const CUpti_Activity* asActivity(const Record& r) {
    return reinterpret_cast<const CUpti_Activity*>(&r);
}

template <class Record>
Record zeroed(CUpti_ActivityKind kind) {
    Record r;
    std::memset(&r, 0, sizeof r);
    r.kind = kind;
    return r;
}

TEST(CuptiDecode, KernelRecordCopiesTimesLaunchShapeAndDemangledName) {
    auto k = zeroed<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    std::string mangled = "_Z11lstmForwardPfi";
    k.name = mangled.c_str();
    k.start = 1000;
    k.end = 2500;
    k.gridX = 4, k.gridY = 2, k.gridZ = 1;
    k.blockX = 256, k.blockY = 1, k.blockZ = 1;
    k.registersPerThread = 40;
    k.staticSharedMemory = 1024;
    k.dynamicSharedMemory = 2048;
    k.correlationId = 77;
    k.streamId = 13;
    k.deviceId = 1;
    RecordBatch batch;
    ASSERT_TRUE(decodeRecord(asActivity(k), batch));
    ASSERT_EQ(batch.kernels.size(), 1u);
    const KernelRecord& r = batch.kernels[0];
    EXPECT_EQ(r.name, "lstmForward(float*, int)");
    mangled.assign(mangled.size(), 'x');
    EXPECT_EQ(r.name, "lstmForward(float*, int)") << "the name is a copy, not CUPTI's pointer";
    EXPECT_EQ(r.start, 1000u);
    EXPECT_EQ(r.end, 2500u);
    EXPECT_EQ(r.grid, (std::array<std::int32_t, 3>{4, 2, 1}));
    EXPECT_EQ(r.block, (std::array<std::int32_t, 3>{256, 1, 1}));
    EXPECT_EQ(r.registersPerThread, 40);
    EXPECT_EQ(r.staticSharedMemory, 1024);
    EXPECT_EQ(r.dynamicSharedMemory, 2048);
    EXPECT_EQ(r.correlationId, 77u);
    EXPECT_EQ(r.streamId, 13u);
    EXPECT_EQ(r.deviceId, 1u);
}

TEST(CuptiDecode, KernelNamesThatAreNotMangledStayAsTheyAre) {
    EXPECT_EQ(demangleKernelName("fill_kernel"), "fill_kernel");
    EXPECT_EQ(demangleKernelName(nullptr), "(unnamed kernel)");
    auto k = zeroed<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    RecordBatch batch;
    ASSERT_TRUE(decodeRecord(asActivity(k), batch));
    EXPECT_EQ(batch.kernels[0].name, "(unnamed kernel)");
}

TEST(CuptiDecode, MemcpyRecordKeepsBothCorrelationIdsAndDirection) {
    auto c = zeroed<CUpti_ActivityMemcpy6>(CUPTI_ACTIVITY_KIND_MEMCPY);
    c.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_DTOH;
    c.flags = CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC;
    c.bytes = 1 << 20;
    c.start = 10;
    c.end = 20;
    c.correlationId = 5;
    c.runtimeCorrelationId = 6;
    c.streamId = 3;
    RecordBatch batch;
    ASSERT_TRUE(decodeRecord(asActivity(c), batch));
    ASSERT_EQ(batch.memcpys.size(), 1u);
    const MemcpyRecord& r = batch.memcpys[0];
    EXPECT_EQ(r.kind, CopyKind::DtoH);
    EXPECT_TRUE(r.async);
    EXPECT_EQ(r.bytes, 1u << 20);
    EXPECT_EQ(r.start, 10u);
    EXPECT_EQ(r.end, 20u);
    EXPECT_EQ(r.correlationId, 5u);
    EXPECT_EQ(r.runtimeCorrelationId, 6u);
    EXPECT_EQ(r.streamId, 3u);
}

TEST(CuptiDecode, MemcpyWithAnUnknownDirectionIsKeptAsUnknown) {
    auto c = zeroed<CUpti_ActivityMemcpy6>(CUPTI_ACTIVITY_KIND_MEMCPY);
    c.copyKind = 200;
    RecordBatch batch;
    ASSERT_TRUE(decodeRecord(asActivity(c), batch));
    EXPECT_EQ(batch.memcpys[0].kind, CopyKind::Unknown);
}

TEST(CuptiDecode, MemsetRecord) {
    auto s = zeroed<CUpti_ActivityMemset4>(CUPTI_ACTIVITY_KIND_MEMSET);
    s.value = 0;
    s.bytes = 4096;
    s.start = 100;
    s.end = 150;
    s.correlationId = 9;
    s.streamId = 2;
    RecordBatch batch;
    ASSERT_TRUE(decodeRecord(asActivity(s), batch));
    ASSERT_EQ(batch.memsets.size(), 1u);
    EXPECT_EQ(batch.memsets[0].bytes, 4096u);
    EXPECT_EQ(batch.memsets[0].start, 100u);
    EXPECT_EQ(batch.memsets[0].end, 150u);
    EXPECT_EQ(batch.memsets[0].correlationId, 9u);
}

TEST(CuptiDecode, Memory2RecordsOfAllocationAndRelease) {
    auto a = zeroed<CUpti_ActivityMemory4>(CUPTI_ACTIVITY_KIND_MEMORY2);
    a.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION;
    a.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    a.address = 0x7f0000001000;
    a.bytes = 1 << 24;
    a.timestamp = 12345;
    a.correlationId = 42;
    a.isAsync = 1;
    auto f = a;
    f.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE;
    f.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
    f.timestamp = 23456;
    RecordBatch batch;
    ASSERT_TRUE(decodeRecord(asActivity(a), batch));
    ASSERT_TRUE(decodeRecord(asActivity(f), batch));
    ASSERT_EQ(batch.memory.size(), 2u);
    EXPECT_EQ(batch.memory[0].operation, MemoryOperation::Allocation);
    EXPECT_EQ(batch.memory[0].memoryKind, MemoryKind::Device);
    EXPECT_EQ(batch.memory[0].address, 0x7f0000001000u);
    EXPECT_EQ(batch.memory[0].bytes, 1u << 24);
    EXPECT_EQ(batch.memory[0].timestamp, 12345u);
    EXPECT_EQ(batch.memory[0].correlationId, 42u);
    EXPECT_TRUE(batch.memory[0].async);
    EXPECT_EQ(batch.memory[1].operation, MemoryOperation::Release);
    EXPECT_EQ(batch.memory[1].memoryKind, MemoryKind::Pinned);
}

TEST(CuptiDecode, ExternalCorrelationRecord) {
    auto e = zeroed<CUpti_ActivityExternalCorrelation>(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION);
    e.externalKind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0;
    e.externalId = encodeExternalId({3, 2, Phase::Update});
    e.correlationId = 1234;
    RecordBatch batch;
    ASSERT_TRUE(decodeRecord(asActivity(e), batch));
    ASSERT_EQ(batch.correlations.size(), 1u);
    EXPECT_EQ(
        batch.correlations[0],
        (ExternalCorrelationRecord{kCustom0CorrelationKind, encodeExternalId({3, 2, Phase::Update}), 1234}));
    EXPECT_EQ(std::uint32_t(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0), kCustom0CorrelationKind);
}

TEST(CuptiDecode, RuntimeAndDriverApiRecords) {
    auto rt = zeroed<CUpti_ActivityAPI>(CUPTI_ACTIVITY_KIND_RUNTIME);
    rt.cbid = 211;
    rt.start = 5;
    rt.end = 9;
    rt.threadId = 77;
    rt.correlationId = 8;
    auto drv = rt;
    drv.kind = CUPTI_ACTIVITY_KIND_DRIVER;
    drv.correlationId = 10;
    drv.returnValue = 2;
    RecordBatch batch;
    ASSERT_TRUE(decodeRecord(asActivity(rt), batch));
    ASSERT_TRUE(decodeRecord(asActivity(drv), batch));
    ASSERT_EQ(batch.apis.size(), 2u);
    EXPECT_EQ(batch.apis[0], (ApiRecord{ApiDomain::Runtime, 211, 5, 9, 77, 8, 0}));
    EXPECT_EQ(batch.apis[1], (ApiRecord{ApiDomain::Driver, 211, 5, 9, 77, 10, 2}));
}

TEST(CuptiDecode, CountsKindsItDoesNotDecode) {
    auto o = zeroed<CUpti_ActivityOverhead3>(CUPTI_ACTIVITY_KIND_OVERHEAD);
    RecordBatch batch;
    EXPECT_FALSE(decodeRecord(asActivity(o), batch));
    EXPECT_EQ(batch.ignoredRecords, 1u);
    EXPECT_FALSE(decodeRecord(nullptr, batch));
}

// Records placed back to back at their sizeof offsets, as CUPTI lays them out.
class SyntheticBuffer {
public:
    template <class Record>
    void append(const Record& r) {
        const std::size_t at = m_used;
        m_used += sizeof r;
        m_storage.resize((m_used + 7) / 8);
        std::memcpy(bytes() + at, &r, sizeof r);
    }
    [[nodiscard]] std::uint8_t* bytes() { return reinterpret_cast<std::uint8_t*>(m_storage.data()); }
    [[nodiscard]] std::size_t used() const { return m_used; }

private:
    std::vector<std::uint64_t> m_storage; // 8-byte aligned, as CUPTI requires
    std::size_t m_used = 0;
};

TEST(CuptiDecodeBuffer, IteratesBackToBackRecordsWithTheRealCupti) {
    auto e = zeroed<CUpti_ActivityExternalCorrelation>(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION);
    e.externalKind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0;
    e.externalId = encodeExternalId({1, 0, Phase::Forward});
    e.correlationId = 3;
    auto k = zeroed<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    k.name = "_Z4gemmv";
    k.start = 100;
    k.end = 200;
    k.correlationId = 3;
    auto c = zeroed<CUpti_ActivityMemcpy6>(CUPTI_ACTIVITY_KIND_MEMCPY);
    c.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
    c.bytes = 64;
    auto m = zeroed<CUpti_ActivityMemory4>(CUPTI_ACTIVITY_KIND_MEMORY2);
    m.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION;
    auto api = zeroed<CUpti_ActivityAPI>(CUPTI_ACTIVITY_KIND_RUNTIME);
    auto s = zeroed<CUpti_ActivityMemset4>(CUPTI_ACTIVITY_KIND_MEMSET);
    SyntheticBuffer buffer;
    buffer.append(e);
    buffer.append(k);
    buffer.append(c);
    buffer.append(m);
    buffer.append(api);
    buffer.append(s);
    const RecordBatch batch = decodeBuffer(buffer.bytes(), buffer.used());
    EXPECT_FALSE(batch.truncated);
    ASSERT_EQ(batch.correlations.size(), 1u);
    ASSERT_EQ(batch.kernels.size(), 1u);
    EXPECT_EQ(batch.kernels[0].name, "gemm()");
    EXPECT_EQ(batch.kernels[0].correlationId, 3u);
    ASSERT_EQ(batch.memcpys.size(), 1u);
    EXPECT_EQ(batch.memcpys[0].bytes, 64u);
    EXPECT_EQ(batch.memory.size(), 1u);
    EXPECT_EQ(batch.apis.size(), 1u);
    EXPECT_EQ(batch.memsets.size(), 1u);
}

TEST(CuptiDecodeBuffer, AnEmptyBufferHasNoRecords) {
    const RecordBatch batch = decodeBuffer(nullptr, 0);
    EXPECT_TRUE(batch.kernels.empty());
    EXPECT_FALSE(batch.truncated);
}

TEST(CuptiDecodeBuffer, StopsAtAnInvalidRecordAndMarksTheBatchTruncated) {
    auto k = zeroed<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    k.start = 1;
    k.end = 2;
    auto bad = zeroed<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_INVALID);
    SyntheticBuffer buffer;
    buffer.append(k);
    buffer.append(bad);
    buffer.append(k);
    const RecordBatch batch = decodeBuffer(buffer.bytes(), buffer.used());
    EXPECT_EQ(batch.kernels.size(), 1u);
    EXPECT_TRUE(batch.truncated);
}

} // namespace
} // namespace rnnprof::gpu

#else
TEST(CuptiDecode, NeedsCupti) {
    GTEST_SKIP() << "built without CUPTI: the CUPTI record structs are not available";
}
#endif

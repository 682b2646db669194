#include "profiling/gpu/cupti_decode.h"

#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <memory>

namespace rnnprof::gpu {
namespace {

struct FreeDeleter {
    void operator()(char* p) const { std::free(p); }
};

KernelRecord decodeKernel(const CUpti_ActivityKernel10& k) {
    KernelRecord r;
    r.name = demangleKernelName(k.name);
    r.start = k.start;
    r.end = k.end;
    r.grid = {k.gridX, k.gridY, k.gridZ};
    r.block = {k.blockX, k.blockY, k.blockZ};
    r.registersPerThread = k.registersPerThread;
    r.staticSharedMemory = k.staticSharedMemory;
    r.dynamicSharedMemory = k.dynamicSharedMemory;
    r.correlationId = k.correlationId;
    r.streamId = k.streamId;
    r.deviceId = k.deviceId;
    return r;
}

MemcpyRecord decodeMemcpy(const CUpti_ActivityMemcpy6& c) {
    MemcpyRecord r;
    r.kind = c.copyKind <= std::uint8_t(CopyKind::PtoP) ? CopyKind(c.copyKind) : CopyKind::Unknown;
    r.bytes = c.bytes;
    r.start = c.start;
    r.end = c.end;
    r.correlationId = c.correlationId;
    r.runtimeCorrelationId = c.runtimeCorrelationId;
    r.streamId = c.streamId;
    r.deviceId = c.deviceId;
    r.async = (c.flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC) != 0;
    return r;
}

MemsetRecord decodeMemset(const CUpti_ActivityMemset4& s) {
    MemsetRecord r;
    r.bytes = s.bytes;
    r.start = s.start;
    r.end = s.end;
    r.value = s.value;
    r.correlationId = s.correlationId;
    r.streamId = s.streamId;
    r.deviceId = s.deviceId;
    return r;
}

MemoryRecord decodeMemory(const CUpti_ActivityMemory4& m) {
    MemoryRecord r;
    switch (m.memoryOperationType) {
    case CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION:
        r.operation = MemoryOperation::Allocation;
        break;
    case CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE:
        r.operation = MemoryOperation::Release;
        break;
    default:
        r.operation = MemoryOperation::Unknown;
        break;
    }
    const auto kind = unsigned(m.memoryKind);
    r.memoryKind = kind <= unsigned(MemoryKind::ManagedStatic) ? MemoryKind(kind) : MemoryKind::Unknown;
    r.address = m.address;
    r.bytes = m.bytes;
    r.timestamp = m.timestamp;
    r.correlationId = m.correlationId;
    r.streamId = m.streamId;
    r.deviceId = m.deviceId;
    r.async = m.isAsync != 0;
    return r;
}

ExternalCorrelationRecord decodeCorrelation(const CUpti_ActivityExternalCorrelation& e) {
    ExternalCorrelationRecord r;
    r.externalKind = std::uint32_t(e.externalKind);
    r.externalId = e.externalId;
    r.correlationId = e.correlationId;
    return r;
}

ApiRecord decodeApi(const CUpti_ActivityAPI& a, ApiDomain domain) {
    ApiRecord r;
    r.domain = domain;
    r.callbackId = a.cbid;
    r.start = a.start;
    r.end = a.end;
    r.threadId = a.threadId;
    r.correlationId = a.correlationId;
    r.returnValue = a.returnValue;
    return r;
}

} // namespace

std::string demangleKernelName(const char* name) {
    if (name == nullptr) return "(unnamed kernel)";
    int status = 0;
    const std::unique_ptr<char, FreeDeleter> demangled(abi::__cxa_demangle(name, nullptr, nullptr, &status));
    if (status == 0 && demangled) return demangled.get();
    return name;
}

// Each record struct is packed and 8-byte aligned, and CUPTI hands out records at such offsets,
// so `record` points at a real object of the struct its kind names; only the kind is read before
// knowing that type, and it is read bytewise.
bool decodeRecord(const CUpti_Activity* record, RecordBatch& into) {
    if (record == nullptr) return false;
    CUpti_ActivityKind kind{};
    std::memcpy(&kind, record, sizeof kind);
    switch (kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_KERNEL:
        into.kernels.push_back(decodeKernel(*reinterpret_cast<const CUpti_ActivityKernel10*>(record)));
        return true;
    case CUPTI_ACTIVITY_KIND_MEMCPY:
        into.memcpys.push_back(decodeMemcpy(*reinterpret_cast<const CUpti_ActivityMemcpy6*>(record)));
        return true;
    case CUPTI_ACTIVITY_KIND_MEMSET:
        into.memsets.push_back(decodeMemset(*reinterpret_cast<const CUpti_ActivityMemset4*>(record)));
        return true;
    case CUPTI_ACTIVITY_KIND_MEMORY2:
        into.memory.push_back(decodeMemory(*reinterpret_cast<const CUpti_ActivityMemory4*>(record)));
        return true;
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION:
        into.correlations.push_back(
            decodeCorrelation(*reinterpret_cast<const CUpti_ActivityExternalCorrelation*>(record)));
        return true;
    case CUPTI_ACTIVITY_KIND_RUNTIME:
        into.apis.push_back(
            decodeApi(*reinterpret_cast<const CUpti_ActivityAPI*>(record), ApiDomain::Runtime));
        return true;
    case CUPTI_ACTIVITY_KIND_DRIVER:
        into.apis.push_back(
            decodeApi(*reinterpret_cast<const CUpti_ActivityAPI*>(record), ApiDomain::Driver));
        return true;
    default:
        ++into.ignoredRecords;
        return false;
    }
}

RecordBatch decodeBuffer(std::uint8_t* buffer, std::size_t validSize) {
    RecordBatch batch;
    if (buffer == nullptr || validSize == 0) return batch;
    CUpti_Activity* record = nullptr;
    for (;;) {
        const CUptiResult status = cuptiActivityGetNextRecord(buffer, validSize, &record);
        if (status == CUPTI_ERROR_MAX_LIMIT_REACHED) break;
        if (status != CUPTI_SUCCESS) { // INVALID_KIND: incomplete record; nothing after it is usable
            batch.truncated = true;
            break;
        }
        CUpti_ActivityKind kind{};
        std::memcpy(&kind, record, sizeof kind);
        if (kind == CUPTI_ACTIVITY_KIND_OVERHEAD) {
            auto* overhead = reinterpret_cast<CUpti_ActivityOverhead3*>(record);
            std::free(overhead->overheadData);
            overhead->overheadData = nullptr;
        }
        decodeRecord(record, batch);
    }
    return batch;
}

} // namespace rnnprof::gpu

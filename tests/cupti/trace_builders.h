#pragma once
// Small builders of plain GPU records for the trace-model and tracer tests.
#include "profiling/gpu/gpu_trace_model.h"

#include <string>

namespace rnnprof::test {

inline gpu::KernelRecord kernel(std::string name, std::uint64_t start, std::uint64_t end,
                                std::uint32_t correlationId, std::uint32_t streamId = 7) {
    gpu::KernelRecord k;
    k.name = std::move(name);
    k.start = start;
    k.end = end;
    k.correlationId = correlationId;
    k.streamId = streamId;
    return k;
}

inline gpu::MemcpyRecord copy(gpu::CopyKind kind, std::uint64_t bytes, std::uint64_t start, std::uint64_t end,
                              std::uint32_t correlationId, std::uint32_t runtimeCorrelationId = 0) {
    gpu::MemcpyRecord c;
    c.kind = kind;
    c.bytes = bytes;
    c.start = start;
    c.end = end;
    c.correlationId = correlationId;
    c.runtimeCorrelationId = runtimeCorrelationId;
    c.streamId = 7;
    return c;
}

inline gpu::MemsetRecord memsetOp(std::uint64_t bytes, std::uint64_t start, std::uint64_t end,
                                  std::uint32_t correlationId) {
    gpu::MemsetRecord s;
    s.bytes = bytes;
    s.start = start;
    s.end = end;
    s.correlationId = correlationId;
    s.streamId = 7;
    return s;
}

inline gpu::MemoryRecord memory(gpu::MemoryOperation op, std::uint64_t address, std::uint64_t bytes,
                                std::uint64_t timestamp, std::uint32_t correlationId,
                                gpu::MemoryKind kind = gpu::MemoryKind::Device) {
    gpu::MemoryRecord m;
    m.operation = op;
    m.memoryKind = kind;
    m.address = address;
    m.bytes = bytes;
    m.timestamp = timestamp;
    m.correlationId = correlationId;
    return m;
}

inline gpu::ExternalCorrelationRecord tagged(std::uint32_t correlationId, std::uint32_t pointId,
                                             std::uint32_t iteration, std::optional<Phase> phase) {
    return {gpu::kCustom0CorrelationKind, gpu::encodeExternalId({pointId, iteration, phase}), correlationId};
}

} // namespace rnnprof::test

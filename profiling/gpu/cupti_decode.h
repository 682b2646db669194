#pragma once
// Converts CUPTI activity records (the structs of the cupti_activity.h this is compiled against)
// into the plain records of gpu_trace_model.h. Decoding needs only the header; decodeBuffer also
// calls cuptiActivityGetNextRecord, which works without a GPU or driver. Not for enabling or
// flushing activity (cupti_tracer.cpp does that).
#include "profiling/gpu/gpu_trace_model.h"

#include <cupti_activity.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace rnnprof::gpu {

// Appends the record (null: nothing) to `into` when its kind is one rnnprof decodes (concurrent kernel /
// kernel, memcpy, memset, memory2, external correlation, runtime and driver API); otherwise counts it in
// into.ignoredRecords and returns false. Kernel names are copied and demangled.
bool decodeRecord(const CUpti_Activity* record, RecordBatch& into);

// Every record in the first validSize bytes of a completed activity buffer, stepping with
// cuptiActivityGetNextRecord (never by sizeof: record sizes change between CUPTI releases).
// Stops at an incomplete or invalid record and marks the batch truncated. Frees the heap data of
// overhead records, which CUPTI leaves to the client.
[[nodiscard]] RecordBatch decodeBuffer(std::uint8_t* buffer, std::size_t validSize);

// "_Z6kernelPf" -> "kernel(float*)"; a name that is not a mangled C++ name comes back unchanged,
// a null name as "(unnamed kernel)".
[[nodiscard]] std::string demangleKernelName(const char* name);

} // namespace rnnprof::gpu

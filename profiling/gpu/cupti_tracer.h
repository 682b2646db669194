#pragma once
// The factory of rnnprof's GPU kernel tracer. With CUPTI built in it claims CUPTI's single
// subscription and returns an ActivityTracer over libcupti; without CUPTI, or when any CUPTI call
// fails (no driver, another profiler attached, insufficient privileges), the tracer it returns
// says why in unavailableReason() and never traces. Never throws, never aborts.
//
// Create it once, on the engine thread, before any CUDA context exists (CUPTI's attributes must
// be set before the context is created), and keep it for the life of the application: only one
// tracer can hold the subscription at a time. Between traced passes it detaches CUPTI from the
// process (cuptiFinalize) and attaches again for the next, so untraced runs are not slowed down.
#include "engine/gpu/gpu_info.h"
#include "profiling/measure/runner.h"

#include <memory>
#include <string>

namespace rnnprof {

[[nodiscard]] std::unique_ptr<KernelTracer> makeKernelTracer();
// Sets gpu.builtWithCupti and gpu.cuptiVersion ("130001", "unknown" when CUPTI does not answer):
// the kernel tracer is profiling's, so is the record of its library.
void describeCupti(GpuInfo& gpu);

namespace gpu {

// "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35)"; "unknown CUPTI status (N)" outside CUPTI builds.
[[nodiscard]] std::string describeCuptiStatus(int status);

} // namespace gpu
} // namespace rnnprof

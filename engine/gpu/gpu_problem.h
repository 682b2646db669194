#pragma once
// The host-side data of a GPU run: the problem's inputs, states, target, dropout masks and
// parameters (overrides where given, else the seeded defaults, as reference::runIteration uses
// them), with every override's shape checked before anything is copied to the device.
// Compiled in every build (no CUDA).
#include "engine/problem.h"

namespace rnnprof::gpu {

struct HostProblem {
    ProblemData<float> data;
    ParamSet<float> params;
};

// Checks the shapes of the overrides only, without building any seeded data (cheap, so sessions
// call it before touching the device). Throws Error(InvalidInput) naming the tensor, its shape
// and the expected shape when an override does not fit the configuration and shape.
void requireValidOverrides(const Problem& problem);
// The data of the run; also checks the overrides (as requireValidOverrides).
[[nodiscard]] HostProblem resolveHostProblem(const Problem& problem);

} // namespace rnnprof::gpu

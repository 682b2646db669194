// The kernel loops and the fused recurrent step (fused_step.h) compiled for avx2 (see kernel_runner.h; flags
// in engine/CMakeLists.txt).
#include "engine/cpu/fused_step.h"
#include "engine/cpu/kernel_runner.h"

namespace rnnprof::cpu::isa_avx2 {
#include "engine/cpu/fused_step_impl.h"
#include "engine/cpu/kernel_runner_impl.h"
} // namespace rnnprof::cpu::isa_avx2

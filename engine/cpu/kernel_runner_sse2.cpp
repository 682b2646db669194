// The kernel loops compiled for sse2 (see kernel_runner.h; flags in engine/CMakeLists.txt).
#include "engine/cpu/kernel_runner.h"

namespace rnnprof::cpu::isa_sse2 {
#include "engine/cpu/kernel_runner_impl.h"
} // namespace rnnprof::cpu::isa_sse2

// The kernel loops compiled for avx512 (see kernel_runner.h; flags in engine/CMakeLists.txt).
#include "engine/cpu/kernel_runner.h"

namespace rnnprof::cpu::isa_avx512 {
#include "engine/cpu/kernel_runner_impl.h"
} // namespace rnnprof::cpu::isa_avx512

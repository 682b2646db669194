// The kernel loops, the fused recurrent step (fused_step.h) and the small-batch products
// (small_batch_gemm.h) compiled for avx512 (see kernel_runner.h; flags in engine/CMakeLists.txt).
#include "engine/cpu/fused_step.h"
#include "engine/cpu/kernel_runner.h"
#include "engine/cpu/small_batch_gemm.h"

#include <array>
#include <utility>

namespace rnnprof::cpu::isa_avx512 {
#include "engine/cpu/fused_step_impl.h"
#include "engine/cpu/kernel_runner_impl.h"
#include "engine/cpu/small_batch_gemm_impl.h"
} // namespace rnnprof::cpu::isa_avx512

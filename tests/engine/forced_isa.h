#pragma once
// The engine tests run once more per vector ISA of cpu-blas's step kernels, forced with
// RNNPROF_CPU_ISA (tests/CMakeLists.txt). On a CPU without the forced ISA the kernels would run the
// widest ISA it has, which the other runs already test: such tests skip, saying why.
#include "engine/cpu/kernel_runner.h"

#include <cstdlib>
#include <optional>
#include <string>

namespace rnnprof::test {

// Why the ISA that RNNPROF_CPU_ISA forces cannot run on this CPU; nullopt when it can, or when the
// variable is unset or names no ISA.
inline std::optional<std::string> forcedIsaMissing() {
    const char* forced = std::getenv("RNNPROF_CPU_ISA");
    cpu::Isa isa{};
    if (!forced || !cpu::parseIsa(forced, isa) || isa <= cpu::widestIsa()) return std::nullopt;
    return std::string("RNNPROF_CPU_ISA=") + forced + ", but this CPU runs up to " +
           cpu::isaName(cpu::widestIsa());
}

} // namespace rnnprof::test

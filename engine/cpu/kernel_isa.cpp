#include "engine/cpu/kernel_runner.h"

#include <cstdlib>
#include <cstring>

namespace rnnprof::cpu {
namespace {

Isa detect() {
    __builtin_cpu_init();
    Isa best = Isa::Sse2;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) best = Isa::Avx2;
    if (best == Isa::Avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
        best = Isa::Avx512;
    if (const char* forced = std::getenv("RNNPROF_CPU_ISA")) {
        if (std::strcmp(forced, "sse2") == 0) return Isa::Sse2;
        if (std::strcmp(forced, "avx2") == 0 && best != Isa::Sse2) return Isa::Avx2;
    }
    return best;
}

} // namespace

Isa kernelIsa() {
    static const Isa isa = detect();
    return isa;
}

const char* isaName(Isa isa) {
    switch (isa) {
    case Isa::Avx512:
        return "AVX-512";
    case Isa::Avx2:
        return "AVX2";
    default:
        return "SSE2";
    }
}

} // namespace rnnprof::cpu

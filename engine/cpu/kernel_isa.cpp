#include "engine/cpu/kernel_runner.h"

#include <cstdlib>
#include <cstring>
#include <string>

#include <unistd.h>

namespace rnnprof::cpu {
namespace {

Isa detect() {
    __builtin_cpu_init();
    Isa best = Isa::Sse2;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) best = Isa::Avx2;
    if (best == Isa::Avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
        best = Isa::Avx512;
    return best;
}

struct Choice {
    Isa isa;
    std::string note;
};

Choice choose() {
    const Isa widest = widestIsa();
    const char* forced = std::getenv("RNNPROF_CPU_ISA");
    if (!forced) return {widest, ""};
    const std::string asked = std::string("RNNPROF_CPU_ISA=") + forced;
    Isa isa = widest;
    if (!parseIsa(forced, isa)) return {widest, asked + " ignored: not sse2, avx2 or avx512"};
    if (isa > widest) return {widest, asked + " capped: this CPU runs up to " + isaName(widest)};
    return {isa, "set by " + asked};
}

const Choice& choice() {
    static const Choice c = choose();
    return c;
}

} // namespace

Isa widestIsa() {
    static const Isa isa = detect();
    return isa;
}

namespace {
Index cacheBytes(int name, Index fallback) {
    const long reported = sysconf(name);
    return reported > 0 ? Index(reported) : fallback;
}
} // namespace

Index l1DataCacheBytes() {
    static const Index bytes = cacheBytes(_SC_LEVEL1_DCACHE_SIZE, kDefaultL1DataBytes);
    return bytes;
}

Index l2CacheBytes() {
    static const Index bytes = cacheBytes(_SC_LEVEL2_CACHE_SIZE, kDefaultL2Bytes);
    return bytes;
}

Isa kernelIsa() {
    return choice().isa;
}

const char* kernelIsaNote() {
    return choice().note.c_str();
}

bool parseIsa(const char* name, Isa& isa) {
    struct Named {
        const char* name;
        Isa isa;
    };
    static constexpr Named kNames[] = {{"sse2", Isa::Sse2}, {"avx2", Isa::Avx2}, {"avx512", Isa::Avx512}};
    for (const Named& n : kNames)
        if (std::strcmp(name, n.name) == 0) {
            isa = n.isa;
            return true;
        }
    return false;
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

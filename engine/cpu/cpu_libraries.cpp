#include "engine/cpu/cpu_libraries.h"

#include <cblas.h>
#include <oneapi/dnnl/dnnl.h>
#include <sched.h>

#include <cctype>
#include <string>
#include <thread>

namespace rnnprof {

std::string cpuLibraryVersions() {
    // openblas_get_config() starts with "OpenBLAS <version>" and lists the build options.
    const char* config = openblas_get_config();
    std::string s = config ? config : "OpenBLAS (unknown version)";
    const char* core = openblas_get_corename();
    if (core) s += std::string(" (") + core + " kernels)";
    const dnnl_version_t* v = dnnl_version();
    s += " · oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." +
         std::to_string(v->patch);
    return s;
}

std::string openBlasKernelWarning() {
    const char* core = openblas_get_corename();
    if (!core || !__builtin_cpu_supports("avx2")) return {};
    std::string name(core);
    for (char& ch : name)
        ch = char(std::tolower(static_cast<unsigned char>(ch)));
    for (const char* modern : {"haswell", "zen", "skylakex", "cooperlake", "sapphirerapids"})
        if (name == modern) return {};
    return std::string("OpenBLAS runs ") + core +
           " kernels on a CPU with AVX2: set OPENBLAS_CORETYPE=Haswell (or SkylakeX) before starting rnnprof";
}

int availableCpuCores() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        const int n = CPU_COUNT(&set);
        if (n > 0) return n;
    }
    const unsigned hc = std::thread::hardware_concurrency();
    return hc > 0 ? int(hc) : 1;
}

} // namespace rnnprof

#include "engine/cpu/onednn_support.h"

#include "engine/cpu/cpu_libraries.h"
#include "engine/error.h"

#include <omp.h>

namespace rnnprof::cpu {

dnnl::engine cpuEngine() {
    return oneDnnCall("CPU engine", [] { return dnnl::engine(dnnl::engine::kind::cpu, 0); });
}

int resolveOneDnnThreads(int requested) {
    if (requested < 0)
        throw Error(ErrorKind::InvalidConfig, "threads must be 0 (all cores) or a positive count (got " +
                                                  std::to_string(requested) + ")");
    return requested == 0 ? availableCpuCores() : requested;
}

OmpThreadCount::OmpThreadCount(int threads) : m_previous(omp_get_max_threads()) {
    if (threads != m_previous) omp_set_num_threads(threads);
}

OmpThreadCount::~OmpThreadCount() {
    if (omp_get_max_threads() != m_previous) omp_set_num_threads(m_previous);
}

void throwOneDnnError(const dnnl::error& e, const std::string& what) {
    const std::string message =
        "oneDNN " + what + " failed: " + e.what() + " (status " + std::to_string(int(e.status)) + ")";
    switch (e.status) {
    case dnnl_unimplemented:
        throw Error(ErrorKind::Unsupported,
                    message + "; oneDNN has no implementation for this shape, use cpu-blas");
    case dnnl_out_of_memory:
        throw Error(ErrorKind::OutOfMemory, message);
    default:
        throw Error(ErrorKind::BackendFailure, message);
    }
}

std::string cpuIsaName(dnnl::cpu_isa isa) {
    switch (isa) {
    case dnnl::cpu_isa::all:
        return "all";
    case dnnl::cpu_isa::sse41:
        return "sse41";
    case dnnl::cpu_isa::avx:
        return "avx";
    case dnnl::cpu_isa::avx2:
        return "avx2";
    case dnnl::cpu_isa::avx512_mic:
        return "avx512_mic";
    case dnnl::cpu_isa::avx512_mic_4ops:
        return "avx512_mic_4ops";
    case dnnl::cpu_isa::avx512_core:
        return "avx512_core";
    case dnnl::cpu_isa::avx512_core_vnni:
        return "avx512_core_vnni";
    case dnnl::cpu_isa::avx512_core_bf16:
        return "avx512_core_bf16";
    case dnnl::cpu_isa::avx512_core_amx:
        return "avx512_core_amx";
    case dnnl::cpu_isa::avx2_vnni:
        return "avx2_vnni";
    }
    return "isa " + std::to_string(int(isa));
}

} // namespace rnnprof::cpu

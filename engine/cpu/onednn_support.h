#pragma once
// Small pieces every file that calls oneDNN needs (cpu-onednn, and cpu-blas's packed GEMMs): the
// thread count oneDNN runs with, oneDNN errors turned into rnnprof::Error, and names for what
// oneDNN reports about itself.
#include <oneapi/dnnl/dnnl.hpp>

#include <string>

namespace rnnprof::cpu {

// BackendOptions::threads resolved: 0 means every core this process may use. Throws
// Error(InvalidConfig) for a negative count.
[[nodiscard]] int resolveOneDnnThreads(int requested);

// Sets OpenMP's thread count on the calling thread while alive and restores the previous one.
// oneDNN (OpenMP build) sizes some scratchpads when a primitive descriptor is created and runs with
// omp_get_max_threads() when a primitive executes, so creation and execution must both happen
// under the same count. Not a way to change threads of other pools (OpenBLAS keeps its own).
class OmpThreadCount {
public:
    explicit OmpThreadCount(int threads);
    ~OmpThreadCount();
    OmpThreadCount(const OmpThreadCount&) = delete;
    OmpThreadCount& operator=(const OmpThreadCount&) = delete;

private:
    int m_previous;
};

// Rethrows a dnnl::error as rnnprof::Error naming `what` (the primitive or operation):
// unimplemented -> Unsupported, out of memory -> OutOfMemory, anything else -> BackendFailure.
[[noreturn]] void throwOneDnnError(const dnnl::error& e, const std::string& what);

// Runs `f`, translating dnnl::error (see throwOneDnnError).
template <class F>
decltype(auto) oneDnnCall(const std::string& what, F&& f) {
    try {
        return f();
    } catch (const dnnl::error& e) {
        throwOneDnnError(e, what);
    }
}

// oneDNN's CPU engine (index 0). Throws Error like oneDnnCall, naming "CPU engine".
[[nodiscard]] dnnl::engine cpuEngine();

// "avx512_core_amx", "avx2", ...
[[nodiscard]] std::string cpuIsaName(dnnl::cpu_isa isa);

} // namespace rnnprof::cpu

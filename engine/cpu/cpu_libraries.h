#pragma once
// Versions and settings of the CPU math libraries, recorded with every measurement.
#include <string>

namespace rnnprof {

// openblas_get_config(), OpenBLAS's kernel name and oneDNN's version, e.g.
// "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY Haswell MAX_THREADS=64 (Haswell kernels) ·
// oneDNN 2.6.3"
[[nodiscard]] std::string cpuLibraryVersions();
// Empty, or a warning that OpenBLAS runs kernels older than the CPU: a DYNAMIC_ARCH build that
// does not recognise the CPU falls back to SSE3 ("Prescott") kernels, several times slower,
// unless OPENBLAS_CORETYPE names a core (seen on a 16-core Xeon host with Debian's 0.3.21).
[[nodiscard]] std::string openBlasKernelWarning();
// Number of CPUs this process may run on (affinity mask), at least 1.
[[nodiscard]] int availableCpuCores();

} // namespace rnnprof

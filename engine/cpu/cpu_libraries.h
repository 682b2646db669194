#pragma once
// Versions and settings of the CPU math libraries, recorded with every measurement.
#include <string>

namespace rnnprof {

// e.g. "OpenBLAS 0.3.21 (Haswell kernels, pthreads) · oneDNN 2.6.3 (OpenMP)"
[[nodiscard]] std::string cpuLibraryVersions();
// Number of CPUs this process may run on (affinity mask), at least 1.
[[nodiscard]] int availableCpuCores();

} // namespace rnnprof

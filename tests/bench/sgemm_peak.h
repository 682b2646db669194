#pragma once
// The SGEMM peak of this machine, measured in the same run as the benchmarks that compare with it
// (the machine is shared and noisy: ratios only mean something within one run).
namespace rnnprof::bench {

struct SgemmPeak {
    double onednnGflops = 0.0;   // oneDNN's sgemm (JIT, AVX-512 where the CPU has it)
    double openblasGflops = 0.0; // OpenBLAS (its kernels follow OPENBLAS_CORETYPE)
    [[nodiscard]] double best() const {
        return onednnGflops > openblasGflops ? onednnGflops : openblasGflops;
    }
};

// Measured once (2048^3, all cores, best of several runs) and cached.
const SgemmPeak& sgemmPeak();

// oneDNN's sgemm on `threads` OpenMP threads (2048^3, best of several runs), measured once per
// thread count and cached: the peak at a benchmark's own thread count, where one core alone may
// clock higher than its share of the all-core peak. Leaves OpenMP's thread count as it found it.
double onednnSgemmGflops(int threads);

} // namespace rnnprof::bench

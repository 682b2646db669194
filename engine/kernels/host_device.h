#pragma once
// RNNPROF_HD marks functions compiled for both host and device. The same inline functions run in
// the CPU backends' loops and in the CUDA kernels, so the GPU's per-element math is tested on the CPU.
#if defined(__CUDACC__)
#define RNNPROF_HD __host__ __device__ __forceinline__
#else
#define RNNPROF_HD inline __attribute__((always_inline))
#endif

#pragma once
// oneDNN's packed sgemm: the GEMM on weights packed once that oneDNN's own RNN primitive runs its
// products on (dnnl::impl::cpu::sgemm_pack / sgemm_compute, src/cpu/gemm/gemm_pack.hpp). The
// library exports these functions but declares them in no public header, so they are looked up
// by name at run time; a oneDNN without them (or with another signature, which changes the name)
// leaves packedSgemmAvailable() false and PackedGemm on the public matmul. Column-major, as BLAS.
#include "engine/cpu/packed_gemm.h"

#include <cstddef>
#include <cstdint>

namespace rnnprof::cpu {

// Whether this process's oneDNN exports the three functions.
[[nodiscard]] bool packedSgemmAvailable();

// The product is PackedGemm's, c[m, n] (row stride n) = a[m, k] (row stride lda) * W[k, n], in
// row-major terms; W[kk, nn] = w[kk * strideK + nn * strideN].
// The packed layout depends on OpenMP's thread count (omp_get_max_threads()): size, pack and compute
// under the same count.
// Bytes of W packed for `shape`. Needs packedSgemmAvailable(); throws Error(BackendFailure).
[[nodiscard]] std::size_t packedSgemmBytes(const PackedGemm::Shape& shape);
// Packs W into `packed` (`bytes` of them, packedSgemmBytes()). One of the strides must be 1. Throws
// Error(BackendFailure), also where the packing would need more than `bytes`.
void packedSgemmPack(const PackedGemm::Shape& shape, const float* w, std::int64_t strideK,
                     std::int64_t strideN, float* packed, std::size_t bytes);
// c = a * W on OpenMP's current thread count (omp_get_max_threads()). Throws Error(BackendFailure).
void packedSgemmCompute(const PackedGemm::Shape& shape, const float* packed, const float* a, float* c);

} // namespace rnnprof::cpu

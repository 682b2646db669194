#pragma once
// A GEMM whose right operand stays the same for many calls (a recurrent weight matrix, used once
// per time step): oneDNN's matmul primitive with the weights reordered once, by pack(), into the
// blocked layout its brgemm kernel prefers. sgemm (OpenBLAS's or dnnl_sgemm) instead repacks the
// weights on every call, which dominates a step at small batch (README, "Recurrent products on W_hh
// packed once": 0.6-0.9x dnnl_sgemm's time at B = 1..64, K = 256 and 512). oneDNN rather than OpenBLAS
// because oneDNN picks its kernels by its own CPU detection, while a DYNAMIC_ARCH OpenBLAS that does not know
// the CPU falls back to SSE3 kernels.
//   c[m, n] (row stride n) = a[m, k] (row stride lda) * W[k, n]
// Only a dense c and a dense a (lda = k) reach brgemm; other strides still work, through oneDNN's
// gemm-based matmul. Not for weights that change without a new pack().
#include <oneapi/dnnl/dnnl.hpp>

#include <cstdint>
#include <string>
#include <unordered_map>

namespace rnnprof::cpu {

class PackedGemm {
public:
    struct Shape {
        std::int64_t m = 0, n = 0, k = 0;
        std::int64_t lda = 0;
    };
    // Creates the primitive for `threads` OpenMP threads (1 for a thread of a step team: oneDNN
    // runs a primitive single-threaded inside a parallel region anyway, and sizes it at creation).
    // Throws Error(BackendFailure | Unsupported | OutOfMemory) naming the matmul.
    PackedGemm(const dnnl::engine& engine, const Shape& shape, int threads);
    // What bytes() will be for this shape, from the primitive descriptor alone (no kernel compiled,
    // nothing allocated): for memory estimates.
    [[nodiscard]] static std::uint64_t requiredBytes(const dnnl::engine& engine, const Shape& shape,
                                                     int threads);

    // Copies W[kk, nn] = w[kk * strideK + nn * strideN] into the packed layout.
    void pack(const float* w, std::int64_t strideK, std::int64_t strideN);
    // Needs a pack() first. Throws Error like the constructor.
    void run(const float* a, float* c);

    [[nodiscard]] const Shape& shape() const { return m_shape; }
    // oneDNN's name of the implementation, e.g. "brg:avx512_core" (packed) or "gemm:jit" (plain).
    [[nodiscard]] std::string implementation() const;
    // The packed weights and the primitive's scratchpad.
    [[nodiscard]] std::uint64_t bytes() const {
        return m_packed.get_desc().get_size() + m_scratchpad.get_desc().get_size();
    }

private:
    Shape m_shape;
    dnnl::engine m_engine;
    dnnl::stream m_stream;
    dnnl::matmul::primitive_desc m_pd;
    dnnl::matmul m_matmul;
    dnnl::memory m_packed, m_src, m_dst, m_scratchpad;
    std::unordered_map<int, dnnl::memory> m_args;
};

} // namespace rnnprof::cpu

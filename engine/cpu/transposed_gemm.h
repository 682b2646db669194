#pragma once
// c = a^T * b for a weight gradient over all time steps (dW_ih = dXP^T * layer input, dW_hh = (gate
// gradients)^T * recurrent input) by oneDNN's matmul primitive, which reads a through its transposed view
// with its brgemm kernel. dnnl_sgemm ('T', 'N') is slow on these shapes where a's rows lie a multiple of 2
// KiB apart and c is narrow: transposedGemmPays(). Created once per session for its shape (k = T * B).
//   c[m, n] (row stride ldc) = sum over kk of a[kk, m] (row stride lda) * b[kk, n] (row stride ldb)
#include <oneapi/dnnl/dnnl.hpp>

#include <cstdint>
#include <string>
#include <unordered_map>

namespace rnnprof::cpu {

class TransposedGemm {
public:
    struct Shape {
        std::int64_t m = 0, n = 0, k = 0;
        std::int64_t lda = 0, ldb = 0, ldc = 0;
    };
    // Creates the primitive for `threads` OpenMP threads; run() executes it with that many.
    // Throws Error(BackendFailure | Unsupported | OutOfMemory) naming the matmul.
    TransposedGemm(const dnnl::engine& engine, const Shape& shape, int threads);
    // The scratchpad run() needs, from the primitive descriptor alone (for memory estimates). It
    // grows with the threads (on the 16-core host 78 MB for m = 2048, n = 512, k = 6400).
    [[nodiscard]] static std::uint64_t scratchpadBytes(const dnnl::engine& engine, const Shape& shape,
                                                       int threads);
    [[nodiscard]] std::uint64_t scratchpadBytes() const { return m_scratchpad.get_desc().get_size(); }
    // oneDNN's name of the implementation, e.g. "brg:avx512_core".
    [[nodiscard]] std::string implementation() const;

    // `scratchpad`: scratchpadBytes() bytes that no other run uses at the same time (the session
    // shares one buffer between its weight gradients, which run one after another).
    void run(const float* a, const float* b, float* c, void* scratchpad);

private:
    int m_threads;
    dnnl::matmul::primitive_desc m_pd;
    dnnl::stream m_stream;
    dnnl::matmul m_matmul;
    dnnl::memory m_a, m_b, m_c, m_scratchpad;
    std::unordered_map<int, dnnl::memory> m_args;
};

// Whether the weight gradient of this shape runs on TransposedGemm rather than dnnl_sgemm: where a's row
// stride is a multiple of 512 floats, m at least 1024, c at most 512 columns wide and k at least 1024. Such
// strides alias in the cache and slow dnnl_sgemm ('T', 'N'); with other strides, a wide c (where sgemm
// already runs near a core's peak) or a small k (the matmul's fixed cost) sgemm was as fast or faster. See
// docs/cpu-blas.md.
[[nodiscard]] bool transposedGemmPays(const TransposedGemm::Shape& shape);

} // namespace rnnprof::cpu

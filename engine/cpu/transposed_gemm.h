#pragma once
// c = a^T * b for a weight gradient over all time steps (dW_ih = dXP^T * layer input, dW_hh =
// (gate gradients)^T * recurrent input) by oneDNN's matmul primitive, which reads a through its
// transposed view with its brgemm kernel. dnnl_sgemm ('T', 'N') is slow on these shapes where a's
// rows lie a multiple of 2 KiB apart (gate gradients of 4H floats, LSTM H = 128..1024, or 3H at
// H = 512, 1024) and c is at most 512 columns wide: transposedGemmPays() holds the measurements.
// Created once per session for its shape (the step count and batch fix k = T * B).
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

// Whether the weight gradient of this shape runs on TransposedGemm rather than dnnl_sgemm: where
// a's row stride is a multiple of 512 floats, m at least 1024, c at most 512 columns wide and k
// at least 1024. Such strides alias in the cache: there the matmul took 0.6-0.95x the time of
// dnnl_sgemm ('T', 'N'), less the larger k, and a whole weight gradient 0.63-0.97x from k = 1280 at
// m >= 1024. Rows not 2 KiB apart, n = 1024 (where sgemm already runs near a core's peak) or a small
// k (the matmul's fixed cost) took as long or up to 1.5x. See docs/cpu-blas.md.
[[nodiscard]] bool transposedGemmPays(const TransposedGemm::Shape& shape);

} // namespace rnnprof::cpu

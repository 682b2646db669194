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
// at least 1024. Measured on the 2-core machine (2026-11-24, oneDNN 2.6.3), time of the matmul /
// time of dnnl_sgemm ('T', 'N'). Alone (best of 5, 1 and 2 threads): m = 1024..4096 (a power of
// two) or 1536, n = 128..512: 0.86-0.95 at k = 320, 0.79-0.89 at k = 1280, 0.60-0.80 at k = 6400
// (padding a's rows by 16 floats gave sgemm the same, so it is a cache-aliasing stride); m = 192
// and 768 (rows not 2 KiB apart) 0.95-1.12; n = 1024 (m = 1024..4096) 1.08-1.16, where sgemm runs
// at 190-210 GFLOP/s a core already; k = 20..80 1.03-1.50, the matmul's fixed cost. In the session
// (weight-gradient time, medians of 10, two runs): at k = 320-400 as fast or up to 1.1x slower
// (LSTM H=512 B=4 T=100: 2.9 -> 3.1 ms), and at m = 512 (LSTM H=128, k = 1280) 1.0-1.13x; from
// k = 1280 at m >= 1024 0.63-0.97x (LSTM H=512 B=64 T=100: 74-80 -> 49-50 ms, GRU H=512 B=16
// T=100: 12.2-12.5 -> 9.8-10.1 ms, LSTM H=1024 B=64 T=20, dW_ih alone: 32.5-33.3 -> 31.5 ms).
[[nodiscard]] bool transposedGemmPays(const TransposedGemm::Shape& shape);

} // namespace rnnprof::cpu

#pragma once
// A GEMM whose right operand stays the same for many calls (a recurrent weight matrix, used once
// per time step): oneDNN's matmul primitive with the weights reordered once, by pack(), into the
// blocked layout its brgemm kernel prefers. sgemm (OpenBLAS's or dnnl_sgemm) instead repacks the
// weights on every call, which dominates a step at small batch (docs/cpu-blas.md, "Packed W_hh via
// oneDNN matmul": 0.6-0.9x dnnl_sgemm's time at B = 1..64, K = 256 and 512). oneDNN rather than OpenBLAS
// because oneDNN picks its kernels by its own CPU detection, while a DYNAMIC_ARCH OpenBLAS that does not know
// the CPU falls back to SSE3 kernels.
//   c[m, n] (row stride n) = a[m, k] (row stride lda) * W[k, n]
// Only a dense c and a dense a (lda = k) reach brgemm; other strides still work, through oneDNN's
// gemm-based matmul. Where packedSgemmPays() (large weights, enough rows) and the library exports
// it, the product runs on oneDNN's packed sgemm instead (onednn_packed_sgemm.h), the GEMM of
// oneDNN's own RNN primitive. Not for weights that change without a new pack().
#include <oneapi/dnnl/dnnl.hpp>

#include "engine/cpu/cache_aligned.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace rnnprof::cpu {

class PackedGemm {
public:
    struct Shape {
        std::int64_t m = 0, n = 0, k = 0;
        std::int64_t lda = 0;
        bool repacked = false; // the weights change every iteration (training): pack() runs as often
    };
    // Creates the primitive (or sizes the packed sgemm's buffer) for `threads` OpenMP threads (1
    // for a thread of a step team: oneDNN runs a primitive single-threaded inside a parallel region
    // anyway, and sizes it at creation). Throws Error(BackendFailure | Unsupported | OutOfMemory)
    // naming the matmul or the packed sgemm.
    PackedGemm(const dnnl::engine& engine, const Shape& shape, int threads);
    // What bytes() will be for this shape, from the primitive descriptor alone (no kernel compiled,
    // nothing allocated): for memory estimates.
    [[nodiscard]] static std::uint64_t requiredBytes(const dnnl::engine& engine, const Shape& shape,
                                                     int threads);

    // Copies W[kk, nn] = w[kk * strideK + nn * strideN] into the packed layout.
    void pack(const float* w, std::int64_t strideK, std::int64_t strideN);
    // Needs a pack() first. Throws Error like the constructor. Not for concurrent calls on one
    // object (its scratchpad, and the order of its column chunks, are its own).
    void run(const float* a, float* c);

    [[nodiscard]] const Shape& shape() const { return m_shape; }
    // oneDNN's name of the implementation, e.g. "brg:avx512_core" (packed) or "gemm:jit" (plain),
    // or "packed sgemm".
    [[nodiscard]] std::string implementation() const;
    // Whether it runs on oneDNN's packed sgemm (packedSgemmPays()) rather than on matmul.
    [[nodiscard]] bool onPackedSgemm() const { return m_sgemm; }
    // The products on column chunks of W it runs (columnChunks()); 1 where it runs one product.
    [[nodiscard]] int chunks() const { return m_chunks.empty() ? 1 : int(m_chunks.size()); }
    // The packed weights and the primitive's scratchpad.
    [[nodiscard]] std::uint64_t bytes() const;

private:
    struct Whole {}; // a product over all of W's columns, whatever columnChunks() says
    PackedGemm(const dnnl::engine& engine, const Shape& shape, int threads, Whole);
    void create(const dnnl::engine& engine, int threads);
    [[nodiscard]] std::int64_t chunkStart(std::size_t chunk) const;

    Shape m_shape;
    int m_threads = 1;
    // columnChunks() > 1: the products on the chunks (no primitive of its own), their products of
    // more than one row before they go into c's columns, and how many calls ran (odd: last to first).
    std::vector<PackedGemm> m_chunks;
    std::int64_t m_chunkWidth = 0; // columns of every chunk but the last
    AlignedFloats m_chunkOut;
    std::uint64_t m_calls = 0;
    bool m_sgemm = false; // packedSgemmPays() and available: m_sgemmPacked, no primitive
    AlignedFloats m_sgemmPacked;
    dnnl::engine m_engine;
    dnnl::stream m_stream;
    dnnl::matmul::primitive_desc m_pd;
    dnnl::matmul m_matmul;
    dnnl::memory m_packed, m_src, m_dst, m_scratchpad;
    std::unordered_map<int, dnnl::memory> m_args;
};

// Whether a product of `shape` runs on oneDNN's packed sgemm rather than on matmul's brgemm (where
// the library has it: packedSgemmAvailable()): weights at least kPackedSgemmMinDepth deep and
// kPackedSgemmMinColumns wide, at least kPackedSgemmMinRows rows, and packed once. There it took
// 0.88-0.99x brgemm's time at K = 1024 and sped up whole iterations at K = 512; at M = 16 or K = 128
// it took as long or up to 1.15x, and repacked after every SGD step (training) 1.12x.
// See docs/cpu-blas.md.
inline constexpr std::int64_t kPackedSgemmMinRows = 32;
inline constexpr std::int64_t kPackedSgemmMinDepth = 512;
inline constexpr std::int64_t kPackedSgemmMinColumns = 1536;
[[nodiscard]] constexpr bool packedSgemmPays(const PackedGemm::Shape& s) {
    return !s.repacked && s.m >= kPackedSgemmMinRows && s.k >= kPackedSgemmMinDepth &&
           s.n >= kPackedSgemmMinColumns;
}
// Whether a PackedGemm of `shape` runs on the packed sgemm: it pays and this process's oneDNN has it.
[[nodiscard]] bool runsOnPackedSgemm(const PackedGemm::Shape& shape);

// How many products on column chunks of W a PackedGemm of `shape` on `threads` threads runs, on a
// core with `l2Bytes` of L2: on one thread (a team thread's own product; on more, every chunk would
// be a parallel region of its own: GRU training H=512 B=4 on two threads took 142-146 -> 215-217 us
// a step), where W is larger than L2 but at most kChunkedMaxL2s times it, and the rows few enough
// that streaming W bounds the product (at most kChunkedMaxRows), chunks of at most half an L2, which it
// runs first to last on one call and last to first on the next. So each call starts with the
// chunks the one before ended with, which are still in L2 (one product over all of W, the same
// way every time, finds none of it there: the fused step's turning back, fused_step.h). Else 1.
// Measured on the 2-core Xeon (2 MiB L2; one thread, 100 calls with the rows' own few KiB between
// them, medians of 5, two passes, µs a call, one product -> chunks turning back): W of 4 MiB (K =
// 512, N = 2048) in 4 chunks 161-162 -> 122-123 at M = 1, 164-165 -> 135-138 at M = 4, 291-294 ->
// 277-288 at M = 16; in 2 chunks (of 2 MiB) 163 -> 138-139 at M = 1; W of 12 MiB (K = 1024, N = 3072,
// 12 chunks) 485-487 -> 457-464 at M = 1 and 480-483 -> 476-477 at M = 4; 16 MiB in 16 chunks 640-651
// -> 635-637. Each chunk is a call of its own (the chunks first to last every time: 2-6 % slower than
// one product), so beyond a few L2s the calls cost what the reuse saves.
inline constexpr std::int64_t kChunkedMaxRows = 4;
inline constexpr std::int64_t kChunkedMaxL2s = 3;
[[nodiscard]] int columnChunks(const PackedGemm::Shape& shape, int threads, std::int64_t l2Bytes);
// The columns of each chunk but the last (the rest): half an L2 of W's columns in whole cache lines
// of floats; 0 where columnChunks() is 1.
[[nodiscard]] std::int64_t columnChunkWidth(const PackedGemm::Shape& shape, int threads,
                                            std::int64_t l2Bytes);

} // namespace rnnprof::cpu

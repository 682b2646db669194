#pragma once
// A GEMM whose right operand stays the same for many calls (a recurrent weight matrix, used once per step):
// oneDNN's matmul primitive with the weights reordered once, by pack(), into the blocked layout its brgemm
// kernel prefers, where sgemm repacks them on every call, which dominates a step at small batch. oneDNN
// rather than OpenBLAS, as it picks its kernels by its own CPU detection. See docs/cpu-blas.md.
//   c[m, n] (row stride n) = a[m, k] (row stride lda) * W[k, n]
// Only a dense c and a dense a (lda = k) reach brgemm; other strides run on oneDNN's gemm-based matmul. Where
// packedSgemmPays() and the library exports it, the product runs on oneDNN's packed sgemm instead
// (onednn_packed_sgemm.h). Not for weights that change without a new pack().
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

// Whether a product of `shape` runs on oneDNN's packed sgemm rather than on matmul's brgemm (where the
// library has it: packedSgemmAvailable()): weights at least kPackedSgemmMinDepth deep and
// kPackedSgemmMinColumns wide, at least kPackedSgemmMinRows rows, and packed once. Below these bounds, or
// repacked after every SGD step (training), brgemm was as fast or faster. See docs/cpu-blas.md.
inline constexpr std::int64_t kPackedSgemmMinRows = 32;
inline constexpr std::int64_t kPackedSgemmMinDepth = 512;
inline constexpr std::int64_t kPackedSgemmMinColumns = 1536;
[[nodiscard]] constexpr bool packedSgemmPays(const PackedGemm::Shape& s) {
    return !s.repacked && s.m >= kPackedSgemmMinRows && s.k >= kPackedSgemmMinDepth &&
           s.n >= kPackedSgemmMinColumns;
}
// Whether a PackedGemm of `shape` runs on the packed sgemm: it pays and this process's oneDNN has it.
[[nodiscard]] bool runsOnPackedSgemm(const PackedGemm::Shape& shape);

// How many products on column chunks of W a PackedGemm of `shape` on `threads` threads runs, on a core with
// `l2Bytes` of L2: on one thread, where W is larger than L2 but at most kChunkedMaxL2s times it and the rows
// are few enough (at most kChunkedMaxRows) that streaming W bounds the product, chunks of at most half an L2,
// run first to last on one call and last to first on the next, so that each call starts on the chunks still
// in L2 (as the fused step turns back, fused_step.h). Else 1. See docs/cpu-blas.md.
inline constexpr std::int64_t kChunkedMaxRows = 4;
inline constexpr std::int64_t kChunkedMaxL2s = 3;
[[nodiscard]] int columnChunks(const PackedGemm::Shape& shape, int threads, std::int64_t l2Bytes);
// The columns of each chunk but the last (the rest): half an L2 of W's columns in whole cache lines
// of floats; 0 where columnChunks() is 1.
[[nodiscard]] std::int64_t columnChunkWidth(const PackedGemm::Shape& shape, int threads,
                                            std::int64_t l2Bytes);

} // namespace rnnprof::cpu

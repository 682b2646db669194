// The small-batch products (small_batch_gemm.h), included once by each kernel_runner_<isa>.cpp
// inside that file's ISA namespace, with that file's compiler flags (which set the vector width
// below). The loops live in an anonymous namespace so that the three compilations never merge at
// link time. No include guard on purpose; the including file includes <array> and <utility> first.
#include "engine/cpu/small_batch_gemm.h"

namespace {
namespace small_batch {

using rnnprof::cpu::GemmArgs;
using rnnprof::cpu::Index;

#if defined(__AVX512F__)
constexpr int kLanes = 16;
#elif defined(__AVX2__)
constexpr int kLanes = 8;
#else
constexpr int kLanes = 4;
#endif

// One vector of kLanes floats (GCC/Clang vector extension: `scalar * vector` broadcasts).
typedef float Vec __attribute__((vector_size(kLanes * sizeof(float))));

inline Vec load(const float* p) {
    Vec v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}

// The lanes of fold(x, y, h) below: lane i takes lane foldLane(i) (and foldLane(i) + h) of x, or of
// y where the index is kLanes or more.
constexpr int foldLane(int i, int h) {
    const int segment = i / h;
    return (segment & 1 ? kLanes : 0) + (segment >> 1) * 2 * h + i % h;
}
// Lanes foldLane(i, H) + Offset of (x, y), with constant indices (__builtin_shufflevector: GCC 12
// and clang, which the fuzz build compiles with).
template <int H, int Offset, std::size_t... I>
inline Vec pick(Vec x, Vec y, std::index_sequence<I...>) {
    return __builtin_shufflevector(x, y, (foldLane(int(I), H) + Offset)...);
}
// Halves the partial sums that x and y carry per accumulator: each holds segments of 2h lanes, one
// accumulator's partial sums each; the result holds segments of h lanes, x's and y's alternating.
template <int H>
inline Vec fold(Vec x, Vec y) {
    constexpr auto lanes = std::make_index_sequence<kLanes>{};
    return pick<H, 0>(x, y, lanes) + pick<H, H>(x, y, lanes);
}
// v[0..N) (N = kLanes >> level vectors, segments of kLanes >> level lanes) folded down to one
// vector whose lane i is the sum of accumulator sumsOrder()[i].
template <int Level>
inline Vec foldAll(Vec* v) {
    constexpr int n = kLanes >> Level;
    if constexpr (n == 1) {
        return v[0];
    } else {
#pragma GCC unroll 16
        for (int k = 0; k < n / 2; ++k)
            v[k] = fold<n / 2>(v[2 * k], v[2 * k + 1]);
        return foldAll<Level + 1>(v);
    }
}
// Which accumulator's sum lane i of foldAll<0>() holds: the same folds applied to accumulator ids.
constexpr std::array<int, kLanes> sumsOrder() {
    std::array<std::array<int, kLanes>, kLanes> ids{};
    for (int a = 0; a < kLanes; ++a)
        for (int l = 0; l < kLanes; ++l)
            ids[std::size_t(a)][std::size_t(l)] = a;
    for (int n = kLanes; n > 1; n /= 2)
        for (int k = 0; k < n / 2; ++k) {
            std::array<int, kLanes> out{};
            for (int i = 0; i < kLanes; ++i) {
                const int from = foldLane(i, n / 2);
                out[std::size_t(i)] = from < kLanes ? ids[std::size_t(2 * k)][std::size_t(from)]
                                                    : ids[std::size_t(2 * k + 1)][std::size_t(from - kLanes)];
            }
            ids[std::size_t(k)] = out;
        }
    return ids[0];
}

// c[r, j + i] (+)= a[r, :] . b[j + i, :] for R rows of a and J rows of b, which are streamed once;
// the R * J <= kLanes dot products are reduced together (foldAll()).
template <int R, int J>
inline void dotRows(const GemmArgs& g, Index j) {
    static_assert(R * J <= kLanes);
    Vec acc[kLanes];
#pragma GCC unroll 16
    for (int i = 0; i < kLanes; ++i)
        acc[i] = Vec{};
    const Index kv = g.k / kLanes * kLanes;
    for (Index k = 0; k < kv; k += kLanes) {
        Vec w[J];
#pragma GCC unroll 16
        for (int i = 0; i < J; ++i)
            w[i] = load(g.b + (j + i) * g.ldb + k);
#pragma GCC unroll 16
        for (int r = 0; r < R; ++r) {
            const Vec a = load(g.a + r * g.lda + k);
#pragma GCC unroll 16
            for (int i = 0; i < J; ++i)
                acc[r * J + i] += a * w[i];
        }
    }
    const Vec sums = foldAll<0>(acc);
    constexpr std::array<int, kLanes> order = sumsOrder();
#pragma GCC unroll 16
    for (int l = 0; l < kLanes; ++l) {
        const int r = order[std::size_t(l)] / J, i = order[std::size_t(l)] % J;
        if (r >= R) continue;
        float s = sums[l];
        for (Index k = kv; k < g.k; ++k)
            s += g.a[r * g.lda + k] * g.b[(j + i) * g.ldb + k];
        float& c = g.c[r * g.ldc + j + i];
        c = g.beta == 0.0f ? s : c + s;
    }
}

// op(B) = B^T: kLanes / R rows of b a pass (one accumulator per row of a and of b, all reduced at
// once); three rows of a take four's rows of b.
template <int R>
void dotProducts(const GemmArgs& g) {
    constexpr int J = kLanes / (R == 3 ? 4 : R);
    Index j = 0;
    for (; j + J <= g.n; j += J)
        dotRows<R, J>(g, j);
    for (; j < g.n; ++j)
        dotRows<R, 1>(g, j);
}

} // namespace small_batch
} // namespace

void smallBatchGemm(const GemmArgs& g) {
    switch (g.m) {
    case 1:
        return small_batch::dotProducts<1>(g);
    case 2:
        return small_batch::dotProducts<2>(g);
    case 3:
        return small_batch::dotProducts<3>(g);
    default:
        return small_batch::dotProducts<4>(g);
    }
}

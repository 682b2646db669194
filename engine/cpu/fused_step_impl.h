// The fused recurrent step (fused_step.h), included once by each kernel_runner_<isa>.cpp inside
// that file's ISA namespace, with that file's compiler flags (which set the vector width below).
// The loops live in an anonymous namespace so that the three compilations never merge at link time.
// No include guard on purpose.
#include "engine/cpu/fused_step.h"
#include "engine/cpu/kernel_list.h"

namespace {
namespace fused {

using rnnprof::cpu::FusedSlice;
using rnnprof::cpu::FusedStepArgs;
using rnnprof::cpu::Index;
using rnnprof::cpu::Isa;

#if defined(__AVX512F__)
constexpr Isa kIsa = Isa::Avx512;
#elif defined(__AVX2__)
constexpr Isa kIsa = Isa::Avx2;
#else
constexpr Isa kIsa = Isa::Sse2;
#endif
constexpr int kLanes = rnnprof::cpu::fusedLanes(kIsa);
constexpr int kRows = rnnprof::cpu::fusedRowsPerPass(kIsa);

// One vector of lanes floats (GCC/Clang vector extension: `scalar * vector` broadcasts).
typedef float Vec __attribute__((vector_size(kLanes * sizeof(float))));

inline Vec load(const float* p) {
    Vec v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}

// acc[r][g] = sum over k of h[r, k] * (gate g's weights of this block at k): the block's share of
// h_{t-1} * W_hh^T for R batch rows, streaming the block's weights once. With fewer than 8
// accumulators (one row; two rows of GRU) every one gets two partial sums, so that enough
// independent FMA chains run to hide their latency.
template <int G, int R>
inline void blockProducts(const float* w, Index hidden, const float* h, Index ldh, Vec (&acc)[R][G]) {
    constexpr int S = R * G < 8 ? 2 : 1;
    Vec part[S][R][G];
#pragma GCC unroll 16
    for (int s = 0; s < S; ++s)
#pragma GCC unroll 16
        for (int r = 0; r < R; ++r)
#pragma GCC unroll 16
            for (int g = 0; g < G; ++g)
                part[s][r][g] = Vec{};
    Index k = 0;
    for (; k + S <= hidden; k += S)
#pragma GCC unroll 16
        for (int s = 0; s < S; ++s) {
            const float* wk = w + (k + s) * G * kLanes;
#pragma GCC unroll 16
            for (int g = 0; g < G; ++g) {
                const Vec wv = load(wk + g * kLanes);
#pragma GCC unroll 16
                for (int r = 0; r < R; ++r)
                    part[s][r][g] += h[r * ldh + k + s] * wv;
            }
        }
    for (; k < hidden; ++k) {
        const float* wk = w + k * G * kLanes;
#pragma GCC unroll 16
        for (int g = 0; g < G; ++g) {
            const Vec wv = load(wk + g * kLanes);
#pragma GCC unroll 16
            for (int r = 0; r < R; ++r)
                part[0][r][g] += h[r * ldh + k] * wv;
        }
    }
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 16
        for (int g = 0; g < G; ++g) {
            acc[r][g] = part[0][r][g];
            if constexpr (S == 2) acc[r][g] += part[1][r][g];
        }
}

// Rows [b, b + R) of one block: the products, then tail(acc, bias, b, rows, jBlock, units) for the
// block's `units` real lanes and its first `rows` rows of acc (all R here).
template <int G, int R, class Tail>
inline void rowsPass(const float* w, Index b, Index jb, int units, const FusedStepArgs& a, Tail& tail) {
    Vec acc[R][G];
    blockProducts<G, R>(w, a.hidden, a.h + b * a.ldh, a.ldh, acc);
    tail(acc, w + a.hidden * G * kLanes, b, R, jb, units);
}

// The rows left after the full passes (rows < kRows) in one pass too, so that W_hh is streamed
// once more rather than once per row.
template <int G, int R, class Tail>
inline void lastRows(Index rows, const float* w, Index b, Index jb, int units, const FusedStepArgs& a,
                     Tail& tail) {
    if constexpr (R > 0) {
        if (rows == R) return rowsPass<G, R>(w, b, jb, units, a, tail);
        lastRows<G, R - 1>(rows, w, b, jb, units, a, tail);
    }
}

// f(w, jBlock, units) for every block of the slice: its weights, its first unit and its real lanes.
template <int G, class F>
inline void eachBlock(const FusedSlice& slice, Index hidden, F&& f) {
    const Index blockFloats = rnnprof::cpu::fusedBlockFloats(hidden, G, kLanes);
    const Index blocks = (slice.j1 - slice.j0 + kLanes - 1) / kLanes;
    for (Index i = 0; i < blocks; ++i) {
        const Index blk = slice.backwards ? blocks - 1 - i : i, jb = slice.j0 + blk * kLanes;
        f(slice.packed + blk * blockFloats, jb, int(slice.j1 - jb < kLanes ? slice.j1 - jb : kLanes));
    }
}

// Every block of the slice, batch rows kRows at a time (FusedOrder::KMajor).
template <int G, class Tail>
void forEachBlockByRows(const FusedSlice& slice, const FusedStepArgs& a, Tail& tail) {
    eachBlock<G>(slice, a.hidden, [&](const float* w, Index jb, int units) {
        Index b = 0;
        for (; b + kRows <= a.batch; b += kRows)
            rowsPass<G, kRows>(w, b, jb, units, a, tail);
        lastRows<G, kRows - 1>(a.batch - b, w, b, jb, units, a, tail);
    });
}

// How far ahead, in k, the streamed step prefetches its gate's weights (one vector of lanes floats
// per k: 4 KiB with AVX-512). Measured at LSTM H=512 B=16 (one thread): 16 to 256 within the noise.
constexpr Index kStreamAhead = 64;

// Brings the cache line at `p` + `floats` towards L1. The address may lie past the slice (past the
// last gate of the last block): a prefetch never faults, and it is formed as an integer, not by
// pointer arithmetic beyond the array.
inline void prefetchAhead(const float* p, Index floats) {
    const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p) + std::uintptr_t(floats) * sizeof(float);
    __builtin_prefetch(reinterpret_cast<const void*>(at), 0, 3);
}

// acc[r][g] = sum over k of hByK[k * R + r] * (gate g's weights of this block at k), for a
// FusedOrder::GateMajor block: one gate at a time, so that the gate's R accumulators stay in registers, each
// weight vector is loaded once for all R rows, and every row's h at k is one broadcast from a fixed offset. k
// is unrolled by two, as one weight load a k left the FMAs waiting (8-15 % faster at 16 rows). Two gates a
// pass at 8 rows, for fewer loads per FMA, gained nothing: W_hh's stream from L3 bounds those steps.
template <int G, int R>
inline void blockProductsByGate(const float* w, Index hidden, const float* hByK, Vec (&acc)[R][G]) {
#pragma GCC unroll 1
    for (int g = 0; g < G; ++g) {
        Vec part[R];
#pragma GCC unroll 16
        for (int r = 0; r < R; ++r)
            part[r] = Vec{};
        const float* wg = w + g * hidden * kLanes;
#pragma GCC unroll 2
        for (Index k = 0; k < hidden; ++k) {
            prefetchAhead(wg, (k + kStreamAhead) * kLanes);
            const Vec wv = load(wg + k * kLanes);
            const float* hk = hByK + k * R;
#pragma GCC unroll 16
            for (int r = 0; r < R; ++r)
                part[r] += hk[r] * wv;
        }
#pragma GCC unroll 16
        for (int r = 0; r < R; ++r)
            acc[r][g] = part[r];
    }
}

// The streamed step (FusedOrder::GateMajor, batch <= R): h_{t-1} transposed into a.hByK, rows past
// the batch zero, then one pass of R rows over every block.
template <int G, int R, class Tail>
void forEachBlockStreamed(const FusedSlice& slice, const FusedStepArgs& a, Tail& tail) {
    float* hByK = a.hByK;
    for (Index k = 0; k < a.hidden; ++k)
        for (Index r = a.batch; r < R; ++r)
            hByK[k * R + r] = 0.0f;
    for (Index r = 0; r < a.batch; ++r)
        for (Index k = 0; k < a.hidden; ++k)
            hByK[k * R + r] = a.h[r * a.ldh + k];
    eachBlock<G>(slice, a.hidden, [&](const float* w, Index jb, int units) {
        Vec acc[R][G];
        blockProductsByGate<G, R>(w, a.hidden, hByK, acc);
        tail(acc, w + a.hidden * G * kLanes, Index(0), int(a.batch), jb, units);
    });
}

// Every block of the slice in the slice's order: tail(acc, bias, b0, rows, jBlock, units) gets
// the pre-activations of rows [b0, b0 + rows) of the block's units.
template <int G, class Tail>
void forEachBlock(const FusedSlice& slice, const FusedStepArgs& a, Tail&& tail) {
    if (slice.order == rnnprof::cpu::FusedOrder::KMajor) return forEachBlockByRows<G>(slice, a, tail);
    switch (rnnprof::cpu::fusedStreamRows(a.batch)) {
    case 8:
        return forEachBlockStreamed<G, 8>(slice, a, tail);
    case 12:
        return forEachBlockStreamed<G, 12>(slice, a, tail);
    default:
        return forEachBlockStreamed<G, 16>(slice, a, tail);
    }
}

} // namespace fused
} // namespace

template <class A>
void lstmFusedStep(const A acts, const FusedSlice& slice, const FusedStepArgs& a) {
    using fused::kLanes;
    const Index H = a.hidden;
    fused::forEachBlock<4>(
        slice, a, [&](const auto& acc, const float* bias, Index b0, int rows, Index jb, int units) {
            constexpr int R = int(sizeof(decltype(acc)) / sizeof(fused::Vec[4]));
            float pre[R][4][kLanes];
            __builtin_memcpy(pre, acc, sizeof pre);
            for (int r = 0; r < rows; ++r) {
                const Index b = b0 + r;
                const float* xp = a.xp + b * a.ldxp + jb;
                const float* cPrev = a.cPrev + b * H + jb;
                float* c = a.c + b * H + jb;
                float* h = a.hOut + b * a.ldhOut + jb;
#pragma omp simd
                for (int l = 0; l < units; ++l) {
                    const auto s = rnnprof::gates::lstmForward(
                        acts, pre[r][0][l] + xp[l] + bias[l], pre[r][1][l] + xp[H + l] + bias[kLanes + l],
                        pre[r][2][l] + xp[2 * H + l] + bias[2 * kLanes + l],
                        pre[r][3][l] + xp[3 * H + l] + bias[3 * kLanes + l], cPrev[l]);
                    c[l] = s.c;
                    h[l] = s.h;
                }
            }
        });
}

template <class A>
void gruFusedStep(const A acts, const FusedSlice& slice, const FusedStepArgs& a) {
    using fused::kLanes;
    const Index H = a.hidden;
    fused::forEachBlock<3>(
        slice, a, [&](const auto& acc, const float* bias, Index b0, int rows, Index jb, int units) {
            constexpr int R = int(sizeof(decltype(acc)) / sizeof(fused::Vec[3]));
            float pre[R][3][kLanes];
            __builtin_memcpy(pre, acc, sizeof pre);
            for (int r = 0; r < rows; ++r) {
                const Index b = b0 + r;
                const float* xp = a.xp + b * a.ldxp + jb;
                const float* hPrev = a.h + b * a.ldh + jb;
                float* h = a.hOut + b * a.ldhOut + jb;
#pragma omp simd
                for (int l = 0; l < units; ++l) {
                    const auto g = rnnprof::gates::gruGates(acts, pre[r][0][l] + xp[l] + bias[l],
                                                            pre[r][1][l] + xp[H + l] + bias[kLanes + l]);
                    const float hn = pre[r][2][l] + bias[3 * kLanes + l]; // W_hn h + b_hn
                    const float n =
                        rnnprof::gates::gruCandidate(acts, xp[2 * H + l] + bias[2 * kLanes + l] + g.r * hn);
                    h[l] = rnnprof::gates::gruOutput(g.z, n, hPrev[l]);
                }
            }
        });
}

#define RNNPROF_INSTANTIATE_FUSED(A)                                                                         \
    template void lstmFusedStep<A>(A, const FusedSlice&, const FusedStepArgs&);                              \
    template void gruFusedStep<A>(A, const FusedSlice&, const FusedStepArgs&);
RNNPROF_INSTANTIATE_FUSED(ActsTanhSigmoid)
RNNPROF_INSTANTIATE_FUSED(ActsTanhHard)
RNNPROF_INSTANTIATE_FUSED(ActsReluSigmoid)
RNNPROF_INSTANTIATE_FUSED(ActsReluHard)
#undef RNNPROF_INSTANTIATE_FUSED

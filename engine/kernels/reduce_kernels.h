#pragma once
// A deterministic sum over [0, n) as host+device pieces: the GPU runs them in
// engine/gpu/reduce_launch.cu (gpu-cudnn's loss, so that it needs no cuBLAS handle), the host
// runs the same pieces in the same order in sumInDeviceOrder(), so the tests check the device's
// arithmetic on the CPU (to rounding: the device compiler may fuse a square and its addition).
//
// Two passes of one kernel: pass 1 runs reduceBlocks(n) blocks of kReduceThreads threads; thread t
// of block b sums term(i) for i = b * kReduceThreads + t, then every kReduceThreads * blocks
// further (stridedSum), the block adds its threads' sums pairwise (treeStep, halving the width
// each round) and writes one partial sum. Pass 2 is one block over the partial sums (ValueTerm).
// No atomics: the order of additions is fixed, so the result is the same on every run.
#include "engine/kernels/host_device.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace rnnprof::kernels {

using Index = std::int64_t;

inline constexpr int kReduceThreads = 256;    // per block; a power of two (the tree halves it)
inline constexpr int kReduceMaxBlocks = 1024; // partial sums of pass 1, at most
// Device bytes of the partial sums a float reduction needs besides its result.
inline constexpr std::uint64_t kReducePartialsBytes = std::uint64_t(kReduceMaxBlocks) * sizeof(float);

// Blocks of pass 1 for n terms: one per kReduceThreads terms, at most kReduceMaxBlocks, at least 1.
[[nodiscard]] constexpr int reduceBlocks(Index n) {
    const Index blocks = (n + kReduceThreads - 1) / kReduceThreads;
    return int(std::clamp<Index>(blocks, 1, kReduceMaxBlocks));
}

// (y[i] - target[i])^2: the terms of the sum of squared errors, the MSE loss times N.
template <class T>
struct SquaredErrorTerm {
    const T* y;
    const T* target;
    RNNPROF_HD T operator()(Index i) const {
        const T d = y[i] - target[i];
        return d * d;
    }
};

// v[i]: pass 2 sums the partial sums of pass 1 with it.
template <class T>
struct ValueTerm {
    const T* v;
    RNNPROF_HD T operator()(Index i) const { return v[i]; }
};

// One thread's share: term(i) for i = first, first + stride, ... below n, added in that order.
template <class T, class F>
RNNPROF_HD T stridedSum(const F& term, Index n, Index first, Index stride) {
    T sum = T(0);
    for (Index i = first; i < n; i += stride)
        sum += term(i);
    return sum;
}

// One round of a block's pairwise tree: thread k < half adds the value `half` places above its own.
template <class T>
RNNPROF_HD void treeStep(T* values, Index k, Index half) {
    values[k] += values[k + half];
}

// One block's sum as the device computes it: thread sums of `first + t` (t < kReduceThreads) with
// the given stride, then the tree. Host only (the device runs the tree with a barrier per round).
template <class T, class F>
T blockSumInDeviceOrder(const F& term, Index n, Index first, Index stride) {
    std::vector<T> shared(kReduceThreads);
    for (Index t = 0; t < kReduceThreads; ++t)
        shared[std::size_t(t)] = stridedSum<T>(term, n, first + t, stride);
    for (Index half = kReduceThreads / 2; half > 0; half /= 2)
        for (Index k = 0; k < half; ++k)
            treeStep(shared.data(), k, half);
    return shared[0];
}

// The whole two-pass sum in the device's order of additions.
template <class T, class F>
T sumInDeviceOrder(const F& term, Index n) {
    const int blocks = reduceBlocks(n);
    const Index stride = Index(blocks) * kReduceThreads;
    std::vector<T> partials(static_cast<std::size_t>(blocks));
    for (int b = 0; b < blocks; ++b)
        partials[std::size_t(b)] = blockSumInDeviceOrder<T>(term, n, Index(b) * kReduceThreads, stride);
    return blockSumInDeviceOrder<T>(ValueTerm<T>{partials.data()}, Index(blocks), 0, kReduceThreads);
}

} // namespace rnnprof::kernels

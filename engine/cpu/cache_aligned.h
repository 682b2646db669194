#pragma once
// Floats whose first element starts a cache line. The threads of cpu-blas's step team write
// neighbouring column slices of the same rows (step_team.h); the slices are whole cache lines of
// the row only if the row starts one. malloc gives 16 bytes: measured on the 2-core machine
// (2026-11-24, medians of 3), GRU training at H=64, B=16, T=20 on two threads took 35 us a step
// with such buffers, its cell kernels 2-3 times as many samples as on one thread (false sharing at
// every slice boundary), and 22.8 with these (one thread: 18.9).
#include <cstddef>
#include <new>
#include <vector>

namespace rnnprof::cpu {

inline constexpr std::size_t kCacheLine = 64;

template <class T>
struct CacheLineAllocator {
    using value_type = T;
    CacheLineAllocator() = default;
    template <class U>
    explicit CacheLineAllocator(const CacheLineAllocator<U>&) noexcept {}
    [[nodiscard]] T* allocate(std::size_t n) {
        return static_cast<T*>(::operator new (n * sizeof(T), std::align_val_t{kCacheLine}));
    }
    void deallocate(T* p, std::size_t) noexcept { ::operator delete (p, std::align_val_t{kCacheLine}); }
    friend bool operator==(const CacheLineAllocator&, const CacheLineAllocator&) { return true; }
};

using AlignedFloats = std::vector<float, CacheLineAllocator<float>>;

} // namespace rnnprof::cpu

#pragma once
// Floats whose first element starts a cache line. The threads of cpu-blas's step team write
// neighbouring column slices of the same rows (step_team.h); the slices are whole cache lines of
// the row only if the row starts one. malloc gives 16 bytes: with such buffers the threads share a
// cache line at every slice boundary (false sharing), and GRU training at H=64, B=16 on two threads
// took 1.5x the step time it takes with these. See docs/cpu-blas.md.
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

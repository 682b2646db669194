#pragma once
// The barrier that ends each step of cpu-blas's step team (step_team.h). Not OpenMP's: the team
// may be only some of the threads of its parallel region (the others leave at once, see
// StepTeam::run), and OpenMP's barrier waits for all of them. A central counter with a generation
// number; the waiting threads spin (the team has a core per thread), then yield to whatever else
// the machine runs.
#include "engine/cpu/cache_aligned.h"

#include <atomic>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace rnnprof::cpu {

// One pause of a thread that spins on another's progress (TeamBarrier, StepsAhead).
inline void spinPause() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#endif
}
// The pauses a waiting thread spins through before it yields: about 50-100 us, longer than a
// step's imbalance, shorter than a scheduler's time slice.
inline constexpr int kSpinsBeforeYield = 2000;

class TeamBarrier {
public:
    // Returns once `count` threads called wait() for this generation; every caller passes the same
    // count. What a thread wrote before its wait() is visible to every thread after theirs.
    void wait(int count) noexcept {
        const unsigned generation = m_generation.load(std::memory_order_acquire);
        if (m_arrived.fetch_add(1, std::memory_order_acq_rel) == count - 1) {
            m_arrived.store(0, std::memory_order_relaxed);
            m_generation.fetch_add(1, std::memory_order_release);
            return;
        }
        for (int spins = 0; m_generation.load(std::memory_order_acquire) == generation;) {
            if (spins < kSpinsBeforeYield) {
                ++spins;
                spinPause();
            } else {
                std::this_thread::yield();
            }
        }
    }

private:
    alignas(kCacheLine) std::atomic<int> m_arrived{0};
    alignas(kCacheLine) std::atomic<unsigned> m_generation{0};
};

} // namespace rnnprof::cpu

#pragma once
// How far a thread that runs the input projection beside a one-thread recurrence
// (InputProjection::PackedAhead) has got: it publishes the steps whose projection is written, and the
// recurrence waits for each step's before it reads it. A failure of the projection or the end of
// the recurrence (done, stopped or failed) tells the other side to stop waiting or projecting.
#include "engine/cpu/cache_aligned.h"
#include "engine/cpu/team_barrier.h"

#include <atomic>
#include <cstdint>
#include <thread>

namespace rnnprof::cpu {

class StepsAhead {
public:
    // The projecting thread: steps [0, steps) are written (and visible to the waiting thread).
    void publish(std::int64_t steps) noexcept { m_ready.store(steps, std::memory_order_release); }
    // The projecting thread failed: no more steps come.
    void fail() noexcept { m_failed.store(true, std::memory_order_release); }
    // The recurrence ended: projecting more is wasted.
    void abandon() noexcept { m_abandoned.store(true, std::memory_order_relaxed); }
    [[nodiscard]] bool abandoned() const noexcept { return m_abandoned.load(std::memory_order_relaxed); }

    // The recurrence: it projected steps [0, steps) itself.
    void projectedFirst(std::int64_t steps) noexcept { m_seen = steps; }
    // The recurrence, before it reads step `steps - 1`: returns once steps [0, steps) are
    // published (true) or the projection failed short of them (false). Only one thread calls it.
    [[nodiscard]] bool waitFor(std::int64_t steps) noexcept {
        for (int spins = 0; m_seen < steps;) {
            m_seen = m_ready.load(std::memory_order_acquire);
            if (m_seen >= steps) break;
            // Steps published before a failure still count: the failure's release orders them
            // before it, so a load after seeing it sees them.
            if (m_failed.load(std::memory_order_acquire)) {
                m_seen = m_ready.load(std::memory_order_acquire);
                return m_seen >= steps;
            }
            if (spins < kSpinsBeforeYield) {
                ++spins;
                spinPause();
            } else {
                std::this_thread::yield();
            }
        }
        return true;
    }

private:
    alignas(kCacheLine) std::atomic<std::int64_t> m_ready{0};
    std::atomic<bool> m_failed{false};
    std::atomic<bool> m_abandoned{false};
    alignas(kCacheLine) std::int64_t m_seen = 0; // the waiting thread's last look at m_ready
};

} // namespace rnnprof::cpu

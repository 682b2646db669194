#pragma once
// The thread team of cpu-blas's recurrence. Each thread owns a contiguous slice of the hidden
// units for the whole sequence: it computes its slice's recurrent GEMM columns (single-threaded
// sgemm, its slice of W_hh staying in its core's cache) and runs the cell kernel on its units;
// one barrier per step makes the new state visible before the next step's GEMM. Compared with a
// multi-threaded GEMM per step this saves a fork/join per step, which dominates at small batch.
// With one thread the team is the calling thread and owns every unit.
#include "engine/cpu/gemm.h"

#include <cstdint>
#include <mutex>
#include <string>

namespace rnnprof::cpu {

struct UnitSlice {
    std::int64_t j0 = 0;
    std::int64_t j1 = 0;
    [[nodiscard]] std::int64_t width() const { return j1 - j0; }
};

// The slice of `units` owned by thread `index` of `count`: contiguous, 16-unit aligned (a cache
// line of floats), possibly empty for the last threads when `units` is small.
[[nodiscard]] UnitSlice unitSlice(std::int64_t units, int index, int count);

class StepTeam {
public:
    // Runs body(team) on `threads` threads; a GEMM failure inside is rethrown after all joined.
    template <class Body>
    static void run(GemmProvider provider, int threads, std::int64_t units, Body&& body);

    [[nodiscard]] const UnitSlice& slice() const { return m_slice; }
    [[nodiscard]] bool single() const { return m_threads == 1; }
    // A GEMM on this thread alone; never throws (a team thread must keep reaching the barriers):
    // the first failure is recorded and rethrown by run().
    void gemm(const GemmArgs& args) noexcept;
    // Waits for every thread of the team (no-op for a single thread).
    void barrier() const;

private:
    struct Shared {
        std::mutex mutex;
        std::string error;
    };
    StepTeam(GemmProvider provider, int threads, UnitSlice slice, Shared& shared)
        : m_provider(provider), m_threads(threads), m_slice(slice), m_shared(shared) {}
    static void rethrow(const Shared& shared);
    static int currentThread();
    static int currentTeamSize();
    static void singleThreadedGemms();

    GemmProvider m_provider;
    int m_threads;
    UnitSlice m_slice;
    Shared& m_shared;
};

template <class Body>
void StepTeam::run(GemmProvider provider, int threads, std::int64_t units, Body&& body) {
    Shared shared;
    if (threads <= 1) {
        StepTeam team(provider, 1, {0, units}, shared);
        body(team);
    } else {
#pragma omp parallel num_threads(threads)
        {
            singleThreadedGemms();
            const int n = currentTeamSize();
            StepTeam team(provider, n, unitSlice(units, currentThread(), n), shared);
            body(team);
        }
    }
    rethrow(shared);
}

} // namespace rnnprof::cpu

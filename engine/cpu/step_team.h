#pragma once
// The thread team of cpu-blas's recurrence. Each thread owns a contiguous slice of the hidden units for the
// whole sequence: it computes its slice's recurrent GEMM columns single-threaded (on its own packed copy of
// its slice of W_hh, else sgemm; either way the slice stays in its core's cache) and runs the cell kernel on
// its units; a barrier per step (team_barrier.h; two for reset-before GRU) publishes the new state before the
// next step's GEMM. This saves the fork/join per step of a multi-threaded GEMM, which dominates at small
// batch. A team of one is the calling thread. A team may split the batch rows instead
// (RecurrentThreads::rows): each thread owns every unit of its rows and reads no other thread's data;
// inference's threads share one packed copy of W_hh, training's each pack their own. How many threads:
// recurrent_threads.h.
#include "engine/cpu/gemm.h"
#include "engine/cpu/onednn_support.h"
#include "engine/cpu/packed_gemm.h"
#include "engine/cpu/recurrent_threads.h"
#include "engine/cpu/steps_ahead.h"
#include "engine/cpu/team_barrier.h"

#include "engine/stop_token.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <exception>
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

// Batch rows [b0, b1) of a team that splits the rows (RecurrentThreads::rows).
struct RowSlice {
    std::int64_t b0 = 0;
    std::int64_t b1 = 0;
    [[nodiscard]] std::int64_t count() const { return b1 - b0; }
};
// The rows of `batch` owned by thread `index` of `count`: contiguous, a multiple of 4 rows (the
// fused step's passes) where the batch allows, possibly empty for the last threads.
[[nodiscard]] RowSlice rowSlice(std::int64_t batch, int index, int count);

class StepTeam {
public:
    // Runs body(team) on `threads.team` threads (a team of one runs its GEMMs and loops on
    // `threads.singleTeam` threads), each owning a slice of the `units` and every one of the
    // `batch` rows, or, with threads.rows, every unit of a slice of the rows; a GEMM failure inside
    // is rethrown after all joined. Returns the step before which the body stopped for `stop` (see
    // stopBefore()), -1 when it did not.
    template <class Body>
    static int run(GemmProvider provider, RecurrentThreads threads, std::int64_t units, std::int64_t batch,
                   const StopToken* stop, Body&& body);

    // Runs body(team) on a team of one (single-threaded GEMMs, every unit and row) while beside() runs on a
    // second thread of the same OpenMP region (InputProjection::PackedAhead: beside() projects the input and
    // publishes its steps on `ahead`, which the body waits for); with one thread in the region, beside() runs
    // first. A failure of beside() is published on `ahead` (so the body stops waiting) and rethrown after
    // both ended, before one of the body's; the body's end is published too (so beside() may stop early).
    // Returns like run().
    template <class Body, class Beside>
    static int runBeside(GemmProvider provider, std::int64_t units, std::int64_t batch, const StopToken* stop,
                         StepsAhead& ahead, Body&& body, Beside&& beside);

    // Whether the team stops before its step `step` (0, 1, 2, ... in the order it runs them) because a stop
    // was requested. Call it on every thread at the start of each step, with a barrier in every step: thread
    // 0 alone reads the token and publishes "stop before my next step", which the step's barrier shows to
    // all, so all leave at the same step and no barrier waits for one that left. A team of one stops where it
    // sees the request; a team over the rows (no barrier) stops each thread at its first step after thread 0
    // published.
    [[nodiscard]] bool stopBefore(int step) noexcept;

    [[nodiscard]] const UnitSlice& slice() const { return m_slice; }
    [[nodiscard]] const RowSlice& rows() const { return m_rows; }
    [[nodiscard]] int index() const { return m_index; }
    [[nodiscard]] bool single() const { return m_threads == 1; }
    // Whether this thread runs every unit: a team of one, or a team that splits the rows.
    [[nodiscard]] bool wholeUnits() const { return m_threads == 1 || m_splitsRows; }
    [[nodiscard]] int size() const { return m_threads; }
    // Threads the element-wise loops of this team member may use.
    [[nodiscard]] int loopThreads() const { return m_loopThreads; }
    // A GEMM on this member's threads (one in a team of several, RecurrentThreads::singleTeam in a
    // team of one); never throws (a team thread must keep reaching the barriers):
    // the first failure is recorded and rethrown by run().
    void gemm(const GemmArgs& args) noexcept;
    // The same for a product on packed weights: c = a * W.
    void gemm(PackedGemm& packed, const float* a, float* c) noexcept;
    // Runs f() on this thread; like gemm(), an exception is recorded for run() to rethrow.
    template <class F>
    void guarded(F&& f) noexcept;
    // Waits for every thread of the team: a no-op for a single thread, and for a team over the
    // rows, whose threads read only what they wrote themselves in the recurrence.
    void barrier() const;

private:
    struct Shared {
        std::mutex mutex;
        std::string error;
        const StopToken* stop = nullptr;
        std::atomic<int> stopStep{INT_MAX}; // the step every thread stops before
        TeamBarrier barrier;
    };
    StepTeam(GemmProvider provider, int threads, int index, int loopThreads, UnitSlice slice, RowSlice rows,
             bool splitsRows, Shared& shared)
        : m_provider(provider), m_threads(threads), m_index(index), m_loopThreads(loopThreads),
          m_slice(slice), m_rows(rows), m_splitsRows(splitsRows), m_shared(shared) {}
    static void rethrow(const Shared& shared);
    // After a run: rethrows a recorded failure, else returns the step the team stopped before (-1:
    // none).
    static int ended(const Shared& shared);
    static int currentThread();
    static int currentTeamSize();
    static int poolWidth();
    static void singleThreadedGemms();

    GemmProvider m_provider;
    int m_threads;
    int m_index;
    int m_loopThreads;
    UnitSlice m_slice;
    RowSlice m_rows;
    bool m_splitsRows;
    Shared& m_shared;
};

template <class F>
void StepTeam::guarded(F&& f) noexcept {
    try {
        f();
    } catch (const std::exception& e) {
        const std::lock_guard lock(m_shared.mutex);
        if (m_shared.error.empty()) m_shared.error = e.what();
    }
}

template <class Body>
int StepTeam::run(GemmProvider provider, RecurrentThreads threads, std::int64_t units, std::int64_t batch,
                  const StopToken* stop, Body&& body) {
    Shared shared;
    shared.stop = stop;
    if (threads.team <= 1) {
        const OmpThreadCount gemmThreads(threads.singleTeam); // oneDNN's GEMMs follow OpenMP's count
        StepTeam team(provider, 1, 0, threads.singleTeam, {0, units}, {0, batch}, false, shared);
        body(team);
    } else {
        // The region spans OpenMP's whole pool and the threads beyond the team leave at once:
        // libgomp ends the surplus threads of a region narrower than the one before and starts
        // them again at the next wide one (the all-steps GEMMs). On the 16-core host that took
        // LSTM inference at H=256, B=1, T=20 (a team of 3) from 9.3 us a step to 107.
#pragma omp parallel num_threads(std::max(threads.team, poolWidth()))
        {
            const int n = std::min(threads.team, currentTeamSize());
            const int i = currentThread();
            if (i < n) {
                singleThreadedGemms();
                StepTeam team(provider, n, i, 1, threads.rows ? UnitSlice{0, units} : unitSlice(units, i, n),
                              threads.rows ? rowSlice(batch, i, n) : RowSlice{0, batch}, threads.rows,
                              shared);
                body(team);
            }
        }
    }
    return ended(shared);
}

template <class Body, class Beside>
int StepTeam::runBeside(GemmProvider provider, std::int64_t units, std::int64_t batch, const StopToken* stop,
                        StepsAhead& ahead, Body&& body, Beside&& beside) {
    Shared shared;
    shared.stop = stop;
    std::exception_ptr besideError;
    // The whole pool, as in run(): a narrower region would end the pool's other threads.
#pragma omp parallel num_threads(std::max(2, poolWidth()))
    {
        const int i = currentThread();
        if (i == 1 || (i == 0 && currentTeamSize() == 1)) {
            singleThreadedGemms();
            try {
                beside();
            } catch (...) {
                besideError = std::current_exception();
                ahead.fail();
            }
        }
        if (i == 0) {
            singleThreadedGemms();
            StepTeam team(provider, 1, 0, 1, {0, units}, {0, batch}, false, shared);
            team.guarded([&] { body(team); });
            ahead.abandon();
        }
    }
    if (besideError) std::rethrow_exception(besideError);
    return ended(shared);
}

} // namespace rnnprof::cpu

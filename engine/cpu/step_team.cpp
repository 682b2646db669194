#include "engine/cpu/step_team.h"

#include "engine/error.h"

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <string_view>

namespace rnnprof::cpu {

UnitSlice unitSlice(std::int64_t units, int index, int count) {
    const std::int64_t per = ((units + count - 1) / count + 15) / 16 * 16;
    const std::int64_t j0 = std::min(units, per * index);
    return {j0, std::min(units, j0 + per)};
}

RowSlice rowSlice(std::int64_t batch, int index, int count) {
    const std::int64_t per = rowShare(batch, count);
    const std::int64_t b0 = std::min(batch, per * index);
    return {b0, std::min(batch, b0 + per)};
}

RecurrentThreads recurrentThreads(double stepFlops, std::int64_t units, int threads, bool training) {
    const double perThread = training ? kMinTrainingStepFlopsPerThread : kMinStepFlopsPerThread;
    const int byWork = std::clamp(int(stepFlops / perThread), 1, std::max(threads, 1));
    const int fit = training && units < kMinTrainingTeamUnits
                        ? 1
                        : int(std::clamp<std::int64_t>(units / kMinTeamUnits, 1, byWork));
    // unitSlice() rounds a share up to 16 units, which can leave the last threads none (H=512 on
    // 10 threads: 8 slices of 64): those would only wait at the barrier.
    const std::int64_t share = unitSlice(units, 0, fit).width();
    const int byUnits = fit > 1 ? int((units + share - 1) / share) : 1;
    RecurrentThreads r;
    // A team when the units allow at least two and each gets a small share (kMaxTeamShareFlops), or, in
    // inference, when it can use every thread the work pays for. Else, with work for several threads and a
    // step large enough to split (kMinSplitStepFlops), oneDNN's GEMM splits the rows of the one product on
    // every thread (never on some: a narrower region ends the pool's surplus threads, and the next wide one
    // starts them again, step_team.h).
    const bool takesEveryThread = fit == byWork && !training;
    if (byUnits > 1 && (takesEveryThread || stepFlops / byUnits <= kMaxTeamShareFlops))
        r.team = byUnits;
    else if (byWork > 1 && stepFlops >= kMinSplitStepFlops)
        r.singleTeam = std::max(threads, 1);
    return r;
}

ForcedStepTeam parseForcedStepTeam(const char* value) {
    if (!value || !*value) return {};
    const std::string name = std::string("RNNPROF_STEP_TEAM=") + value;
    if (std::string_view(value) == "split") return {.team = -1, .note = "set by " + name};
    if (std::string_view(value) == "rows") return {.rows = true, .note = "set by " + name};
    char* end = nullptr;
    const long n = std::strtol(value, &end, 10);
    if (end == value || *end != '\0' || n < 1 || n > 4096)
        return {.note = name + " ignored: not \"split\", \"rows\" or a thread count from 1"};
    return {.team = int(n), .note = "set by " + name};
}

const ForcedStepTeam& forcedStepTeam() {
    static const ForcedStepTeam forced = parseForcedStepTeam(std::getenv("RNNPROF_STEP_TEAM"));
    return forced;
}

RecurrentThreads forcedStepThreads(RecurrentThreads rule, const ForcedStepTeam& forced, std::int64_t units,
                                   int threads) {
    if (forced.team == 0) return rule;
    if (forced.team < 0) return {.team = 1, .singleTeam = std::max(threads, 1)};
    const std::int64_t cap = std::clamp<std::int64_t>(units / kMinTeamUnits, 1, std::max(threads, 1));
    return {.team = int(std::min<std::int64_t>(forced.team, cap))};
}

void StepTeam::gemm(const GemmArgs& args) noexcept {
    guarded([&] { sgemm(m_provider, args); });
}

void StepTeam::gemm(PackedGemm& packed, const float* a, float* c) noexcept {
    guarded([&] { packed.run(a, c); });
}

bool StepTeam::stopBefore(int step) noexcept {
    if (!m_shared.stop) return false;
    if (m_shared.stopStep.load(std::memory_order_acquire) <= step) return true;
    if (m_index != 0 || !m_shared.stop->stopRequested()) return false;
    if (m_threads == 1) {
        m_shared.stopStep.store(step, std::memory_order_relaxed);
        return true;
    }
    // The others may be in this step already: all stop before the next one.
    m_shared.stopStep.store(step + 1, std::memory_order_release);
    return false;
}

void StepTeam::barrier() const {
    if (m_threads > 1 && !m_splitsRows) m_shared.barrier.wait(m_threads);
}

void StepTeam::rethrow(const Shared& shared) {
    if (!shared.error.empty()) throw Error(ErrorKind::BackendFailure, shared.error);
}

int StepTeam::ended(const Shared& shared) {
    rethrow(shared);
    const int stopped = shared.stopStep.load(std::memory_order_relaxed);
    return stopped == INT_MAX ? -1 : stopped;
}

int StepTeam::currentThread() {
    return omp_get_thread_num();
}
int StepTeam::currentTeamSize() {
    return omp_get_num_threads();
}
int StepTeam::poolWidth() {
    return omp_get_max_threads();
}
// Inside the team every GEMM runs on its own thread (the team is the parallelism).
void StepTeam::singleThreadedGemms() {
    omp_set_num_threads(1);
}

} // namespace rnnprof::cpu

#include "engine/cpu/step_team.h"

#include "engine/error.h"

#include <omp.h>

#include <algorithm>
#include <exception>

namespace rnnprof::cpu {

UnitSlice unitSlice(std::int64_t units, int index, int count) {
    const std::int64_t per = ((units + count - 1) / count + 15) / 16 * 16;
    const std::int64_t j0 = std::min(units, per * index);
    return {j0, std::min(units, j0 + per)};
}

void StepTeam::gemm(const GemmArgs& args) noexcept {
    try {
        sgemm(m_provider, args);
    } catch (const std::exception& e) {
        std::lock_guard lock(m_shared.mutex);
        if (m_shared.error.empty()) m_shared.error = e.what();
    }
}

void StepTeam::barrier() const {
    if (m_threads > 1) {
#pragma omp barrier
    }
}

void StepTeam::rethrow(const Shared& shared) {
    if (!shared.error.empty()) throw Error(ErrorKind::BackendFailure, shared.error);
}

int StepTeam::currentThread() {
    return omp_get_thread_num();
}
int StepTeam::currentTeamSize() {
    return omp_get_num_threads();
}
// Inside the team every GEMM runs on its own thread (the team is the parallelism).
void StepTeam::singleThreadedGemms() {
    omp_set_num_threads(1);
}

} // namespace rnnprof::cpu

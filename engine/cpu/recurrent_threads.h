#pragma once
// How many threads cpu-blas's recurrence uses for one step (its step team, engine/cpu/step_team.h).
// Plain arithmetic, so that tests check the rule without OpenMP.
#include <cstdint>

namespace rnnprof::cpu {

// How the recurrence of one step uses `threads` cores.
struct RecurrentThreads {
    int team = 1; // threads that split the units of every step (each with single-threaded GEMMs)
    int singleTeam =
        1; // with a team of one: the threads of its GEMMs and loops (1 or all; a fork/join per step)
};

// The threading model of a step whose recurrent products take `stepFlops` (2 * B * K * N summed
// over the step's GEMMs) on `units` hidden units. A thread pays for the barrier or fork/join that
// ends each step (about 1 us on 2 cores; 2-3 us on 16 is an estimate, not yet measured) only when
// it gets at least kMinStepFlopsPerThread of the step (a few microseconds of one core); a team
// member also needs 32 units (two cache lines of every weight row it streams). So a small step
// runs on fewer threads, down to one: the rule keeps the step from being slower than on one
// thread on any core count, rather than being tuned on one machine. Where units limit the team
// below what the work pays for, the team is as large as the units allow; below 64 units a team of
// one runs its GEMMs on every thread instead (never on some: libgomp would end and restart the
// rest of its pool around each such run). The all-steps
// GEMMs (input projection, weight gradients) are not covered: they run on every thread.
inline constexpr double kMinStepFlopsPerThread = 1.5e5;
[[nodiscard]] RecurrentThreads recurrentThreads(double stepFlops, std::int64_t units, int threads);

} // namespace rnnprof::cpu

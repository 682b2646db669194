#pragma once
// How many threads cpu-blas's recurrence uses for one step (its step team, engine/cpu/step_team.h).
// Plain arithmetic, so that tests check the rule without OpenMP.
#include <cstdint>
#include <string>

namespace rnnprof::cpu {

// How the recurrence of one step uses `threads` cores.
struct RecurrentThreads {
    int team = 1; // threads that split every step (each with single-threaded GEMMs): its units, or rows
    // With a team of one: the threads of its GEMMs and loops, 1 or all (a fork/join per step).
    int singleTeam = 1;
    // The team splits the batch rows instead (rowTeamThreads()): each thread runs every unit of its
    // rows. Inference's fused step and training of a small layer run on such a team.
    bool rows = false;
};

// The threading model of a step whose recurrent products take `stepFlops` (2 * B * K * N summed
// over the step's GEMMs) on `units` hidden units. A thread pays for the barrier or fork/join that
// ends each step only when it gets at least kMinStepFlopsPerThread of the step (training, whose
// step waits at a barrier in the forward and twice in the backward pass:
// kMinTrainingStepFlopsPerThread); a team member also needs kMinTeamUnits units (a cache line of
// every weight row it streams). So a small step runs on fewer threads, down to one: the rule keeps
// the step from being slower than on one thread on any core count, rather than being tuned on one
// machine. A team takes every thread the work pays for in inference; where units limit it below
// that, and in training always, the team is as large as the units allow if that leaves each thread
// at most kMaxTeamShareFlops; else (and in training below kMinTrainingTeamUnits) a team of one runs
// its GEMMs on every thread from kMinSplitStepFlops a step on (never on some: libgomp would end and
// restart the rest of its pool around each such run). The all-steps GEMMs (input projection,
// weight and input gradients) are not covered: allStepsGemmThreads() below gives theirs.
// kMinStepFlopsPerThread lies where a team of two stops beating one thread on two cores (faster at
// 131 kFLOP a step, not at 98); on 16 cores at batch 1 (H=256 and 512) the teams it gives were among
// the fastest of 2 to 16 threads. See docs/cpu-blas.md.
inline constexpr double kMinStepFlopsPerThread = 6.5e4;
// Training's bound is higher: its step waits at three barriers (unmeasured below it on 16 cores).
inline constexpr double kMinTrainingStepFlopsPerThread = 1.5e5;
// 16 units a member: on 16 cores a team of 16 at H=256, B=64 took 0.8-0.9x the time of a team of 8
// or of a team of one. See docs/cpu-blas.md.
inline constexpr std::int64_t kMinTeamUnits = 16;
// kMaxTeamShareFlops: on 16 cores a team over the units beat a team of one on every GEMM thread up
// to about 1 MFLOP a thread, mostly still at 2.1, and lost from about 4 MFLOP on. Training keeps to
// that bound even where a team could take every thread: on two cores a team of one on both GEMM
// threads took 0.94-0.96x the team of two's time there, while inference was 1.0-1.4x slower on it.
// See docs/cpu-blas.md.
inline constexpr double kMaxTeamShareFlops = 3e6;
// A team of one splits its step's GEMMs over every thread only from kMinSplitStepFlops a step:
// oneDNN's split of one small product (a fork/join, and each thread's rows of the result read
// by the next step's other thread) costs more than kMinStepFlopsPerThread of a team's barrier.
// At 0.4-0.5 MFLOP a step (training H=64 B=16, two cores) the split took 1.1x the time of steps on
// one thread; at 1.6-2.1 MFLOP it was the faster. See docs/cpu-blas.md.
inline constexpr double kMinSplitStepFlops = 1e6;
// Training forms a team only from kMinTrainingTeamUnits hidden units on: its backward step
// exchanges every unit's gate gradients between the team's threads, and the team waits at a
// barrier in the forward and in the backward step, which a small layer does not pay for: at H=64 a
// team of one with its GEMMs on every thread took 0.78-0.93x a team of two's time (on 16 cores
// 0.7-0.9x); at H=128 the two were within 7 %. See docs/cpu-blas.md.
inline constexpr std::int64_t kMinTrainingTeamUnits = 128;
[[nodiscard]] RecurrentThreads recurrentThreads(double stepFlops, std::int64_t units, int threads,
                                                bool training);

// RNNPROF_STEP_TEAM, for measuring the rule above on a new host (not for everyday use): "split" (a team
// of one whose GEMMs run on every thread) or a number N >= 1 (a team of N threads over the units, at
// most `threads` and one per kMinTeamUnits units; 1: one thread) replaces the rule's choice, and the
// session's notes say so; "rows" lets training split the batch rows at any hidden size (the plan's
// trainingRowTeam() without its L2 bound). Unset or empty: the rule; anything else: the rule, and a
// note that says why.
struct ForcedStepTeam {
    int team = 0;      // 0: the rule; -1: a team of one on every thread; else a team of this many
    bool rows = false; // "rows": training's team over the rows wherever the rows and work allow one
    std::string note;  // "set by RNNPROF_STEP_TEAM=8", or why the value was ignored; empty when unset
};
[[nodiscard]] ForcedStepTeam parseForcedStepTeam(const char* value);
[[nodiscard]] const ForcedStepTeam& forcedStepTeam(); // this process's, read once
[[nodiscard]] RecurrentThreads forcedStepThreads(RecurrentThreads rule, const ForcedStepTeam& forced,
                                                 std::int64_t units, int threads);

// The threads of a team that splits the batch rows of a step of `stepFlops` (rows = true above): as
// many as get kMinTeamRows rows and kMinStepFlopsPerThread (training: kMinTrainingStepFlopsPerThread)
// of the step each, 1 where that is one; never a member that rowSlice()'s 4-row rounding leaves
// without rows (B=36 on 4 threads: 12 + 12 + 12, so 3).
// A row of an inference step depends on nothing but its own row of the step before, so each thread
// reads only the state it wrote itself, and needs no unit count: the session takes it for the
// fused step where the units allow no larger team (blas_plan.cpp), so that a small layer at a
// large batch does not run on one thread or on a GEMM split every step: on two cores at H=32 and 48
// the rows took 0.55-0.75x the time of either. Where units and rows both give a team of two (H=64)
// the rows were as fast or 8-20 % faster, so a tie goes to the rows. See docs/cpu-blas.md.
inline constexpr std::int64_t kMinTeamRows = 8;
// The rows of each thread but the last of a team of `count` that splits `batch` rows (rowSlice()):
// a multiple of 4 (the fused step's passes) where the batch allows.
[[nodiscard]] inline std::int64_t rowShare(std::int64_t batch, int count) {
    return ((batch + count - 1) / count + 3) / 4 * 4;
}
[[nodiscard]] inline int rowTeamThreads(double stepFlops, std::int64_t batch, int threads, bool training) {
    const double byWork = stepFlops / (training ? kMinTrainingStepFlopsPerThread : kMinStepFlopsPerThread);
    const double byRows = double(batch / kMinTeamRows);
    const double fit = byWork < byRows ? byWork : byRows;
    const int n = fit < 1 ? 1 : fit > threads ? threads : int(fit);
    const std::int64_t per = rowShare(batch, n);
    return int((batch + per - 1) / per);
}

// The threads of one GEMM over all steps: all of them, or one for a GEMM too small to pay for
// oneDNN's split (never some: step_team.h). The one function that decides them, by two bounds:
// - Training's GEMMs (input projection, weight and input gradients), kMinAllStepsGemmFlops: at
//   0.3-1.3 MFLOP (training H=64 B=1) two threads took 1.2-1.3x the time of one; a bound of 8 MFLOP
//   changed nothing beyond the noise, 32 MFLOP made several points 5-20 % slower.
// - Inference's input projection, kMinInputProjectionGemmFlops: the iteration's only fork before a
//   recurrence that runs without one (training's several small GEMMs between serial phases still
//   lose with it: LSTM H=64, B=1, T=20, two threads, 1.3x the time). At batch 1 and H=32-64
//   (0.66-1.3 MFLOP) LSTM inference on two threads took 0.8-0.86x its time under the training
//   bound, GRU the same. Unmeasured on more cores.
// See docs/cpu-blas.md.
enum class AllStepsGemm { Training, InferenceInput };
inline constexpr double kMinAllStepsGemmFlops = 2e6;
inline constexpr double kMinInputProjectionGemmFlops = 0.5e6;
// The FLOPs of the product of an [m, k] and a [k, n] matrix.
[[nodiscard]] inline double productFlops(std::int64_t m, std::int64_t n, std::int64_t k) {
    return 2.0 * double(m) * double(n) * double(k);
}
// For the product of an [m, k] and a [k, n] matrix.
[[nodiscard]] inline int allStepsGemmThreads(AllStepsGemm gemm, std::int64_t m, std::int64_t n,
                                             std::int64_t k, int threads) {
    const double bound =
        gemm == AllStepsGemm::Training ? kMinAllStepsGemmFlops : kMinInputProjectionGemmFlops;
    return productFlops(m, n, k) < bound ? 1 : threads;
}

} // namespace rnnprof::cpu

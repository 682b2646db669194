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

// The threads of a step whose recurrent products take `stepFlops` (2 * B * K * N over its GEMMs) on `units`
// units: each thread needs kMinStepFlopsPerThread of the step (training: kMinTrainingStepFlopsPerThread) and
// kMinTeamUnits units, so that no step runs slower than on one thread. A team takes every thread the work
// pays for in inference, else as many as the units allow within kMaxTeamShareFlops each; otherwise a team of
// one splits its GEMMs over every thread (never some) from kMinSplitStepFlops on. See docs/cpu-blas.md.
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

// RNNPROF_STEP_TEAM, for measuring the rule above on a new host: "split" (a team of one whose GEMMs run on
// every thread) or a number N >= 1 (a team of N over the units, at most `threads` and one per kMinTeamUnits
// units; 1: one thread) replaces the rule's choice, and the notes say so; "rows" lets training split the
// batch rows at any hidden size (trainingRowTeam() without its L2 bound). Unset or empty: the rule; anything
// else: the rule, and a note that says why.
struct ForcedStepTeam {
    int team = 0;      // 0: the rule; -1: a team of one on every thread; else a team of this many
    bool rows = false; // "rows": training's team over the rows wherever the rows and work allow one
    std::string note;  // "set by RNNPROF_STEP_TEAM=8", or why the value was ignored; empty when unset
};
[[nodiscard]] ForcedStepTeam parseForcedStepTeam(const char* value);
[[nodiscard]] const ForcedStepTeam& forcedStepTeam(); // this process's, read once
[[nodiscard]] RecurrentThreads forcedStepThreads(RecurrentThreads rule, const ForcedStepTeam& forced,
                                                 std::int64_t units, int threads);

// The threads of a team that splits the batch rows of a step of `stepFlops` (rows = true above): as many as
// get kMinTeamRows rows and kMinStepFlopsPerThread (training: kMinTrainingStepFlopsPerThread) of the step
// each, 1 where that is one; never a member that rowSlice()'s 4-row rounding leaves without rows (B=36 on 4
// threads: 12 + 12 + 12, so 3). Each thread reads only the state it wrote, so it needs no unit count; the
// session takes it where the units allow no larger team, a tie going to the rows (blas_plan.cpp). See
// docs/cpu-blas.md.
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

// The threads of one GEMM over all steps: all of them, or one for a GEMM too small to pay for oneDNN's split
// (never some: step_team.h). The one function that decides them, by two bounds: training's GEMMs (input
// projection, weight and input gradients) split from kMinAllStepsGemmFlops; inference's input projection, the
// only fork before a recurrence that runs without one, from the smaller kMinInputProjectionGemmFlops
// (training's small GEMMs between serial phases still lose at that size). See docs/cpu-blas.md.
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

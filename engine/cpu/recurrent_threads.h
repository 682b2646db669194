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
// Measured on both hosts (inference, `rnnprof sweep`, RNNPROF_STEP_TEAM, us a step): on the 2-core
// Xeon (2026-11-27, three alternations) a team of two against one thread at 131 kFLOP a step (LSTM
// H=64 B=4: 2.16-2.28 against 2.53-2.73; LSTM H=128 B=1: 1.99-2.02 against 2.55-2.62) and at 98
// kFLOP (GRU H=64 B=4 T=100: 1.57-2.02 against 1.53-1.70; GRU H=128 B=1: 1.92-2.17 against
// 1.94-2.03); on the 16-core Xeon beside the H200 (2026-11-27, one pass, B=1, T=100) teams of 2, 4,
// 8, 12 and 16 threads: LSTM H=256 7.0, 4.2, 3.0, 3.1, 3.7 (the old rule's team of 3: 5.7), GRU
// H=256 4.4, 3.3, 2.5, 2.6, 3.3 (team of 2: 5.6), LSTM H=512 44, 16.2, 10.4, 6.5, 6.4 (team of
// 13: 8.8), GRU H=512 18.4, 11.2, 7.5, 6.4, 5.3 (team of 10: 8.1); cpu-onednn 9.6, 7.6, 15.2 and 12.5. At
// H=1024, where both rules give a team of 16, two runs of that same plan took 27.3 and 19.1 us (the
// pass's noise; cpu-onednn 68.4).
inline constexpr double kMinStepFlopsPerThread = 6.5e4;
// Training's bound stays the one measured on the 2-core machine (2026-11-24) for every step: its
// step waits at three barriers, and the 16-core pass above measured no training step below it.
inline constexpr double kMinTrainingStepFlopsPerThread = 1.5e5;
// 16 units a member (32 before 2026-11-27): on the 16-core host a team of 16 at H=256 beat both the
// team of 8 and a team of one (below: training B=64 0.83 against 1.05 and 1.02, inference B=64 0.82
// and 0.86 against 0.93 and 1.10 for the team of one).
inline constexpr std::int64_t kMinTeamUnits = 16;
// Measured on the 16-core host (2026-11-24, cpu-blas / cpu-onednn, all 16 threads, a team of as
// many threads as 32 units each allowed against a team of one on 16 GEMM threads): the team was
// faster at up to 1.05 MFLOP a thread (H=256 at B=4 and 16: 0.37-1.16 against 0.85-1.92; H=64 at
// B=16 and 64, but for training at B=64: 1.17-1.50 against 1.03-1.34) and slower from 4.2 MFLOP
// (H=256 at B=64 and 256, H=64 at B=256: 1.07-3.24 against 0.73-1.22). Between the two, at 2.1
// MFLOP a thread (2026-11-27, one pass, cpu-blas / cpu-onednn, T=20), a team of 16 against a team
// of one on 16 GEMM threads: LSTM training H=1024 B=4 0.73 against 1.10, H=512 B=16 1.07 against
// 1.30, H=256 B=64 (16 units each) 0.83 against 1.02; inference H=256 B=64, LSTM 0.82 against 0.93,
// GRU 0.86 against 1.10; at 6.3 MFLOP (GRU training H=256 B=256) 1.22 against 1.04.
// Training keeps to that bound even where a team could take every thread: on the 2-core machine
// (2026-11-24, medians of 3, 2 threads) a team of one on two GEMM threads took 0.94x the team of
// two's time (geometric mean; 0.84-1.06 over three runs) at H=256-1024, B=64 and 256, T=20 (LSTM
// H=256 B=256: 43.9-45.0 against 48.2-49.9 ms), and 0.96x (0.81-1.11 over two runs) at B=4 and 16
// from 4 MFLOP a thread, T=20 and 100; inference there was 1.0-1.4x slower on a team of one (LSTM
// H=256 B=16: 1.09-1.14 against 0.78-0.87 ms).
inline constexpr double kMaxTeamShareFlops = 3e6;
// A team of one splits its step's GEMMs over every thread only from kMinSplitStepFlops a step:
// oneDNN's split of one small product (a fork/join, and each thread's rows of the result read
// by the next step's other thread) costs more than kMinStepFlopsPerThread of a team's barrier.
// Measured on the 2-core machine (2026-11-24, rnn_backends_bench, medians of 5, two runs, time on
// 2 threads / time on 1): training at H=64 (no team), B=16, whose steps are 393 kFLOP (GRU) and
// 524 kFLOP (LSTM): with the split 1.03-1.09 (GRU) and 0.92-0.99 (LSTM), with one thread for the
// steps 0.92-1.01 and 0.80-0.89; at B=64 (1.6 and 2.1 MFLOP) the split was the faster of the two
// (GRU 69-76 against 71-81 us a step, LSTM 77-87 against 87-90).
inline constexpr double kMinSplitStepFlops = 1e6;
// Training forms a team only from kMinTrainingTeamUnits hidden units on: its backward step
// exchanges every unit's gate gradients between the team's threads, and the team waits at a
// barrier in the forward and in the backward step, which a small layer does not pay for. Measured on the
// 2-core machine (2026-11-24, medians of 3, 2 threads, H=64): a team of one with its GEMMs on both threads
// took 0.78-0.93x the team of two's time at B=16-256 (e.g. LSTM B=256 T=20: 279 against 359 us a step; the
// one exception LSTM B=16 T=100, 1.06x), the same at B=4; at H=128 the two were within 7 %; on the 16-core
// host at H=64, B=64 the team of two took 1.1-1.5x a team of one on 16 GEMM threads.
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
// large batch no longer runs on one thread or on a GEMM split every step. Measured on the
// 2-core AMD EPYC (Zen 4) machine (2026-11-24, rnnprof sweep, inference, I=128, T=100, 2 threads,
// medians): LSTM H=32 B=64 1.47-1.60 ms against 1.92-2.19 (the fused step on one thread; three
// runs of 150), B=256 6.7-9.4 against 14.2-14.4 (oneDNN's GEMM split every step); H=48 B=64 LSTM
// 2.6-3.3 against 3.2-5.6, GRU 1.7-1.9 against 2.7-2.8 (two runs of 30). At H=64, where units and
// rows both give a team of two, the two splits measured the same there (rnn_backends_bench,
// B=16-256, two runs each, within the runs' spread), and the rows 8-20 % faster on the 2-core Xeon
// (blas_plan.cpp), so a tie goes to the rows.
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

// The threads of one all-steps GEMM of `flops` (input projection, weight and input gradients): all
// of them, or one for a GEMM too small to pay for oneDNN's split (never some: step_team.h).
// Measured on the 2-core machine (2026-11-24, medians of 3): training at H=64, B=1, T=20, whose
// all-steps GEMMs are 0.3-1.3 MFLOP, took 3.2-3.8 us a step with them on two threads and 2.5-3.2
// on one; raising the bound to 8 MFLOP changed no point of H in {64, 256}, B in {1, 4} beyond the
// noise, 32 MFLOP made several 5-20 % slower.
inline constexpr double kMinAllStepsGemmFlops = 2e6;
[[nodiscard]] inline int allStepsGemmThreads(double flops, int threads) {
    return flops < kMinAllStepsGemmFlops ? 1 : threads;
}
// The FLOPs of the product of an [m, k] and a [k, n] matrix.
[[nodiscard]] inline double productFlops(std::int64_t m, std::int64_t n, std::int64_t k) {
    return 2.0 * double(m) * double(n) * double(k);
}
// allStepsGemmThreads() for the product of an [m, k] and a [k, n] matrix.
[[nodiscard]] inline int allStepsGemmThreads(std::int64_t m, std::int64_t n, std::int64_t k, int threads) {
    return allStepsGemmThreads(productFlops(m, n, k), threads);
}

// Inference's input projection of all steps (on W_ih packed once, RecurrentPlan::inputPacked) splits
// from a smaller GEMM on: it is the iteration's only fork before a recurrence that runs without
// one, where the bound above was measured on training's several small GEMMs between serial phases
// (which still lose with this one: LSTM H=64, B=1, T=20, two threads, every all-steps GEMM of at
// least 0.25 MFLOP split: 5.1-5.3 -> 6.9-7.0 us a step). Measured on the 2-core Zen 4 VM
// (2026-11-28, rnnprof sweep, inference, I=128, B=1, T=20, two threads, medians of 400 runs, the
// bound at 2 and at 0.2 MFLOP alternated twice, us a step): LSTM H=64 (1.3 MFLOP) 1.25 -> 1.04, H=48
// (0.98 MFLOP) 0.91-0.97 -> 0.75-0.76, H=32 (0.66 MFLOP) 0.61-0.96 -> 0.57-0.78; GRU at H = 32, 48
// and 64 (0.49-0.98 MFLOP) the same (e.g. H=64 1.05 -> 1.03-1.05). Unmeasured on more cores.
inline constexpr double kMinInputProjectionGemmFlops = 0.5e6;
[[nodiscard]] inline int inputProjectionGemmThreads(std::int64_t m, std::int64_t n, std::int64_t k,
                                                    int threads) {
    return productFlops(m, n, k) < kMinInputProjectionGemmFlops ? 1 : threads;
}

} // namespace rnnprof::cpu

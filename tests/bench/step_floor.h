#pragma once
// The floor of a batch-1 inference step, for rnn_backends_bench: the time to stream W_hh once from
// cache, as a GEMV on a matrix of W_hh's shape ([gates * H, H]) takes it, measured in the same run
// as the step it is compared with (the machine is shared and noisy: ratios only mean something
// within one run, and the paired benchmark measures it between its blocks of runs).
#include <memory>

namespace rnnprof::bench {

// The faster of OpenBLAS sgemv and oneDNN's packed matmul on W_hh's shape, at `threads` threads or
// on one thread, whichever is faster: a run on several threads may keep a step that small on one,
// and a GEMV of H=64's 64 KB on two threads is mostly its fork (its best of 200 took 0.86 us in one
// run and 1.46 in the next on the 2-core Zen 4 VM; one thread 0.73-0.88).
class StepFloor {
public:
    StepFloor(int gates, int hidden, int threads);
    ~StepFloor();
    StepFloor(const StepFloor&) = delete;
    StepFloor& operator=(const StepFloor&) = delete;

    // The best of `calls` GEMVs of each kind (after one warm-up call each), timed now. Leaves the
    // OpenMP and OpenBLAS thread counts as it found them.
    [[nodiscard]] double seconds(int calls);

private:
    class Gemv;
    std::unique_ptr<Gemv> m_atThreads, m_oneThread; // m_oneThread only where threads > 1
};

// StepFloor(gates, hidden, threads).seconds(200), measured at its first use and cached per
// (gates, hidden, threads): the floor of the benchmarks that time one backend alone.
double stepFloorSeconds(int gates, int hidden, int threads);

// What a batch-1 step's share of the input projection (x_t * W_ih^T, 2 * input * gates * H FLOPs)
// takes at least: those FLOPs at oneDNN's SGEMM peak at `threads` threads in this run. The floor
// streams W_hh only; at I=128, H=64 the input projection is twice the recurrent FLOPs, so no step
// comes near the floor there, and step / (floor + this) says how near it comes to both.
double inputProjectionBoundSeconds(int input, int gates, int hidden, int threads);

} // namespace rnnprof::bench

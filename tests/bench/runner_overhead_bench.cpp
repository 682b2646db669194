// The sweep runner's own cost per measured iteration: the same session run in a bare loop and in
// the runner's measured-iteration body (timedRun with the phase timer as hook). Run:
//   build/tests/bench/runner_overhead_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// The difference of the two medians is the overhead (goal: < 1 % or < 5 us per iteration).
#include "engine/backend.h"
#include "profiling/measure/phase_timer.h"

#include <benchmark/benchmark.h>

namespace rnnprof {
namespace {

std::unique_ptr<Session> makeSession(int hidden, int batch, int seq, Mode mode) {
    Problem p;
    p.config.inputSize = hidden;
    p.config.hiddenSize = hidden;
    p.shape = {batch, seq};
    p.mode = mode;
    p.options.threads = 1;
    return builtinBackends().find("cpu-blas")->prepare(p);
}

void bareLoop(benchmark::State& state) {
    auto session = makeSession(int(state.range(0)), 1, int(state.range(1)), Mode(state.range(2)));
    NullPhaseHook hook;
    for (auto _ : state)
        session->run(hook);
}

void runnerLoop(benchmark::State& state) {
    auto session = makeSession(int(state.range(0)), 1, int(state.range(1)), Mode(state.range(2)));
    PhaseTimer timer;
    FanOutHook hook({&timer});
    std::vector<double> samples;
    for (auto _ : state) {
        samples.push_back(timedRun(*session, timer, hook));
        if (timer.iterations() >= 10000) { // bounded memory, as the runner's max repeats bound it
            state.PauseTiming();
            timer = PhaseTimer();
            samples.clear();
            state.ResumeTiming();
        }
    }
    benchmark::DoNotOptimize(samples.data());
}

// (hidden, seq, mode): a tiny model (iterations of a few microseconds, where overhead shows most)
// and a small realistic one.
void shapes(benchmark::internal::Benchmark* b) {
    b->Args({16, 4, int(Mode::Inference)})->Args({16, 4, int(Mode::Training)});
    b->Args({128, 20, int(Mode::Inference)})->Args({128, 20, int(Mode::Training)});
    b->Unit(benchmark::kMicrosecond);
}

BENCHMARK(bareLoop)->Apply(shapes);
BENCHMARK(runnerLoop)->Apply(shapes);

} // namespace
} // namespace rnnprof

BENCHMARK_MAIN();

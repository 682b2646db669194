// CPU backends on the benchmark grid: LSTM and GRU, inference and training, input 128, hidden
// {64, 256, 512, 1024}, batch {1, 4, 16, 64, 256}, seq {20, 100}, threads {1, 2, all}, for
// cpu-blas (oneDNN and OpenBLAS sgemm) and cpu-onednn. Names read
//   <cell>/<mode>/H<hidden>/B<batch>/T<seq>/thr<1|2|all>/<backend>
// (thr2 only where "all" is more than 2 cores, thr1 only where it is more than 1). Reports per
// iteration and per step, GFLOP/s, the fraction of the SGEMM peak measured in the same run, and at
// batch 1 the floor of a step: the best time to stream W_hh once (step_floor.h), with step time / floor and,
// where the session projects the input of all steps apart ("input GEMM"), the recurrence alone ("recurrent
// steps") over the floor: the floor streams W_hh only, while a step also carries its share of the input
// projection (at I=128, H=256 half the recurrent FLOPs), which that splits out; and step time / (floor + the
// input projection's FLOPs at the in-run SGEMM peak at the same thread count), a bound that holds the step's
// whole work. Each point also has a paired benchmark, <...>/thr<n>/paired, that times cpu-blas[onednn] and
// cpu-onednn in alternating blocks of runs within one benchmark, so that both see the same machine:
// on a shared, noisy machine the ratio of two benchmarks run minutes apart moved by up to 1.4x
// from run to run. Its counters: each backend's median time per step, the spread of its runs and
// their ratio, and at batch-1 inference cpu-blas's step over a floor measured between its blocks.
// scripts/bench-table.py turns --benchmark_out JSON into tables, with cpu-blas / cpu-onednn per point
// (from the paired benchmark where the file has it).
//   rnn_backends_bench --benchmark_filter='thrall/(paired|cpu-blas.onednn)' --benchmark_out=x.json
#include "sgemm_peak.h"
#include "step_floor.h"

#include "engine/backend.h"
#include "engine/config.h"
#include "engine/cpu/cpu_libraries.h"
#include "engine/cpu/kernel_runner.h"
#include "profiling/analysis/flops.h"
#include "profiling/measure/host_info.h"
#include "profiling/measure/phase_timer.h"
#include "profiling/measure/statistics.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace rnnprof::bench {
namespace {

constexpr int kInput = 128;

struct Case {
    std::string backend;
    GemmProvider gemm;
    CellType cell;
    Mode mode;
    int hidden, batch, seq, threads;
    std::string threadsName; // "1", "2" or "all"
};

std::string caseName(const Case& c) {
    std::string backend = c.backend;
    if (c.backend == "cpu-blas") backend += c.gemm == GemmProvider::OneDnn ? "[onednn]" : "[openblas]";
    return std::string(toString(c.cell)) + "/" + std::string(toString(c.mode)) + "/H" +
           std::to_string(c.hidden) + "/B" + std::to_string(c.batch) + "/T" + std::to_string(c.seq) + "/thr" +
           c.threadsName + "/" + backend;
}

Problem problemOf(const Case& c) {
    Problem p;
    p.config.cell = c.cell;
    p.config.inputSize = kInput;
    p.config.hiddenSize = c.hidden;
    p.shape = {c.batch, c.seq};
    p.mode = c.mode;
    p.options.gemm = c.gemm;
    p.options.threads = c.threads;
    return p;
}

// The case's session, prepared and run once (warm-up); null after SkipWithError where it cannot run.
std::unique_ptr<Session> warmSession(benchmark::State& state, const Case& c) {
    const Problem p = problemOf(c);
    const Backend* backend = builtinBackends().find(c.backend);
    if (!backend) {
        state.SkipWithError(("backend not registered: " + c.backend).c_str());
        return nullptr;
    }
    if (const auto why = backend->unsupportedReasons(p.config, p.mode); !why.empty()) {
        state.SkipWithError(why.front().c_str());
        return nullptr;
    }
    std::unique_ptr<Session> session = backend->prepare(p);
    NullPhaseHook hook;
    session->run(hook);
    return session;
}

double secondsOfRun(Session& session) {
    NullPhaseHook hook;
    const auto start = std::chrono::steady_clock::now();
    session.run(hook);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Median milliseconds per iteration of the sub-step `name` (NaN where the session never marked it).
double stepMedianMs(const PhaseTimer& timer, std::string_view name) {
    for (const StepStat& s : timer.stepStats())
        if (s.name == name) return s.medianMs;
    return std::numeric_limits<double>::quiet_NaN();
}

// Runs of `session` timed with their sub-steps (kSubStepSeconds of them, at least kSubStepRuns), apart
// from the benchmark's own runs, whose time stays free of the timer's few clock reads and records.
constexpr double kSubStepSeconds = 0.2;
constexpr int kSubStepRuns = 5;
PhaseTimer timedSubSteps(Session& session) {
    PhaseTimer timer;
    double ms = 0.0;
    for (int i = 0; i < kSubStepRuns || ms < kSubStepSeconds * 1e3; ++i)
        ms += timedRun(session, timer, timer);
    return timer;
}

void runCase(benchmark::State& state, const Case& c) {
    const Problem p = problemOf(c);
    std::unique_ptr<Session> session = warmSession(state, c);
    if (!session) return;
    double seconds = 0.0;
    for (auto _ : state) {
        const double s = secondsOfRun(*session);
        state.SetIterationTime(s);
        seconds += s;
    }
    const double perIteration = seconds / double(state.iterations());
    const double flops = double(iterationFlops(p.config, p.shape, p.mode));
    const double gflops = flops / perIteration / 1e9;
    const SgemmPeak& peak = sgemmPeak();
    const double perStep = perIteration / c.seq;
    state.counters["us_per_step"] = perStep * 1e6;
    state.counters["GFLOP/s"] = gflops;
    state.counters["peak_onednn"] = gflops / peak.onednnGflops;
    state.counters["peak_openblas"] = gflops / peak.openblasGflops;
    state.counters["threads"] = c.threads;
    if (c.batch == 1 && c.mode == Mode::Inference) {
        const int gates = gateCount(c.cell);
        const double floor = stepFloorSeconds(gates, c.hidden, c.threads);
        state.counters["floor_us"] = floor * 1e6;
        state.counters["step_over_floor"] = perStep / floor;
        const double inputBound = inputProjectionBoundSeconds(kInput, gates, c.hidden, c.threads);
        state.counters["input_bound_us"] = inputBound * 1e6;
        state.counters["step_over_floor_and_input"] = perStep / (floor + inputBound);
        const PhaseTimer timer = timedSubSteps(*session);
        const double inputMs = stepMedianMs(timer, kInputGemmStep);
        const double recurrenceMs = stepMedianMs(timer, kRecurrentStepsStep);
        if (!std::isnan(inputMs) && !std::isnan(recurrenceMs)) {
            state.counters["input_us_per_step"] = inputMs * 1e3 / c.seq;
            state.counters["recurrence_over_floor"] = recurrenceMs / 1e3 / c.seq / floor;
        }
    }
}

// A block of runs of one backend takes at least this long (a run at least once), and the paired
// benchmark times at least kPairedBlocks blocks of each backend and at least kPairedSeconds in all.
constexpr double kPairedBlockSeconds = 0.025;
constexpr int kPairedBlocks = 5;
constexpr double kPairedSeconds = 1.0;
// At batch-1 inference, the floor after each pair of blocks: the best of as many GEMVs of each kind
// (StepFloor) as take about kFloorBlockSeconds, at least kFloorMinCalls and at most kFloorMaxCalls.
constexpr double kFloorBlockSeconds = 0.02;
constexpr int kFloorMinCalls = 20;
constexpr int kFloorMaxCalls = 200;

// cpu-blas[onednn] (a) and cpu-onednn (b) on the same point, in alternating blocks of runs (which
// of the two goes first alternates too), one benchmark iteration in all: the time per step of each
// is the median of its runs, and their ratio is what the goal cpu-blas <= cpu-onednn compares.
// Blocks rather than single runs so that each run finds its own session's data where a run of the
// same session alone would (a small problem's weights in cache), as in the unpaired benchmarks.
// At batch-1 inference the floor is measured after every pair of blocks too, and cpu-blas's step
// over it (and over it plus the input bound) is the median over the blocks of the block's median
// step over the block's floor: a floor measured once, minutes from the point, moved by up to 1.7x
// between runs on the Zen 4 VM.
void runPaired(benchmark::State& state, const Case& a, const Case& b) {
    std::unique_ptr<Session> sa = warmSession(state, a);
    if (!sa) return;
    std::unique_ptr<Session> sb = warmSession(state, b);
    if (!sb) return;
    const auto runsPerBlock = [](Session& s) {
        const double once = secondsOfRun(s);
        return std::max(1, int(kPairedBlockSeconds / std::max(once, 1e-9)));
    };
    const int na = runsPerBlock(*sa), nb = runsPerBlock(*sb);
    std::unique_ptr<StepFloor> floor;
    int floorCalls = 0;
    double inputBound = 0.0;
    if (a.batch == 1 && a.mode == Mode::Inference) {
        floor = std::make_unique<StepFloor>(gateCount(a.cell), a.hidden, a.threads);
        inputBound = inputProjectionBoundSeconds(kInput, gateCount(a.cell), a.hidden, a.threads);
        const double once = floor->seconds(1);
        floorCalls =
            std::clamp(int(kFloorBlockSeconds / std::max(once, 1e-9)), kFloorMinCalls, kFloorMaxCalls);
    }
    std::vector<double> ta, tb, floors, blockOverFloor, blockOverFloorAndInput;
    for (auto _ : state) {
        double total = 0.0;
        for (int block = 0; block < kPairedBlocks || total < kPairedSeconds; ++block) {
            const std::size_t blockStart = ta.size();
            for (int half = 0; half < 2; ++half) {
                const bool first = (half == 0) == (block % 2 == 0);
                Session& s = first ? *sa : *sb;
                std::vector<double>& times = first ? ta : tb;
                for (int i = 0, n = first ? na : nb; i < n; ++i) {
                    times.push_back(secondsOfRun(s));
                    total += times.back();
                }
            }
            if (floor) {
                floors.push_back(floor->seconds(floorCalls));
                const std::vector<double> blockRuns(ta.begin() + std::ptrdiff_t(blockStart), ta.end());
                const double step = summarize(blockRuns).median / a.seq;
                blockOverFloor.push_back(step / floors.back());
                blockOverFloorAndInput.push_back(step / (floors.back() + inputBound));
            }
        }
        state.SetIterationTime(total);
    }
    const SampleStats statsA = summarize(ta), statsB = summarize(tb);
    const double perStepA = statsA.median / a.seq, perStepB = statsB.median / b.seq;
    state.counters["blas_us_per_step"] = perStepA * 1e6;
    state.counters["onednn_us_per_step"] = perStepB * 1e6;
    state.counters["ratio"] = perStepA / perStepB;
    state.counters["blas_spread"] = relativeSpread(statsA); // (p90 - p10) / median of its runs
    state.counters["onednn_spread"] = relativeSpread(statsB);
    state.counters["runs"] = double(ta.size() + tb.size());
    state.counters["threads"] = a.threads;
    if (floor) {
        state.counters["floor_us"] = summarize(floors).median * 1e6;
        state.counters["blas_step_over_floor"] = summarize(blockOverFloor).median;
        state.counters["blas_step_over_floor_and_input"] = summarize(blockOverFloorAndInput).median;
    }
}

void sgemmPeakBenchmark(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(sgemmPeak());
    state.counters["onednn_GFLOP/s"] = sgemmPeak().onednnGflops;
    state.counters["openblas_GFLOP/s"] = sgemmPeak().openblasGflops;
    state.counters["cores"] = availableCpuCores();
    state.SetLabel(cpuLibraryVersions() + " " + openBlasKernelWarning());
}

void registerAll() {
    benchmark::RegisterBenchmark("sgemm_peak_2048", sgemmPeakBenchmark)->Iterations(1);
    struct B {
        const char* id;
        GemmProvider gemm;
    };
    const B blasOnOneDnn{"cpu-blas", GemmProvider::OneDnn}, oneDnn{"cpu-onednn", GemmProvider::OneDnn};
    const B backends[] = {blasOnOneDnn, {"cpu-blas", GemmProvider::OpenBlas}, oneDnn};
    const int cores = availableCpuCores();
    std::vector<std::pair<int, std::string>> threadCounts;
    if (cores > 1) threadCounts.emplace_back(1, "1");
    if (cores > 2) threadCounts.emplace_back(2, "2");
    threadCounts.emplace_back(cores, "all");
    for (CellType cell : {CellType::Lstm, CellType::Gru})
        for (Mode mode : {Mode::Inference, Mode::Training})
            for (int hidden : {64, 256, 512, 1024})
                for (int seq : {20, 100})
                    for (int batch : {1, 4, 16, 64, 256})
                        for (const auto& [threads, threadsName] : threadCounts) {
                            const auto caseOf = [&](const B& b) {
                                return Case{b.id,  b.gemm, cell,    mode,       hidden,
                                            batch, seq,    threads, threadsName};
                            };
                            for (const B& b : backends) {
                                const Case c = caseOf(b);
                                benchmark::RegisterBenchmark(caseName(c).c_str(),
                                                             [c](benchmark::State& s) { runCase(s, c); })
                                    ->UseManualTime()
                                    ->Unit(benchmark::kMillisecond)
                                    ->MinTime(0.2);
                            }
                            const Case a = caseOf(blasOnOneDnn), o = caseOf(oneDnn);
                            const std::string name =
                                caseName(a).substr(0, caseName(a).rfind('/')) + "/paired";
                            benchmark::RegisterBenchmark(name.c_str(),
                                                         [a, o](benchmark::State& s) { runPaired(s, a, o); })
                                ->UseManualTime()
                                ->Unit(benchmark::kMillisecond)
                                ->Iterations(1);
                        }
}

} // namespace
} // namespace rnnprof::bench

int main(int argc, char** argv) {
    rnnprof::bench::registerAll();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    // The machine in the output's context, so that a table made from it names its host
    // (scripts/bench-table.py): Google Benchmark records the caches but not the CPU model.
    const rnnprof::HostInfo host = rnnprof::currentCpuHost();
    benchmark::AddCustomContext("cpu_model", host.cpuModel);
    benchmark::AddCustomContext("os", host.os);
    benchmark::AddCustomContext("cpu_libraries", host.cpuLibraries);
    benchmark::AddCustomContext("kernel_isa", rnnprof::cpu::isaName(rnnprof::cpu::kernelIsa()));
    benchmark::AddCustomContext("rnnprof_version", host.rnnprofVersion);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

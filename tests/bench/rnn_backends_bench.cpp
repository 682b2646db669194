// CPU backends on the shapes of issue 3: LSTM and GRU, inference and training, input 128,
// hidden {256, 512}, batch {1, 4, 16, 64, 256}, seq {20, 100}, for cpu-blas (oneDNN and OpenBLAS
// sgemm) and cpu-onednn. Reports per iteration and per step, GFLOP/s and the fraction of the SGEMM
// peak measured in the same run.
//   build/tests/bench/rnn_backends_bench --benchmark_filter='lstm/infer/H256' --benchmark_min_time=0.5
#include "sgemm_peak.h"

#include "engine/backend.h"
#include "engine/cpu/cpu_libraries.h"
#include "profiling/flops.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <string>

namespace rnnprof::bench {
namespace {

struct Case {
    std::string backend;
    GemmProvider gemm;
    CellType cell;
    Mode mode;
    int hidden, batch, seq;
};

std::string caseName(const Case& c) {
    std::string backend = c.backend;
    if (c.backend == "cpu-blas") backend += c.gemm == GemmProvider::OneDnn ? "[onednn]" : "[openblas]";
    return std::string(toString(c.cell)) + "/" + std::string(toString(c.mode)) + "/H" +
           std::to_string(c.hidden) + "/B" + std::to_string(c.batch) + "/T" + std::to_string(c.seq) + "/" +
           backend;
}

void runCase(benchmark::State& state, const Case& c) {
    Problem p;
    p.config.cell = c.cell;
    p.config.inputSize = 128;
    p.config.hiddenSize = c.hidden;
    p.shape = {c.batch, c.seq};
    p.mode = c.mode;
    p.options.gemm = c.gemm;
    p.options.threads = 0;
    const Backend* backend = builtinBackends().find(c.backend);
    if (!backend) {
        state.SkipWithError(("backend not registered: " + c.backend).c_str());
        return;
    }
    if (const auto why = backend->unsupportedReasons(p.config, p.mode); !why.empty()) {
        state.SkipWithError(why.front().c_str());
        return;
    }
    std::unique_ptr<Session> session = backend->prepare(p);
    NullPhaseHook hook;
    session->run(hook); // warm-up
    double seconds = 0.0;
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        session->run(hook);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        state.SetIterationTime(s);
        seconds += s;
    }
    const double perIteration = seconds / double(state.iterations());
    const double flops = double(iterationFlops(p.config, p.shape, p.mode));
    const double gflops = flops / perIteration / 1e9;
    const SgemmPeak& peak = sgemmPeak();
    state.counters["us_per_step"] = perIteration * 1e6 / c.seq;
    state.counters["GFLOP/s"] = gflops;
    state.counters["peak_onednn"] = gflops / peak.onednnGflops;
    state.counters["peak_openblas"] = gflops / peak.openblasGflops;
}

void sgemmPeakBenchmark(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(sgemmPeak());
    state.counters["onednn_GFLOP/s"] = sgemmPeak().onednnGflops;
    state.counters["openblas_GFLOP/s"] = sgemmPeak().openblasGflops;
    state.counters["cores"] = availableCpuCores();
}

void registerAll() {
    benchmark::RegisterBenchmark("sgemm_peak_2048", sgemmPeakBenchmark)->Iterations(1);
    struct B {
        const char* id;
        GemmProvider gemm;
    };
    const B backends[] = {{"cpu-blas", GemmProvider::OneDnn},
                          {"cpu-blas", GemmProvider::OpenBlas},
                          {"cpu-onednn", GemmProvider::OneDnn}};
    for (CellType cell : {CellType::Lstm, CellType::Gru})
        for (Mode mode : {Mode::Inference, Mode::Training})
            for (int hidden : {256, 512})
                for (int seq : {20, 100})
                    for (int batch : {1, 4, 16, 64, 256})
                        for (const B& b : backends) {
                            const Case c{b.id, b.gemm, cell, mode, hidden, batch, seq};
                            benchmark::RegisterBenchmark(caseName(c).c_str(),
                                                         [c](benchmark::State& s) { runCase(s, c); })
                                ->UseManualTime()
                                ->Unit(benchmark::kMillisecond)
                                ->MinTime(0.2);
                        }
}

} // namespace
} // namespace rnnprof::bench

int main(int argc, char** argv) {
    rnnprof::bench::registerAll();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

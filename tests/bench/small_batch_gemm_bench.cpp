// The forward recurrent product of small-batch training on one thread, h[M, H] * W_hh^T (W_hh
// [4H, H], LSTM's gates): cpu-blas's small-batch kernel (engine/cpu/small_batch_gemm.h) against
// oneDNN's and OpenBLAS's sgemm on the same operands, with W_hh's rows H floats apart (as the
// parameters hold them) and 16 floats further apart (cpu-blas's padded copy, RecurrentProduct::PaddedCopy).
// The three run in rotating blocks of calls within one benchmark (as rnn_backends_bench's paired
// benchmark does for whole sessions), because on a shared machine two benchmarks run seconds apart
// see different memory bandwidth (W_hh is 16 MB at H = 1024: beyond L2, within L3). Reports each
// one's median time per product (us), the rate W_hh streams at (GB/s) and own / library ratios.
//   build/tests/bench/small_batch_gemm_bench --benchmark_repetitions=3
//   --benchmark_report_aggregates_only=true
#include "engine/cpu/gemm.h"
#include "engine/cpu/small_batch_gemm.h"
#include "profiling/measure/statistics.h"

#include <benchmark/benchmark.h>
#include <cblas.h>
#include <omp.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using rnnprof::GemmProvider;
using rnnprof::cpu::GemmArgs;
using rnnprof::cpu::Op;

// A block of calls of one implementation takes at least this long; at least kBlocks blocks of each
// and kSeconds in all.
constexpr double kBlockSeconds = 0.01;
constexpr int kBlocks = 8;
constexpr double kSeconds = 0.6;
constexpr std::array<const char*, 3> kNames{"own", "onednn", "openblas"};

void run(int impl, const GemmArgs& g) {
    if (impl == 0)
        rnnprof::cpu::smallBatchGemm(g);
    else
        rnnprof::cpu::sgemm(impl == 1 ? GemmProvider::OneDnn : GemmProvider::OpenBlas, g);
}

double secondsOf(int impl, const GemmArgs& g) {
    const auto start = std::chrono::steady_clock::now();
    run(impl, g);
    benchmark::ClobberMemory();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void products(benchmark::State& state) {
    const std::int64_t m = state.range(0), h = state.range(1), ldw = h + state.range(2), gh = 4 * h;
    std::vector<float> w(std::size_t(gh * ldw)), a(std::size_t(m * h)), c(std::size_t(m * gh));
    for (std::size_t i = 0; i < w.size(); ++i)
        w[i] = float(i % 97) * 1e-3f - 0.05f;
    for (std::size_t i = 0; i < a.size(); ++i)
        a[i] = float(i % 13) * 1e-2f - 0.06f;
    const GemmArgs g{.opA = Op::N,
                     .opB = Op::T,
                     .m = m,
                     .n = gh,
                     .k = h,
                     .a = a.data(),
                     .lda = h,
                     .b = w.data(),
                     .ldb = ldw,
                     .c = c.data(),
                     .ldc = gh};
    omp_set_num_threads(1);
    openblas_set_num_threads(1);
    std::array<int, 3> perBlock{};
    for (int i = 0; i < 3; ++i) {
        secondsOf(i, g); // warm-up: JIT, the weights into cache
        perBlock[std::size_t(i)] = std::max(1, int(kBlockSeconds / std::max(secondsOf(i, g), 1e-9)));
    }
    std::array<std::vector<double>, 3> times;
    for (auto _ : state) {
        double total = 0.0;
        for (int block = 0; block < kBlocks || total < kSeconds; ++block)
            for (int k = 0; k < 3; ++k) {
                const int i = (block + k) % 3; // which goes first rotates
                for (int n = 0; n < perBlock[std::size_t(i)]; ++n) {
                    times[std::size_t(i)].push_back(secondsOf(i, g));
                    total += times[std::size_t(i)].back();
                }
            }
        state.SetIterationTime(total);
    }
    std::array<double, 3> median{};
    for (int i = 0; i < 3; ++i) {
        median[std::size_t(i)] = rnnprof::summarize(times[std::size_t(i)]).median;
        state.counters[std::string(kNames[std::size_t(i)]) + "_us"] = median[std::size_t(i)] * 1e6;
    }
    state.counters["own_GB/s"] = double(gh * h) * double(sizeof(float)) / median[0] / 1e9;
    state.counters["own/onednn"] = median[0] / median[1];
    state.counters["own/openblas"] = median[0] / median[2];
}

void registerAll() {
    auto* b = benchmark::RegisterBenchmark("small_batch/forward", products);
    b->ArgNames({"M", "H", "pad"})->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
    for (const std::int64_t m : {1, 2, 4})
        for (const std::int64_t h : {64, 256, 512, 1024})
            for (const std::int64_t pad : {0, 16})
                b->Args({m, h, pad});
}

} // namespace

int main(int argc, char** argv) {
    registerAll();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

#include "sgemm_peak.h"

#include "engine/cpu/cpu_libraries.h"

#include <cblas.h>
#include <omp.h>
#include <oneapi/dnnl/dnnl.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <vector>

namespace rnnprof::bench {
namespace {

template <class F>
double bestGflops(F&& gemm, double flops) {
    gemm(); // warm-up: JIT, page faults, thread pool start
    double best = 0.0;
    for (int rep = 0; rep < 5; ++rep) {
        const auto start = std::chrono::steady_clock::now();
        gemm();
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        best = std::max(best, flops / s / 1e9);
    }
    return best;
}

constexpr int kPeakSize = 2048;
constexpr double kPeakFlops = 2.0 * kPeakSize * kPeakSize * kPeakSize; // one 2048^3 product

} // namespace

double onednnSgemmGflops(int threads) {
    static std::map<int, double> cache;
    if (const auto it = cache.find(threads); it != cache.end()) return it->second;
    constexpr int n = kPeakSize;
    std::vector<float> a(std::size_t(n) * n, 0.5f), b(a.size(), 0.25f), c(a.size(), 0.0f);
    const int previousOmp = omp_get_max_threads();
    omp_set_num_threads(threads);
    const double gflops =
        bestGflops([&] { dnnl_sgemm('N', 'N', n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n); },
                   kPeakFlops);
    omp_set_num_threads(previousOmp);
    return cache[threads] = gflops;
}

const SgemmPeak& sgemmPeak() {
    static const SgemmPeak peak = [] {
        constexpr int n = kPeakSize;
        const int threads = availableCpuCores();
        std::vector<float> a(std::size_t(n) * n, 0.5f), b(a.size(), 0.25f), c(a.size(), 0.0f);
        SgemmPeak p;
        openblas_set_num_threads(1);
        p.onednnGflops = onednnSgemmGflops(threads);
        openblas_set_num_threads(threads);
        omp_set_num_threads(1);
        p.openblasGflops = bestGflops(
            [&] {
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(),
                            n, 0.0f, c.data(), n);
            },
            kPeakFlops);
        omp_set_num_threads(threads);
        return p;
    }();
    return peak;
}

} // namespace rnnprof::bench

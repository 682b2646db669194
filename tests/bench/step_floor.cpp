#include "step_floor.h"

#include "sgemm_peak.h"

#include "engine/cpu/onednn_support.h"
#include "engine/cpu/packed_gemm.h"

#include <cblas.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

namespace rnnprof::bench {
namespace {

template <class F>
double bestSeconds(F&& f, int calls) {
    f(); // warm-up: caches, JIT, thread pools
    double best = 1e30;
    for (int i = 0; i < calls; ++i) {
        const auto start = std::chrono::steady_clock::now();
        f();
        best =
            std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return best;
}

} // namespace

// W_hh's shape, streamed by OpenBLAS sgemv and by oneDNN's packed matmul at one thread count.
class StepFloor::Gemv {
public:
    Gemv(int gates, int hidden, int threads)
        : m_n(std::int64_t(gates) * hidden), m_k(hidden), m_threads(threads),
          m_w(std::size_t(m_n * m_k), 0.01f), m_x(std::size_t(m_k), 1.0f), m_y(std::size_t(m_n), 0.0f),
          m_packed(cpu::cpuEngine(), {.m = 1, .n = m_n, .k = m_k, .lda = m_k}, threads) {
        m_packed.pack(m_w.data(), 1, m_k);
    }

    double seconds(int calls) {
        const int previousOmp = omp_get_max_threads(), previousBlas = openblas_get_num_threads();
        omp_set_num_threads(1);
        openblas_set_num_threads(m_threads);
        const double blas = bestSeconds(
            [&] {
                cblas_sgemv(CblasRowMajor, CblasNoTrans, int(m_n), int(m_k), 1.0f, m_w.data(), int(m_k),
                            m_x.data(), 1, 0.0f, m_y.data(), 1);
            },
            calls);
        openblas_set_num_threads(1);
        omp_set_num_threads(m_threads);
        const double onednn = bestSeconds([&] { m_packed.run(m_x.data(), m_y.data()); }, calls);
        omp_set_num_threads(previousOmp);
        openblas_set_num_threads(previousBlas);
        return std::min(blas, onednn);
    }

private:
    std::int64_t m_n, m_k;
    int m_threads;
    std::vector<float> m_w, m_x, m_y;
    cpu::PackedGemm m_packed;
};

StepFloor::StepFloor(int gates, int hidden, int threads)
    : m_atThreads(std::make_unique<Gemv>(gates, hidden, threads)),
      m_oneThread(threads > 1 ? std::make_unique<Gemv>(gates, hidden, 1) : nullptr) {}

StepFloor::~StepFloor() = default;

double StepFloor::seconds(int calls) {
    const double atThreads = m_atThreads->seconds(calls);
    return m_oneThread ? std::min(atThreads, m_oneThread->seconds(calls)) : atThreads;
}

double stepFloorSeconds(int gates, int hidden, int threads) {
    static std::map<std::tuple<int, int, int>, double> cache;
    const auto key = std::make_tuple(gates, hidden, threads);
    if (const auto it = cache.find(key); it != cache.end()) return it->second;
    return cache[key] = StepFloor(gates, hidden, threads).seconds(200);
}

double inputProjectionBoundSeconds(int input, int gates, int hidden, int threads) {
    return 2.0 * input * gates * hidden / (onednnSgemmGflops(threads) * 1e9);
}

} // namespace rnnprof::bench

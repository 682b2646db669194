#pragma once
// Row-major single-precision GEMM over a selectable provider, and the thread-count scope that keeps
// exactly one thread pool busy (two pools on two cores oversubscribe; see cpu-performance.md).
//   C[M, N] = alpha * op(A)[M, K] * op(B)[K, N] + beta * C
#include "engine/problem.h"

#include <cstdint>
#include <string>

namespace rnnprof::cpu {

enum class Op { N, T };

struct GemmArgs {
    Op opA = Op::N;
    Op opB = Op::N;
    std::int64_t m = 0, n = 0, k = 0;
    float alpha = 1.0f;
    const float* a = nullptr;
    std::int64_t lda = 0;
    const float* b = nullptr;
    std::int64_t ldb = 0;
    float beta = 0.0f;
    float* c = nullptr;
    std::int64_t ldc = 0;
};

// Throws Error(BackendFailure) naming the provider's call when it reports a failure.
void sgemm(GemmProvider provider, const GemmArgs& args);

[[nodiscard]] const char* providerName(GemmProvider provider);

// Sets the thread count of the provider's pool for the lifetime of the scope (restoring the
// previous counts after). With OpenBLAS, our own OpenMP loops run single-threaded so that the two
// pools never compete; with oneDNN, GEMMs and our loops share one OpenMP pool.
class CpuThreadScope {
public:
    CpuThreadScope(GemmProvider provider, int threads);
    ~CpuThreadScope();
    CpuThreadScope(const CpuThreadScope&) = delete;
    CpuThreadScope& operator=(const CpuThreadScope&) = delete;
    // Threads our own element-wise loops may use.
    [[nodiscard]] int loopThreads() const { return m_loopThreads; }

private:
    GemmProvider m_provider;
    int m_previousOmp = 1;
    int m_previousBlas = 1;
    int m_loopThreads = 1;
};

// 0 -> all available cores; otherwise clamped to [1, available cores].
[[nodiscard]] int resolveThreads(int requested);
// "1 thread", "2 threads": how the sessions' notes count threads.
[[nodiscard]] std::string threadCount(int threads);

} // namespace rnnprof::cpu

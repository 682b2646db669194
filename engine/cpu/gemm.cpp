#include "engine/cpu/gemm.h"

#include "engine/cpu/cpu_libraries.h"
#include "engine/error.h"

#include <cblas.h>
#include <omp.h>
#include <oneapi/dnnl/dnnl.h>

#include <algorithm>
#include <string>

namespace rnnprof::cpu {

const char* providerName(GemmProvider provider) {
    return provider == GemmProvider::OneDnn ? "oneDNN sgemm" : "OpenBLAS sgemm";
}

void sgemm(GemmProvider provider, const GemmArgs& g) {
    if (g.m <= 0 || g.n <= 0) return;
    if (g.k <= 0) { // C = beta * C: providers differ on k = 0, so do it here
        for (std::int64_t i = 0; i < g.m; ++i)
            for (std::int64_t j = 0; j < g.n; ++j)
                g.c[i * g.ldc + j] = g.beta == 0.0f ? 0.0f : g.beta * g.c[i * g.ldc + j];
        return;
    }
    if (provider == GemmProvider::OneDnn) {
        const dnnl_status_t st = dnnl_sgemm(g.opA == Op::T ? 'T' : 'N', g.opB == Op::T ? 'T' : 'N', g.m, g.n,
                                            g.k, g.alpha, g.a, g.lda, g.b, g.ldb, g.beta, g.c, g.ldc);
        if (st != dnnl_success)
            throw Error(ErrorKind::BackendFailure,
                        "dnnl_sgemm failed with status " + std::to_string(int(st)) +
                            " (M=" + std::to_string(g.m) + ", N=" + std::to_string(g.n) +
                            ", K=" + std::to_string(g.k) + ")");
        return;
    }
    if (g.m == 1 && g.opA == Op::N) {
        // A single row: y = op(B)^T x is a GEMV, which OpenBLAS runs far faster than a 1-row GEMM.
        cblas_sgemv(CblasRowMajor, g.opB == Op::T ? CblasNoTrans : CblasTrans,
                    g.opB == Op::T ? int(g.n) : int(g.k), g.opB == Op::T ? int(g.k) : int(g.n), g.alpha, g.b,
                    int(g.ldb), g.a, 1, g.beta, g.c, 1);
        return;
    }
    cblas_sgemm(CblasRowMajor, g.opA == Op::T ? CblasTrans : CblasNoTrans,
                g.opB == Op::T ? CblasTrans : CblasNoTrans, int(g.m), int(g.n), int(g.k), g.alpha, g.a,
                int(g.lda), g.b, int(g.ldb), g.beta, g.c, int(g.ldc));
}

int resolveThreads(int requested) {
    const int cores = availableCpuCores();
    return requested <= 0 ? cores : std::clamp(requested, 1, cores);
}

std::string threadCount(int threads) {
    return std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

CpuThreadScope::CpuThreadScope(GemmProvider provider, int threads) : m_provider(provider) {
    m_previousOmp = omp_get_max_threads();
    m_previousBlas = openblas_get_num_threads();
    if (provider == GemmProvider::OneDnn) {
        omp_set_num_threads(threads);
        openblas_set_num_threads(1);
        m_loopThreads = threads;
    } else {
        omp_set_num_threads(1);
        openblas_set_num_threads(threads);
        m_loopThreads = 1;
    }
}

CpuThreadScope::~CpuThreadScope() {
    omp_set_num_threads(m_previousOmp);
    openblas_set_num_threads(m_previousBlas);
}

} // namespace rnnprof::cpu

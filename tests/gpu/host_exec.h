#pragma once
// Host emulation of gpu-generic for tests: an executor for GenericRnn that runs every GEMM through
// the column-major mapping cuBLAS gets (checked against cuBLAS's rules) and every step-kernel functor over
// its whole index range through operator()(idx), exactly as the __global__ wrapper does on the device; and a
// host "arena" laid out by bindGenericBuffers(). Uninitialised memory is filled with NaN, so a kernel or GEMM
// that reads a buffer nobody wrote makes the outputs NaN and the comparison fail.
#include "engine/gpu/column_major_gemm.h"
#include "engine/gpu/generic_buffers.h"
#include "engine/gpu/generic_rnn.h"
#include "engine/gpu/generic_transfer.h"
#include "engine/problem.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <typeinfo>
#include <vector>

namespace rnnprof::test {

struct HostExec {
    using Index = kernels::Index;
    int gemms = 0;
    int launches = 0;
    int invalidGemms = 0;           // calls cuBLAS would reject
    std::set<std::string> functors; // typeid names of every functor launched

    // Through the same row-major -> column-major mapping DeviceExec hands to cuBLAS, then a
    // column-major reference SGEMM with BLAS semantics (beta == 0 does not read C).
    void gemm(bool transA, bool transB, Index m, Index n, Index k, float alpha, const float* A, Index lda,
              const float* B, Index ldb, float beta, float* C, Index ldc) {
        ++gemms;
        const gpu::ColumnMajorGemm g = gpu::columnMajorFor(transA, transB, m, n, k, A, lda, B, ldb, C, ldc);
        if (!g.leadingDimensionsValid()) ++invalidGemms;
        columnMajorSgemm(g, alpha, beta);
    }
    static void columnMajorSgemm(const gpu::ColumnMajorGemm& g, float alpha, float beta) {
        for (Index j = 0; j < g.n; ++j)
            for (Index i = 0; i < g.m; ++i) {
                double sum = 0.0;
                for (Index p = 0; p < g.k; ++p) {
                    const float a = g.transA ? g.A[i * g.lda + p] : g.A[p * g.lda + i];
                    const float b = g.transB ? g.B[p * g.ldb + j] : g.B[j * g.ldb + p];
                    sum += double(a) * double(b);
                }
                float& c = g.C[j * g.ldc + i];
                c = float(alpha * sum + (beta == 0.0f ? 0.0 : double(beta) * c));
            }
    }
    template <class F>
    void launch(const F& functor, Index n) {
        ++launches;
        functors.insert(typeid(F).name());
        for (Index i = 0; i < n; ++i)
            functor(i);
    }
    void copyRows(float* dst, Index dld, const float* src, Index sld, Index rows, Index cols) {
        for (Index r = 0; r < rows; ++r)
            std::memcpy(dst + r * dld, src + r * sld, std::size_t(cols) * sizeof(float));
    }
    void zero(float* p, Index n) { std::fill(p, p + n, 0.0f); }
    void norm(const float* v, Index n, float* out) {
        double sum = 0.0;
        for (Index i = 0; i < n; ++i)
            sum += double(v[i]) * double(v[i]);
        *out = float(std::sqrt(sum));
    }
};

// One gpu-generic session, emulated on the host.
class HostGenericRun {
public:
    explicit HostGenericRun(const Problem& problem)
        : m_problem(problem), m_dims(gpu::GenericDims::of(problem)),
          m_arena(std::size_t(gpu::genericArenaElements(m_dims)), std::numeric_limits<float>::quiet_NaN()),
          m_buffers(gpu::bindGenericBuffers(m_dims, m_arena.data())) {
        if (m_buffers.zeroBias) std::fill(m_buffers.zeroBias, m_buffers.zeroBias + m_dims.DGH(), 0.0f);
        gpu::uploadGenericProblem(m_dims, m_buffers, resolve(problem), problem.overrides, copy);
    }

    void run(PhaseHook& hook) {
        gpu::GenericRnn<HostExec> rnn(m_dims, m_buffers, exec);
        {
            PhaseScope phase(hook, Phase::Forward);
            rnn.forward(hook);
        }
        if (!m_dims.training) return;
        {
            PhaseScope phase(hook, Phase::Backward);
            rnn.backward(hook);
        }
        PhaseScope phase(hook, Phase::Update);
        rnn.update(hook, float(m_problem.options.learningRate));
    }

    [[nodiscard]] RunOutputs outputs() const { return gpu::downloadGenericOutputs(m_dims, m_buffers, copy); }
    [[nodiscard]] const gpu::GenericBuffers& buffers() const { return m_buffers; }
    [[nodiscard]] const gpu::GenericDims& dims() const { return m_dims; }

    HostExec exec;

private:
    static void copy(float* dst, const float* src, std::size_t n) {
        std::memcpy(dst, src, n * sizeof(float));
    }

    Problem m_problem;
    gpu::GenericDims m_dims;
    std::vector<float> m_arena;
    gpu::GenericBuffers m_buffers;
};

} // namespace rnnprof::test

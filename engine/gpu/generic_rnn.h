#pragma once
// The gpu-generic algorithm: what frameworks fall back to when cuDNN's criteria are not met. Per
// layer one GEMM projects the input of every step of both directions; per step one GEMM applies
// the recurrent weights, then one element-wise kernel of engine/kernels/step_kernels.h does the
// cell; backward mirrors it, then one GEMM per layer for the input weights' gradient, one per
// direction for the recurrent weights' gradient, and one for the input gradient.
//
// Templated on an executor so that the same code drives the GPU (DeviceExec: cuBLAS and
// launchElementwise on a stream) and a host emulation in the tests (plain loops), which checks
// every offset, leading dimension and kernel argument here against the reference without a GPU.
// An executor provides:
//   gemm(transA, transB, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc)  row-major C = op(A) op(B)
//   launch(functor, n)             functor(i) for i in [0, n)
//   copyRows(dst, dld, src, sld, rows, cols) and zero(p, n)
//   norm(v, n, out)                *out = ||v||_2 (out in executor memory)
// Work is only issued here, never waited for: the session waits at the end of run(), and whether
// to wait at the end of each marked step is the profiling layer's choice (Session::deviceQueue).
// Not for use with buffers other than bindGenericBuffers()'s for the same GenericDims.
//
// cpu-blas does not run on this class through a host executor, by design.
// What the two share is the description of the recurrence (engine/recurrence_dims.h: sizes and
// the time walk) and the cell math (engine/kernels/step_kernels.h). The step sequences differ
// where cpu-blas gets its speed: it runs a layer's recurrence inside one persistent thread team
// (engine/cpu/step_team.h) in which every thread owns a slice of hidden units, multiplies only its
// rows of W_hh with single-threaded GEMMs, runs the per-ISA unchecked kernels on its slice and
// meets the others at one barrier per step, with both directions interleaved in that step. The
// executor interface here is whole-operation (gemm over the full matrix, launch over all
// elements, one direction after the other), which on a CPU means a fork/join
// per operation, several per step, instead of one barrier, and checked kernels with null views
// instead of stand-in buffers. Sharing would need slices and barriers in the executor interface,
// which cuBLAS and kernel launches have no use for; no merge was made, so there is no benchmark.
#include "engine/error.h"
#include "engine/gpu/generic_buffers.h"
#include "engine/kernels/act_dispatch.h"
#include "engine/kernels/step_kernels.h"
#include "engine/params.h"
#include "engine/phase_hook.h"

namespace rnnprof::gpu {

template <class Exec>
class GenericRnn {
public:
    using Index = kernels::Index;
    using Rows = kernels::Rows<float>;
    using CRows = kernels::CRows<float>;

    GenericRnn(const GenericDims& dims, const GenericBuffers& buffers, Exec& exec)
        : m_d(dims), m_b(buffers), m_exec(exec), m_layout(dims.config) {
        // The input weights of both directions must form one [D*G*H, in] matrix (one GEMM).
        for (int l = 0; l < int(m_d.L) && m_d.D == 2; ++l)
            if (offset(l, 1, ParamKind::WeightIh) !=
                offset(l, 0, ParamKind::WeightIh) + m_d.GH() * m_d.layerInput(l))
                throw Error(ErrorKind::BackendFailure, "gpu-generic: the parameter layout does not keep both "
                                                       "directions' input weights adjacent");
    }

    // Marks its sub-steps; the caller opens Phase::Forward.
    void forward(PhaseHook& hook) {
        kernels::withCellActs(m_d.config, [&](auto acts) {
            using A = decltype(acts);
            for (int l = 0; l < int(m_d.L); ++l)
                forwardLayer<A>(hook, l);
        });
    }

    // Training only: the MSE loss gradient (unless buffers.dy holds an override), then backward
    // through time into buffers.grads (and dx, dh0, dc0 with inputGradients).
    void backward(PhaseHook& hook) {
        if (!m_d.outputGradGiven)
            step(hook, "loss", [&] {
                const Index n = m_d.TB() * m_d.DH();
                m_exec.launch(
                    kernels::MseGradKernel<float>{m_b.y, m_b.target, m_b.dy, float(2.0 / double(n))}, n);
                m_exec.norm(m_b.dy, n, m_b.lossNorm);
            });
        kernels::withCellActs(m_d.config, [&](auto acts) {
            using A = decltype(acts);
            for (int l = int(m_d.L) - 1; l >= 0; --l)
                backwardLayer<A>(hook, l);
        });
    }

    void update(PhaseHook& hook, float learningRate) {
        step(hook, "SGD update", [&] {
            m_exec.launch(kernels::SgdKernel<float>{m_b.params, m_b.grads, learningRate},
                          m_layout.totalSize());
        });
    }

private:
    template <class F>
    static void step(PhaseHook& hook, const char* name, F&& work) {
        StepScope scope(hook, name);
        work();
    }

    [[nodiscard]] Index offset(int l, int dir, ParamKind kind) const {
        const ParamSpec* spec = m_layout.find(l, dir, kind);
        return spec ? spec->offset : -1;
    }
    [[nodiscard]] const float* weight(int l, int dir, ParamKind kind) const {
        return m_b.params + offset(l, dir, kind);
    }
    [[nodiscard]] float* gradient(int l, int dir, ParamKind kind) const {
        return m_b.grads + offset(l, dir, kind);
    }
    // Biases, or zeros when the model has none.
    [[nodiscard]] const float* bias(int l, int dir, ParamKind kind) const {
        return m_d.config.bias ? weight(l, dir, kind) : m_b.zeroBias + dir * m_d.GH();
    }
    [[nodiscard]] int slot(int l, int dir) const { return l * int(m_d.D) + dir; }
    [[nodiscard]] const float* mask(int l, int dir) const {
        return m_b.recurrentMask.empty() ? nullptr : m_b.recurrentMask[std::size_t(slot(l, dir))];
    }
    [[nodiscard]] const float* layerInput(int l) const {
        if (l == 0) return m_b.x;
        return m_d.betweenDropout ? m_b.layerIn[std::size_t(l)] : m_b.layerOut[std::size_t(l - 1)];
    }
    // Row block of time t in a time-major buffer with `width` floats per row.
    [[nodiscard]] Index at(Index t, Index width) const { return t * m_d.B * width; }

    // ---- forward ------------------------------------------------------------------------------

    template <class A>
    void forwardLayer(PhaseHook& hook, int l) {
        const Index DH = m_d.DH(), inW = m_d.layerInput(l);
        if (l > 0 && m_d.betweenDropout)
            step(hook, "dropout", [&] {
                m_exec.launch(kernels::MaskKernel<float>{CRows{m_b.layerOut[std::size_t(l - 1)], DH},
                                                         CRows{m_b.betweenMask[std::size_t(l - 1)], DH},
                                                         Rows{m_b.layerIn[std::size_t(l)], DH}, DH},
                              m_d.TB() * DH);
            });
        step(hook, kInputGemmStep, [&] {
            m_exec.gemm(false, true, m_d.TB(), m_d.DGH(), inW, 1.0f, layerInput(l), inW,
                        weight(l, 0, ParamKind::WeightIh), inW, 0.0f, m_b.xp, m_d.DGH());
        });
        step(hook, kRecurrentStepsStep, [&] {
            for (int dir = 0; dir < int(m_d.D); ++dir)
                forwardDirection<A>(l, dir);
        });
    }

    template <class A>
    void forwardDirection(int l, int dir) {
        const A acts{kernels::actParams(m_d.config)};
        const Index T = m_d.T, B = m_d.B, H = m_d.H, GH = m_d.GH(), DH = m_d.DH(), BH = B * H;
        const int k = slot(l, dir);
        const float* Whh = weight(l, dir, ParamKind::WeightHh);
        const float* bih = bias(l, dir, ParamKind::BiasIh);
        const float* bhh = bias(l, dir, ParamKind::BiasHh);
        const float* h0 = m_b.h0 + k * BH;
        const float* c0 = m_d.lstm ? m_b.c0 + k * BH : nullptr;
        float* out = m_b.layerOut[std::size_t(l)] + dir * H; // this direction's half of each row
        float* hRecAll = m_d.training ? m_b.hRec[std::size_t(k)] : nullptr;
        float* saved = m_d.training ? m_b.saved[std::size_t(k)] : nullptr;
        const CRows maskRows{mask(l, dir), H};
        if (m_d.training) // the first step's recurrent input h0 * mask, kept for backward
            m_exec.launch(kernels::MaskKernel<float>{CRows{h0, H}, maskRows,
                                                     Rows{hRecAll + at(m_d.firstTime(dir), H), H}, H},
                          BH);
        for (Index s = 0; s < T; ++s) {
            const TimeStep when = m_d.step(dir, s);
            const Index t = when.t, tp = when.prev;
            const CRows hPrev = s == 0 ? CRows{h0, H} : CRows{out + at(tp, DH), DH};
            const CRows hIn = m_d.training ? CRows{hRecAll + at(t, H), H} : hPrev; // recurrent input
            const Rows hRecNext = m_d.training && s + 1 < T ? Rows{hRecAll + at(when.next, H), H} : Rows{};
            const CRows xp{m_b.xp + at(t, m_d.DGH()) + dir * GH, m_d.DGH()};
            const Rows h{out + at(t, DH), DH};
            if (m_d.lstm) {
                m_exec.gemm(false, true, B, GH, H, 1.0f, hIn.p, hIn.ld, Whh, H, 0.0f, m_b.hp, GH);
                const CRows cPrev = s == 0         ? CRows{c0, H}
                                    : m_d.training ? CRows{m_b.cells[std::size_t(k)] + at(tp, H), H}
                                                   : CRows{m_b.cState, H};
                const Rows c =
                    m_d.training ? Rows{m_b.cells[std::size_t(k)] + at(t, H), H} : Rows{m_b.cState, H};
                const Rows gates = m_d.training ? Rows{saved + at(t, 4 * H), 4 * H} : Rows{};
                m_exec.launch(kernels::LstmForwardKernel<A, float>{xp, CRows{m_b.hp, GH}, bih, bhh, cPrev, c,
                                                                   h, gates, hRecNext, maskRows, H, acts},
                              BH);
            } else if (m_d.resetAfter) {
                m_exec.gemm(false, true, B, GH, H, 1.0f, hIn.p, hIn.ld, Whh, H, 0.0f, m_b.hp, GH);
                const Rows keep = m_d.training ? Rows{saved + at(t, 4 * H), 4 * H} : Rows{};
                m_exec.launch(kernels::GruForwardKernel<A, float>{xp, CRows{m_b.hp, GH}, bih, bhh, hPrev, h,
                                                                  keep, hRecNext, maskRows, H, acts},
                              BH);
            } else {
                // r and z first; the candidate's recurrent product reads r * hRec.
                m_exec.gemm(false, true, B, 2 * H, H, 1.0f, hIn.p, hIn.ld, Whh, H, 0.0f, m_b.hp, 2 * H);
                const Rows gates =
                    m_d.training ? Rows{saved + at(t, 3 * H), 3 * H} : Rows{m_b.gatesScratch, 3 * H};
                const Rows rh =
                    m_d.training ? Rows{m_b.rh[std::size_t(k)] + at(t, H), H} : Rows{m_b.rhScratch, H};
                m_exec.launch(kernels::GruResetBeforeGatesKernel<A, float>{xp, CRows{m_b.hp, 2 * H}, bih, bhh,
                                                                           hIn, gates, rh, H, acts},
                              BH);
                m_exec.gemm(false, true, B, H, H, 1.0f, rh.p, H, Whh + 2 * H * H, H, 0.0f, m_b.hpn, H);
                m_exec.launch(kernels::GruResetBeforeOutputKernel<A, float>{xp, CRows{m_b.hpn, H}, bih, bhh,
                                                                            hPrev, gates, h, hRecNext,
                                                                            maskRows, H, acts},
                              BH);
            }
        }
        const Index tLast = m_d.lastTime(dir);
        m_exec.copyRows(m_b.hN + k * BH, H, out + at(tLast, DH), DH, B, H);
        if (m_d.lstm)
            m_exec.copyRows(m_b.cN + k * BH, H,
                            m_d.training ? m_b.cells[std::size_t(k)] + at(tLast, H) : m_b.cState, H, B, H);
    }

    // ---- backward -----------------------------------------------------------------------------

    // Gradient of layer l's output: dy for the last layer, else what layer l+1 wrote.
    [[nodiscard]] float* outputGradient(int l) const {
        return l == int(m_d.L) - 1 ? m_b.dy : inputGradientTarget(l + 1);
    }
    // Where layer l writes the gradient of its input (l > 0); the two buffers alternate.
    [[nodiscard]] float* inputGradientTarget(int l) const {
        if (l == 0) return m_b.dx;
        return (int(m_d.L) - 1 - l) % 2 == 0 ? m_b.dOutA : m_b.dOutB;
    }

    template <class A>
    void backwardLayer(PhaseHook& hook, int l) {
        const Index inW = m_d.layerInput(l), DGH = m_d.DGH(), DH = m_d.DH(), TB = m_d.TB();
        const float* dOut = outputGradient(l);
        for (int dir = 0; dir < int(m_d.D); ++dir) {
            step(hook, kRecurrentStepsStep, [&] { backwardDirection<A>(l, dir, dOut); });
            step(hook, "weight-gradient GEMM", [&] { recurrentWeightGradients(l, dir); });
        }
        step(hook, "weight-gradient GEMM", [&] {
            m_exec.gemm(true, false, DGH, inW, TB, 1.0f, m_b.dXP, DGH, layerInput(l), inW, 0.0f,
                        gradient(l, 0, ParamKind::WeightIh), inW);
            if (m_d.config.bias) biasGradient(m_b.dXP, DGH, DGH, gradient(l, 0, ParamKind::BiasIh));
        });
        if (l == 0 && !m_d.inputGradients) return;
        float* dIn = inputGradientTarget(l);
        step(hook, "input-gradient GEMM", [&] {
            m_exec.gemm(false, false, TB, inW, DGH, 1.0f, m_b.dXP, DGH, weight(l, 0, ParamKind::WeightIh),
                        inW, 0.0f, dIn, inW);
        });
        if (l > 0 && m_d.betweenDropout)
            step(hook, "dropout", [&] {
                m_exec.launch(kernels::MaskKernel<float>{CRows{dIn, DH},
                                                         CRows{m_b.betweenMask[std::size_t(l - 1)], DH},
                                                         Rows{dIn, DH}, DH},
                              TB * DH);
            });
    }

    // The gradients of the recurrent projections of direction dir, all steps: LSTM uses its
    // columns of dXP (the same values), GRU the separate dHP.
    [[nodiscard]] Rows recurrentProjectionGradients(int dir) const {
        return m_d.lstm ? Rows{m_b.dXP + dir * m_d.GH(), m_d.DGH()} : Rows{m_b.dHP, m_d.GH()};
    }

    template <class A>
    void backwardDirection(int l, int dir, const float* dOut) {
        const A acts{kernels::actParams(m_d.config)};
        const Index T = m_d.T, B = m_d.B, H = m_d.H, GH = m_d.GH(), DH = m_d.DH(), DGH = m_d.DGH(),
                    BH = B * H;
        const int k = slot(l, dir);
        const float* Whh = weight(l, dir, ParamKind::WeightHh);
        const float* h0 = m_b.h0 + k * BH;
        const float* c0 = m_d.lstm ? m_b.c0 + k * BH : nullptr;
        const float* out = m_b.layerOut[std::size_t(l)] + dir * H;
        const float* saved = m_b.saved[std::size_t(k)];
        const CRows maskRows{mask(l, dir), H};
        const Rows dhCarry{m_b.dhCarry, H}, dhRec{m_b.dhRec, H}, dcCarry{m_b.dcCarry, H};
        if (m_b.dhN)
            m_exec.copyRows(m_b.dhCarry, H, m_b.dhN + k * BH, H, B, H);
        else
            m_exec.zero(m_b.dhCarry, BH);
        if (m_d.lstm) {
            if (m_b.dcN)
                m_exec.copyRows(m_b.dcCarry, H, m_b.dcN + k * BH, H, B, H);
            else
                m_exec.zero(m_b.dcCarry, BH);
        }
        m_exec.zero(m_b.dhRec, BH);
        const Rows dhpAll = recurrentProjectionGradients(dir);
        for (Index s = T - 1; s >= 0; --s) {
            const TimeStep when = m_d.step(dir, s);
            const Index t = when.t, tp = when.prev;
            const CRows dy{dOut + at(t, DH) + dir * H, DH};
            const CRows hPrev = s == 0 ? CRows{h0, H} : CRows{out + at(tp, DH), DH};
            const Rows dxp{m_b.dXP + at(t, DGH) + dir * GH, DGH};
            const Rows dhp{dhpAll.p + t * B * dhpAll.ld, dhpAll.ld};
            const bool needDhRec = s > 0 || m_d.inputGradients;
            if (m_d.lstm) {
                const float* cells = m_b.cells[std::size_t(k)];
                const CRows cPrev = s == 0 ? CRows{c0, H} : CRows{cells + at(tp, H), H};
                m_exec.launch(kernels::LstmBackwardKernel<A, float>{CRows{saved + at(t, 4 * H), 4 * H},
                                                                    CRows{cells + at(t, H), H}, cPrev, dy,
                                                                    dhCarry, CRows{dhRec.p, H}, maskRows,
                                                                    dcCarry, dxp, H, acts},
                              BH);
                if (needDhRec)
                    m_exec.gemm(false, false, B, H, GH, 1.0f, dhp.p, dhp.ld, Whh, H, 0.0f, m_b.dhRec, H);
            } else if (m_d.resetAfter) {
                m_exec.launch(kernels::GruBackwardKernel<A, float>{CRows{saved + at(t, 4 * H), 4 * H}, hPrev,
                                                                   dy, dhCarry, CRows{dhRec.p, H}, maskRows,
                                                                   dxp, dhp, H, acts},
                              BH);
                if (needDhRec)
                    m_exec.gemm(false, false, B, H, GH, 1.0f, dhp.p, dhp.ld, Whh, H, 0.0f, m_b.dhRec, H);
            } else {
                const CRows gates{saved + at(t, 3 * H), 3 * H};
                m_exec.launch(kernels::GruResetBeforeBackwardKernel<A, float>{gates, hPrev, dy, dhCarry,
                                                                              CRows{dhRec.p, H}, maskRows,
                                                                              dxp, dhp, H, acts},
                              BH);
                // drh = dn W_hn, then dr and r * drh, then + [dr, dz] W_hh[0:2H].
                m_exec.gemm(false, false, B, H, H, 1.0f, dhp.p + 2 * H, dhp.ld, Whh + 2 * H * H, H, 0.0f,
                            m_b.drh, H);
                m_exec.launch(
                    kernels::GruResetBeforeResetKernel<A, float>{
                        gates, CRows{m_b.hRec[std::size_t(k)] + at(t, H), H}, CRows{m_b.drh, H}, dxp, dhp,
                        dhRec, H, acts},
                    BH);
                if (needDhRec)
                    m_exec.gemm(false, false, B, H, 2 * H, 1.0f, dhp.p, dhp.ld, Whh, H, 1.0f, m_b.dhRec, H);
            }
        }
        if (m_d.inputGradients) {
            m_exec.launch(kernels::InitialStateGradKernel<float>{CRows{m_b.dhCarry, H}, CRows{m_b.dhRec, H},
                                                                 maskRows, Rows{m_b.dh0 + k * BH, H}, H},
                          BH);
            if (m_d.lstm) m_exec.copyRows(m_b.dc0 + k * BH, H, m_b.dcCarry, H, B, H);
        }
    }

    // dW_hh = dHP^T hRec over all steps (GRU reset_before: the candidate rows saw r * hRec), and
    // the recurrent bias gradient as column sums.
    void recurrentWeightGradients(int l, int dir) {
        const Index H = m_d.H, GH = m_d.GH(), TB = m_d.TB();
        const int k = slot(l, dir);
        const Rows dhp = recurrentProjectionGradients(dir);
        float* dWhh = gradient(l, dir, ParamKind::WeightHh);
        const float* hRec = m_b.hRec[std::size_t(k)];
        if (m_d.resetBefore()) {
            m_exec.gemm(true, false, 2 * H, H, TB, 1.0f, dhp.p, dhp.ld, hRec, H, 0.0f, dWhh, H);
            m_exec.gemm(true, false, H, H, TB, 1.0f, dhp.p + 2 * H, dhp.ld, m_b.rh[std::size_t(k)], H, 0.0f,
                        dWhh + 2 * H * H, H);
        } else {
            m_exec.gemm(true, false, GH, H, TB, 1.0f, dhp.p, dhp.ld, hRec, H, 0.0f, dWhh, H);
        }
        if (m_d.config.bias) biasGradient(dhp.p, dhp.ld, GH, gradient(l, dir, ParamKind::BiasHh));
    }

    // out[n] = the column sums of src [T*B rows, leading dimension ld]: one GEMM of a row of ones
    // with src, which cuBLAS parallelises over the rows too. (One thread per column summing every
    // row serially took 11.3 of 19.1 ms of a B=512 T=100 LSTM training iteration on an H100; a GEMV
    // against ones took 0.095 ms there.)
    void biasGradient(const float* src, Index ld, Index n, float* out) {
        const Index TB = m_d.TB();
        m_exec.gemm(false, false, 1, n, TB, 1.0f, m_b.ones, TB, src, ld, 0.0f, out, n);
    }

    GenericDims m_d;
    GenericBuffers m_b;
    Exec& m_exec;
    ParamLayout m_layout;
};

} // namespace rnnprof::gpu

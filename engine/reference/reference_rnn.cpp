#include "engine/reference/reference_rnn.h"

#include "engine/kernels/act_dispatch.h"

#include <algorithm>
#include <string>

namespace rnnprof::reference {
namespace {

using gates::derivativeFromOutput;

// Sizes of one (layer, direction) pass.
struct Dims {
    int steps, batch, in, hidden, gates, dirs;
};

// The masks of one (layer, direction), or nullptr.
template <class T>
const T* recurrentMask(const DropoutMasks<T>* masks, int index) {
    if (!masks || masks->recurrent.empty()) return nullptr;
    return masks->recurrent[std::size_t(index)].ptr();
}

template <class T>
T maskAt(const T* mask, int i) {
    return mask ? mask[i] : T(1);
}

// The check before each time step: `s` steps of this (layer, direction) are done.
void checkStop(const StopToken* stop, const char* pass, int layer, int layers, int dir, int s, int steps) {
    if (!stop || !stop->stopRequested()) return;
    throw StopRequested("in " + std::string(pass) + ", layer " + std::to_string(layer + 1) + " of " +
                        std::to_string(layers) + (dir == 1 ? " (reverse direction)" : "") +
                        ", before time step " + std::to_string(s + 1) + " of " + std::to_string(steps));
}

// y[r] = bias[r] + sum_k W[r, k] * v[k] for rows [r0, r1).
template <class T>
void matVec(const T* W, int cols, const T* bias, const T* v, int r0, int r1, T* y) {
    for (int r = r0; r < r1; ++r) {
        T sum = bias ? bias[r] : T(0);
        for (int k = 0; k < cols; ++k)
            sum += W[std::int64_t(r) * cols + k] * v[k];
        y[r] = sum;
    }
}

template <class A, class T>
void forwardDirection(const A& acts, const RnnConfig& c, const ParamSet<T>& p, int layer, int dir,
                      const Tensor<T>& in, const Tensor<T>& h0, const Tensor<T>& c0, const T* mask,
                      ForwardPass<T>& out, Tensor<T>& layerOut, Tensor<T>& hN, Tensor<T>& cN,
                      const StopToken* stop) {
    const Dims d{int(in.shape[0]), int(in.shape[1]),  int(in.shape[2]),
                 c.hiddenSize,     gateCount(c.cell), directionCount(c)};
    const int H = d.hidden, GH = d.gates * H;
    const T* Wih = p.data(layer, dir, ParamKind::WeightIh);
    const T* Whh = p.data(layer, dir, ParamKind::WeightHh);
    const T* bih = p.data(layer, dir, ParamKind::BiasIh);
    const T* bhh = p.data(layer, dir, ParamKind::BiasHh);
    const int slot = layer * d.dirs + dir;
    Tensor<T>& gatesOut = out.gates[slot] = Tensor<T>({d.steps, d.batch, GH});
    Tensor<T>& cellsOut = out.cells[slot];
    Tensor<T>& extraOut = out.extra[slot];
    if (c.cell == CellType::Lstm)
        cellsOut = Tensor<T>({d.steps, d.batch, H});
    else
        extraOut = Tensor<T>({d.steps, d.batch, H});

    std::vector<T> h(h0.data.begin() + std::int64_t(slot) * d.batch * H,
                     h0.data.begin() + std::int64_t(slot + 1) * d.batch * H);
    std::vector<T> cell(h.size(), T(0));
    if (c.cell == CellType::Lstm)
        std::copy(c0.data.begin() + std::int64_t(slot) * d.batch * H,
                  c0.data.begin() + std::int64_t(slot + 1) * d.batch * H, cell.begin());
    std::vector<T> xg(GH), hg(GH), hRec(H), rh(H);

    for (int s = 0; s < d.steps; ++s) {
        checkStop(stop, "forward", layer, c.layers, dir, s, d.steps);
        const int t = dir == 0 ? s : d.steps - 1 - s;
        for (int b = 0; b < d.batch; ++b) {
            T* hb = &h[std::size_t(b) * H];
            T* cb = &cell[std::size_t(b) * H];
            for (int j = 0; j < H; ++j)
                hRec[j] = hb[j] * maskAt(mask, b * H + j);
            const T* xt = in.ptr() + (std::int64_t(t) * d.batch + b) * d.in;
            matVec(Wih, d.in, bih, xt, 0, GH, xg.data());
            T* g = gatesOut.ptr() + (std::int64_t(t) * d.batch + b) * GH;
            if (c.cell == CellType::Lstm) {
                matVec(Whh, H, bhh, hRec.data(), 0, GH, hg.data());
                T* ct = cellsOut.ptr() + (std::int64_t(t) * d.batch + b) * H;
                for (int j = 0; j < H; ++j) {
                    const auto st = gates::lstmForward(acts, xg[j] + hg[j], xg[H + j] + hg[H + j],
                                                       xg[2 * H + j] + hg[2 * H + j],
                                                       xg[3 * H + j] + hg[3 * H + j], cb[j]);
                    g[j] = st.i, g[H + j] = st.f, g[2 * H + j] = st.g, g[3 * H + j] = st.o;
                    cb[j] = ct[j] = st.c;
                    hb[j] = st.h;
                }
            } else {
                T* ex = extraOut.ptr() + (std::int64_t(t) * d.batch + b) * H;
                matVec(Whh, H, bhh, hRec.data(), 0, 2 * H, hg.data()); // r and z rows
                for (int j = 0; j < H; ++j) {
                    const auto rz = gates::gruGates(acts, xg[j] + hg[j], xg[H + j] + hg[H + j]);
                    g[j] = rz.r, g[H + j] = rz.z;
                }
                if (c.resetAfter) {
                    matVec(Whh, H, bhh, hRec.data(), 2 * H, 3 * H, hg.data()); // hn = W_hn h + b_hn
                    for (int j = 0; j < H; ++j) {
                        ex[j] = hg[2 * H + j];
                        g[2 * H + j] = gates::gruCandidate(acts, xg[2 * H + j] + g[j] * hg[2 * H + j]);
                    }
                } else {
                    for (int j = 0; j < H; ++j)
                        rh[j] = ex[j] = g[j] * hRec[j];
                    matVec(Whh, H, bhh, rh.data(), 2 * H, 3 * H, hg.data()); // W_hn (r*h) + b_hn
                    for (int j = 0; j < H; ++j)
                        g[2 * H + j] = gates::gruCandidate(acts, xg[2 * H + j] + hg[2 * H + j]);
                }
                for (int j = 0; j < H; ++j)
                    hb[j] = gates::gruOutput(g[H + j], g[2 * H + j], hb[j]);
            }
            T* yt = layerOut.ptr() + (std::int64_t(t) * d.batch + b) * d.dirs * H + dir * H;
            std::copy(hb, hb + H, yt);
        }
    }
    std::copy(h.begin(), h.end(), hN.data.begin() + std::int64_t(slot) * d.batch * H);
    if (c.cell == CellType::Lstm)
        std::copy(cell.begin(), cell.end(), cN.data.begin() + std::int64_t(slot) * d.batch * H);
}

// dOut: gradient of this layer's output [T, B, D*H]. Accumulates parameter gradients and dIn.
template <class A, class T>
void backwardDirection(const A& acts, const RnnConfig& c, const ParamSet<T>& p, int layer, int dir,
                       const ForwardPass<T>& fwd, const Tensor<T>& h0, const Tensor<T>& c0, const T* mask,
                       const Tensor<T>& dOut, std::type_identity_t<const Tensor<T>*> dhN,
                       std::type_identity_t<const Tensor<T>*> dcN, Gradients<T>& grads, Tensor<T>& dIn,
                       const StopToken* stop) {
    const Tensor<T>& in = fwd.layerInputs[layer];
    const Tensor<T>& out = fwd.layerOutputs[layer];
    const Dims d{int(in.shape[0]), int(in.shape[1]),  int(in.shape[2]),
                 c.hiddenSize,     gateCount(c.cell), directionCount(c)};
    const int H = d.hidden, GH = d.gates * H;
    const int slot = layer * d.dirs + dir;
    const T* Wih = p.data(layer, dir, ParamKind::WeightIh);
    const T* Whh = p.data(layer, dir, ParamKind::WeightHh);
    T* dWih = grads.dParams.data(layer, dir, ParamKind::WeightIh);
    T* dWhh = grads.dParams.data(layer, dir, ParamKind::WeightHh);
    T* dbih = grads.dParams.data(layer, dir, ParamKind::BiasIh);
    T* dbhh = grads.dParams.data(layer, dir, ParamKind::BiasHh);
    const Tensor<T>& gatesT = fwd.gates[slot];

    const std::int64_t stateOffset = std::int64_t(slot) * d.batch * H;
    std::vector<T> dhNext(std::size_t(d.batch) * H, T(0)), dcNext(dhNext.size(), T(0));
    if (dhN)
        std::copy(dhN->data.begin() + stateOffset, dhN->data.begin() + stateOffset + d.batch * H,
                  dhNext.begin());
    if (dcN && c.cell == CellType::Lstm)
        std::copy(dcN->data.begin() + stateOffset, dcN->data.begin() + stateOffset + d.batch * H,
                  dcNext.begin());
    std::vector<T> dxg(GH), dhg(GH), hPrev(H), hRec(H), cPrev(H), dhRec(H), drh(H);

    for (int s = d.steps - 1; s >= 0; --s) {
        checkStop(stop, "backward", layer, c.layers, dir, d.steps - 1 - s, d.steps);
        const int t = dir == 0 ? s : d.steps - 1 - s;
        const int tPrev = dir == 0 ? t - 1 : t + 1;
        for (int b = 0; b < d.batch; ++b) {
            for (int j = 0; j < H; ++j) {
                hPrev[j] = s == 0 ? h0.data[stateOffset + b * H + j]
                                  : out.data[(std::int64_t(tPrev) * d.batch + b) * d.dirs * H + dir * H + j];
                hRec[j] = hPrev[j] * maskAt(mask, b * H + j);
                if (c.cell == CellType::Lstm)
                    cPrev[j] = s == 0 ? c0.data[stateOffset + b * H + j]
                                      : fwd.cells[slot].data[(std::int64_t(tPrev) * d.batch + b) * H + j];
            }
            const T* g = gatesT.ptr() + (std::int64_t(t) * d.batch + b) * GH;
            T* dhb = &dhNext[std::size_t(b) * H];
            std::vector<T> dh(H);
            for (int j = 0; j < H; ++j)
                dh[j] = dOut.data[(std::int64_t(t) * d.batch + b) * d.dirs * H + dir * H + j] + dhb[j];

            std::vector<T> dhDirect(H, T(0));
            if (c.cell == CellType::Lstm) {
                const T* ct = fwd.cells[slot].ptr() + (std::int64_t(t) * d.batch + b) * H;
                for (int j = 0; j < H; ++j) {
                    const auto r =
                        gates::lstmBackward(acts, g[j], g[H + j], g[2 * H + j], g[3 * H + j], ct[j], cPrev[j],
                                            dh[j], dcNext[std::size_t(b) * H + j]);
                    dxg[j] = r.di, dxg[H + j] = r.df, dxg[2 * H + j] = r.dg, dxg[3 * H + j] = r.dO;
                    dcNext[std::size_t(b) * H + j] = r.dcPrev;
                }
                dhg = dxg;
            } else {
                const T* ex = fwd.extra[slot].ptr() + (std::int64_t(t) * d.batch + b) * H;
                for (int j = 0; j < H; ++j) {
                    if (c.resetAfter) {
                        const auto r = gates::gruBackwardResetAfter(acts, g[j], g[H + j], g[2 * H + j], ex[j],
                                                                    hPrev[j], dh[j]);
                        dxg[j] = dhg[j] = r.dr;
                        dxg[H + j] = dhg[H + j] = r.dz;
                        dxg[2 * H + j] = r.dn;
                        dhg[2 * H + j] = r.dn * g[j];
                        dhDirect[j] = r.dhDirect;
                    } else {
                        const auto r =
                            gates::gruBackwardResetBefore(acts, g[H + j], g[2 * H + j], hPrev[j], dh[j]);
                        dxg[H + j] = dhg[H + j] = r.dz;
                        dxg[2 * H + j] = dhg[2 * H + j] = r.dn;
                        dhDirect[j] = r.dhDirect;
                    }
                }
                if (!c.resetAfter) {
                    // drh = W_hn^T dn, then dr; the candidate's recurrent product read r * hRec.
                    for (int k = 0; k < H; ++k) {
                        T sum = 0;
                        for (int j = 0; j < H; ++j)
                            sum += Whh[std::int64_t(2 * H + j) * H + k] * dhg[2 * H + j];
                        drh[k] = sum;
                    }
                    for (int k = 0; k < H; ++k)
                        dxg[k] = dhg[k] = gates::gruResetBeforeDr(acts, g[k], hRec[k], drh[k]);
                }
            }

            // Parameter and input gradients of this step.
            const T* xt = in.ptr() + (std::int64_t(t) * d.batch + b) * d.in;
            T* dxt = dIn.ptr() + (std::int64_t(t) * d.batch + b) * d.in;
            const T* ex = c.cell == CellType::Gru
                              ? fwd.extra[slot].ptr() + (std::int64_t(t) * d.batch + b) * H
                              : nullptr;
            for (int r = 0; r < GH; ++r) {
                for (int k = 0; k < d.in; ++k) {
                    dWih[std::int64_t(r) * d.in + k] += dxg[r] * xt[k];
                    dxt[k] += dxg[r] * Wih[std::int64_t(r) * d.in + k];
                }
                // The GRU reset_before candidate rows saw r * hRec, every other row hRec.
                const bool sawRh = c.cell == CellType::Gru && !c.resetAfter && r >= 2 * H;
                for (int k = 0; k < H; ++k)
                    dWhh[std::int64_t(r) * H + k] += dhg[r] * (sawRh ? ex[k] : hRec[k]);
                if (dbih) dbih[r] += dxg[r];
                if (dbhh) dbhh[r] += dhg[r];
            }
            for (int k = 0; k < H; ++k) {
                T sum = 0;
                if (c.cell == CellType::Gru && !c.resetAfter) {
                    for (int r = 0; r < 2 * H; ++r)
                        sum += dhg[r] * Whh[std::int64_t(r) * H + k];
                    sum += drh[k] * g[k];
                } else {
                    for (int r = 0; r < GH; ++r)
                        sum += dhg[r] * Whh[std::int64_t(r) * H + k];
                }
                dhRec[k] = sum;
            }
            for (int k = 0; k < H; ++k)
                dhb[k] = dhRec[k] * maskAt(mask, b * H + k) + dhDirect[k];
        }
    }
    std::copy(dhNext.begin(), dhNext.end(), grads.dh0.data.begin() + stateOffset);
    if (c.cell == CellType::Lstm)
        std::copy(dcNext.begin(), dcNext.end(), grads.dc0.data.begin() + stateOffset);
}

} // namespace

template <class T>
ForwardPass<T> forward(const RnnConfig& c, const ParamSet<T>& params, const Tensor<T>& x, const Tensor<T>& h0,
                       const Tensor<T>& c0, std::type_identity_t<const DropoutMasks<T>*> masks,
                       const StopToken* stop) {
    requireValid(c);
    const int D = directionCount(c), H = c.hiddenSize;
    const std::int64_t T_ = x.shape.at(0), B = x.shape.at(1);
    ForwardPass<T> fwd;
    fwd.hN = Tensor<T>({std::int64_t(c.layers) * D, B, H});
    if (c.cell == CellType::Lstm) fwd.cN = Tensor<T>(fwd.hN.shape);
    fwd.gates.resize(std::size_t(c.layers) * D);
    fwd.cells.resize(fwd.gates.size());
    fwd.extra.resize(fwd.gates.size());
    Tensor<T> input = x;
    for (int layer = 0; layer < c.layers; ++layer) {
        if (layer > 0 && masks && !masks->between.empty()) {
            const Tensor<T>& m = masks->between[std::size_t(layer - 1)];
            for (std::size_t i = 0; i < input.data.size(); ++i)
                input.data[i] *= m.data[i];
        }
        Tensor<T> out({T_, B, std::int64_t(D) * H});
        kernels::withCellActs(c, [&](auto acts) {
            for (int dir = 0; dir < D; ++dir)
                forwardDirection(acts, c, params, layer, dir, input, h0, c0,
                                 recurrentMask(masks, layer * D + dir), fwd, out, fwd.hN, fwd.cN, stop);
        });
        fwd.layerInputs.push_back(input);
        fwd.layerOutputs.push_back(out);
        input = std::move(out);
    }
    fwd.y = std::move(input);
    return fwd;
}

template <class T>
Gradients<T> backward(const RnnConfig& c, const ParamSet<T>& params, const ForwardPass<T>& fwd,
                      const Tensor<T>& h0, const Tensor<T>& c0,
                      std::type_identity_t<const DropoutMasks<T>*> masks, const Tensor<T>& dy,
                      std::type_identity_t<const Tensor<T>*> dhN, std::type_identity_t<const Tensor<T>*> dcN,
                      const StopToken* stop) {
    const int D = directionCount(c);
    Gradients<T> grads;
    grads.dParams = ParamSet<T>(c);
    grads.dh0 = Tensor<T>(fwd.hN.shape);
    if (c.cell == CellType::Lstm) grads.dc0 = Tensor<T>(fwd.hN.shape);
    Tensor<T> dOut = dy;
    for (int layer = c.layers - 1; layer >= 0; --layer) {
        Tensor<T> dIn(fwd.layerInputs[layer].shape);
        kernels::withCellActs(c, [&](auto acts) {
            for (int dir = 0; dir < D; ++dir)
                backwardDirection(acts, c, params, layer, dir, fwd, h0, c0,
                                  recurrentMask(masks, layer * D + dir), dOut, dhN, dcN, grads, dIn, stop);
        });
        if (layer > 0 && masks && !masks->between.empty()) {
            const Tensor<T>& m = masks->between[std::size_t(layer - 1)];
            for (std::size_t i = 0; i < dIn.data.size(); ++i)
                dIn.data[i] *= m.data[i];
        }
        dOut = std::move(dIn);
    }
    grads.dx = std::move(dOut);
    return grads;
}

template <class T>
Iteration<T> runIteration(const Problem& problem) {
    requireValid(problem.config, problem.shape);
    ResolvedProblem<T> in = resolve<T>(problem);
    ProblemData<T>& data = in.data;
    ParamSet<T>& params = in.params;
    const bool training = problem.mode == Mode::Training;
    const DropoutMasks<T>* masks = training ? &data.masks : nullptr;
    auto fwd = forward(problem.config, params, data.x, data.h0, data.c0, masks);
    Iteration<T> it;
    if (training) {
        Tensor<T> dy, dhN, dcN;
        if (in.outputGrad)
            dy = in.outputGrad->template cast<T>();
        else
            it.loss = mseLoss(fwd.y, data.target, &dy);
        if (in.hNGrad) dhN = in.hNGrad->template cast<T>();
        if (in.cNGrad) dcN = in.cNGrad->template cast<T>();
        it.gradients = backward<T>(problem.config, params, fwd, data.h0, data.c0, masks, dy,
                                   dhN.empty() ? nullptr : &dhN, dcN.empty() ? nullptr : &dcN);
        const T lr = T(problem.options.learningRate);
        for (std::size_t i = 0; i < params.values.size(); ++i)
            params.values[i] -= lr * it.gradients.dParams.values[i];
        it.paramsAfter = std::move(params);
    }
    it.y = std::move(fwd.y);
    it.hN = std::move(fwd.hN);
    it.cN = std::move(fwd.cN);
    return it;
}

#define RNNPROF_INSTANTIATE(T)                                                                               \
    template ForwardPass<T> forward<T>(const RnnConfig&, const ParamSet<T>&, const Tensor<T>&,               \
                                       const Tensor<T>&, const Tensor<T>&, const DropoutMasks<T>*,           \
                                       const StopToken*);                                                    \
    template Gradients<T> backward<T>(                                                                       \
        const RnnConfig&, const ParamSet<T>&, const ForwardPass<T>&, const Tensor<T>&, const Tensor<T>&,     \
        const DropoutMasks<T>*, const Tensor<T>&, const Tensor<T>*, const Tensor<T>*, const StopToken*);     \
    template Iteration<T> runIteration<T>(const Problem&);
RNNPROF_INSTANTIATE(float)
RNNPROF_INSTANTIATE(double)
#undef RNNPROF_INSTANTIATE

} // namespace rnnprof::reference

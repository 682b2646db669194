#pragma once
// Per-element kernels of one recurrent time step, as host+device functors. Each functor has
// at(b, j) for batch row b and hidden unit j, and operator()(idx) over the flat index
// idx = b * H + j in [0, B*H). cpu-blas loops over
// them (vectorising the j loop); the CUDA backend launches them from thin __global__ wrappers; the
// tests run them over the whole index range on the host. GEMMs happen between kernels:
//   forward   hp = hRec * W_hh^T, then the cell kernel;
//   backward  the cell kernel, then dhRec = dgates * W_hh.
// Gate blocks are gate-major within a row: [i|f|g|o] (LSTM) or [r|z|n] (GRU), H wide each.
#include "engine/kernels/gate_math.h"

#include <cstdint>

namespace rnnprof::kernels {

using Index = std::int64_t;

// A row-major view: element (b, j) at p[b * ld + j].
template <class T>
struct Rows {
    T* p = nullptr;
    Index ld = 0;
    RNNPROF_HD T& operator()(Index b, Index j) const { return p[b * ld + j]; }
};

template <class T>
struct CRows {
    const T* p = nullptr;
    Index ld = 0;
    RNNPROF_HD const T& operator()(Index b, Index j) const { return p[b * ld + j]; }
};

// Optional views: with Checked = true (the default, used by the GPU backend) a null pointer means
// "absent" (no output kept, no mask, no gradient). With Checked = false the caller guarantees every
// view is valid (scratch outputs, a mask of ones, zero gradients): the kernel body then has no
// branches and CPU compilers vectorise it.
template <bool Checked>
RNNPROF_HD bool present(const void* p) {
    if constexpr (Checked)
        return p != nullptr;
    else
        return true;
}

template <bool Checked, class T>
RNNPROF_HD T loadOr(const CRows<T>& v, Index b, Index j, T fallback) {
    if constexpr (Checked)
        return v.p ? v(b, j) : fallback;
    else
        return v(b, j);
}

// ---- forward ---------------------------------------------------------------------------------

// Keeps = false (CPU inference): only the state is written; gates, hRecNext and mask are ignored.
// Inference keeps nothing for backward, and writing the gates to scratch cost a fifth of the cell
// pass's memory traffic at large batch.
template <class A, class T, bool Checked = true, bool Keeps = true>
struct LstmForwardKernel {
    CRows<T> xp;      // [B, 4H] input projection of this step (without bias)
    CRows<T> hp;      // [B, 4H] recurrent projection (without bias)
    const T* bih;     // [4H] (zeros when bias is off)
    const T* bhh;     // [4H]
    CRows<T> cPrev;   // [B, H]
    Rows<T> c;        // [B, H] new cell state
    Rows<T> h;        // [B, H] new hidden state
    Rows<T> gates;    // [B, 4H] kept i,f,g,o (training); p == nullptr: not kept
    Rows<T> hRecNext; // [B, H] h * mask, the next step's recurrent input (training); nullptr: skip
    CRows<T> mask;    // [B, H] recurrent dropout mask; nullptr: none
    Index H;
    A acts; // the cell's activations and their parameters

    RNNPROF_HD void at(Index b, Index j) const {
        const T pi = xp(b, j) + hp(b, j) + bih[j] + bhh[j];
        const T pf = xp(b, H + j) + hp(b, H + j) + bih[H + j] + bhh[H + j];
        const T pg = xp(b, 2 * H + j) + hp(b, 2 * H + j) + bih[2 * H + j] + bhh[2 * H + j];
        const T po = xp(b, 3 * H + j) + hp(b, 3 * H + j) + bih[3 * H + j] + bhh[3 * H + j];
        const auto s = gates::lstmForward(acts, pi, pf, pg, po, cPrev(b, j));
        c(b, j) = s.c;
        h(b, j) = s.h;
        if constexpr (!Keeps) return;
        if (present<Checked>(gates.p)) {
            gates(b, j) = s.i;
            gates(b, H + j) = s.f;
            gates(b, 2 * H + j) = s.g;
            gates(b, 3 * H + j) = s.o;
        }
        if (present<Checked>(hRecNext.p)) hRecNext(b, j) = s.h * loadOr<Checked>(mask, b, j, T(1));
    }
    RNNPROF_HD void operator()(Index idx) const { at(idx / H, idx % H); }
};

// GRU with reset_after (cuDNN's formula). Keeps r, z, n and hn = W_hn h + b_hn.
// Keeps: as LstmForwardKernel's.
template <class A, class T, bool Checked = true, bool Keeps = true>
struct GruForwardKernel {
    CRows<T> xp;      // [B, 3H]
    CRows<T> hp;      // [B, 3H]
    const T* bih;     // [3H]
    const T* bhh;     // [3H]
    CRows<T> hPrev;   // [B, H] previous state (unmasked)
    Rows<T> h;        // [B, H]
    Rows<T> saved;    // [B, 4H] r, z, n, hn (training); nullptr: not kept
    Rows<T> hRecNext; // [B, H]
    CRows<T> mask;    // [B, H]
    Index H;
    A acts; // the cell's activations and their parameters

    RNNPROF_HD void at(Index b, Index j) const {
        const T pr = xp(b, j) + hp(b, j) + bih[j] + bhh[j];
        const T pz = xp(b, H + j) + hp(b, H + j) + bih[H + j] + bhh[H + j];
        const auto g = gates::gruGates(acts, pr, pz);
        const T hn = hp(b, 2 * H + j) + bhh[2 * H + j];
        const T n = gates::gruCandidate(acts, xp(b, 2 * H + j) + bih[2 * H + j] + g.r * hn);
        const T out = gates::gruOutput(g.z, n, hPrev(b, j));
        h(b, j) = out;
        if constexpr (!Keeps) return;
        if (present<Checked>(saved.p)) {
            saved(b, j) = g.r;
            saved(b, H + j) = g.z;
            saved(b, 2 * H + j) = n;
            saved(b, 3 * H + j) = hn;
        }
        if (present<Checked>(hRecNext.p)) hRecNext(b, j) = out * loadOr<Checked>(mask, b, j, T(1));
    }
    RNNPROF_HD void operator()(Index idx) const { at(idx / H, idx % H); }
};

// GRU with reset_after = false, first half: r and z from the r,z columns of the projections, and
// rh = r * hRec, the input of the candidate's recurrent product.
template <class A, class T>
struct GruResetBeforeGatesKernel {
    CRows<T> xp;   // [B, 3H]
    CRows<T> hp;   // [B, 2H] recurrent projection of the r and z gates
    const T* bih;  // [3H]
    const T* bhh;  // [3H]
    CRows<T> hRec; // [B, H] recurrent input of this step
    Rows<T> gates; // [B, 3H] r, z written here (n by the second half)
    Rows<T> rh;    // [B, H]
    Index H;
    A acts; // the cell's activations and their parameters

    RNNPROF_HD void at(Index b, Index j) const {
        const T pr = xp(b, j) + hp(b, j) + bih[j] + bhh[j];
        const T pz = xp(b, H + j) + hp(b, H + j) + bih[H + j] + bhh[H + j];
        const auto g = gates::gruGates(acts, pr, pz);
        gates(b, j) = g.r;
        gates(b, H + j) = g.z;
        rh(b, j) = g.r * hRec(b, j);
    }
    RNNPROF_HD void operator()(Index idx) const { at(idx / H, idx % H); }
};

// Second half: n = act(xn + b_in + hpn + b_hn) with hpn = (r*hRec) W_hn^T, then h.
template <class A, class T, bool Checked = true>
struct GruResetBeforeOutputKernel {
    CRows<T> xp;      // [B, 3H]
    CRows<T> hpn;     // [B, H]
    const T* bih;     // [3H]
    const T* bhh;     // [3H]
    CRows<T> hPrev;   // [B, H]
    Rows<T> gates;    // [B, 3H] reads z, writes n
    Rows<T> h;        // [B, H]
    Rows<T> hRecNext; // [B, H]
    CRows<T> mask;    // [B, H]
    Index H;
    A acts; // the cell's activations and their parameters

    RNNPROF_HD void at(Index b, Index j) const {
        const T n = gates::gruCandidate(acts, xp(b, 2 * H + j) + bih[2 * H + j] + hpn(b, j) + bhh[2 * H + j]);
        const T out = gates::gruOutput(gates(b, H + j), n, hPrev(b, j));
        gates(b, 2 * H + j) = n;
        h(b, j) = out;
        if (present<Checked>(hRecNext.p)) hRecNext(b, j) = out * loadOr<Checked>(mask, b, j, T(1));
    }
    RNNPROF_HD void operator()(Index idx) const { at(idx / H, idx % H); }
};

// ---- backward --------------------------------------------------------------------------------
// The gradient reaching h_t is dy_t + dhCarry + mask * dhRec, where dhCarry is the direct
// gradient (dh_n at the last step, GRU's z * dh from step t+1) and dhRec the gradient of step
// t+1's recurrent input hRec (the GEMM dgates_{t+1} * W_hh).

template <class A, class T, bool Checked = true>
struct LstmBackwardKernel {
    CRows<T> gates;  // [B, 4H] i, f, g, o of step t
    CRows<T> c;      // [B, H] c_t
    CRows<T> cPrev;  // [B, H] c_{t-1}
    CRows<T> dy;     // [B, H] output gradient at t; nullptr: none
    Rows<T> dhCarry; // [B, H] in: direct gradient of h_t; out: 0 (no direct path in LSTM)
    CRows<T> dhRec;  // [B, H]
    CRows<T> mask;   // [B, H]
    Rows<T> dcCarry; // [B, H] in: gradient of c_t; out: gradient of c_{t-1}
    Rows<T> dg;      // [B, 4H] gradients of the gate pre-activations
    Index H;
    A acts; // the cell's activations and their parameters

    RNNPROF_HD void at(Index b, Index j) const {
        const T dh =
            loadOr<Checked>(dy, b, j, T(0)) + dhCarry(b, j) + loadOr<Checked>(mask, b, j, T(1)) * dhRec(b, j);
        const auto g = gates::lstmBackward(acts, gates(b, j), gates(b, H + j), gates(b, 2 * H + j),
                                           gates(b, 3 * H + j), c(b, j), cPrev(b, j), dh, dcCarry(b, j));
        dg(b, j) = g.di;
        dg(b, H + j) = g.df;
        dg(b, 2 * H + j) = g.dg;
        dg(b, 3 * H + j) = g.dO;
        dcCarry(b, j) = g.dcPrev;
        dhCarry(b, j) = T(0);
    }
    RNNPROF_HD void operator()(Index idx) const { at(idx / H, idx % H); }
};

// GRU reset_after. dxp receives (dr, dz, dn) for the input projection, dhp (dr, dz, dn * r) for
// the recurrent projection.
template <class A, class T, bool Checked = true>
struct GruBackwardKernel {
    CRows<T> saved;  // [B, 4H] r, z, n, hn
    CRows<T> hPrev;  // [B, H]
    CRows<T> dy;     // [B, H]
    Rows<T> dhCarry; // [B, H] in: direct gradient of h_t; out: z * dh (direct gradient of h_{t-1})
    CRows<T> dhRec;  // [B, H]
    CRows<T> mask;   // [B, H]
    Rows<T> dxp;     // [B, 3H]
    Rows<T> dhp;     // [B, 3H]
    Index H;
    A acts; // the cell's activations and their parameters

    RNNPROF_HD void at(Index b, Index j) const {
        const T dh =
            loadOr<Checked>(dy, b, j, T(0)) + dhCarry(b, j) + loadOr<Checked>(mask, b, j, T(1)) * dhRec(b, j);
        const T r = saved(b, j);
        const auto g = gates::gruBackwardResetAfter(acts, r, saved(b, H + j), saved(b, 2 * H + j),
                                                    saved(b, 3 * H + j), hPrev(b, j), dh);
        dxp(b, j) = g.dr;
        dxp(b, H + j) = g.dz;
        dxp(b, 2 * H + j) = g.dn;
        dhp(b, j) = g.dr;
        dhp(b, H + j) = g.dz;
        dhp(b, 2 * H + j) = g.dn * r;
        dhCarry(b, j) = g.dhDirect;
    }
    RNNPROF_HD void operator()(Index idx) const { at(idx / H, idx % H); }
};

// GRU reset_after = false, first half: dz and dn; then the caller computes drh = dn * W_hn.
template <class A, class T, bool Checked = true>
struct GruResetBeforeBackwardKernel {
    CRows<T> gates;  // [B, 3H] r, z, n
    CRows<T> hPrev;  // [B, H]
    CRows<T> dy;     // [B, H]
    Rows<T> dhCarry; // [B, H]
    CRows<T> dhRec;  // [B, H]
    CRows<T> mask;   // [B, H]
    Rows<T> dxp;     // [B, 3H] writes dz, dn
    Rows<T> dhp;     // [B, 3H] writes dz, dn
    Index H;
    A acts; // the cell's activations and their parameters

    RNNPROF_HD void at(Index b, Index j) const {
        const T dh =
            loadOr<Checked>(dy, b, j, T(0)) + dhCarry(b, j) + loadOr<Checked>(mask, b, j, T(1)) * dhRec(b, j);
        const auto g =
            gates::gruBackwardResetBefore(acts, gates(b, H + j), gates(b, 2 * H + j), hPrev(b, j), dh);
        dxp(b, H + j) = g.dz;
        dxp(b, 2 * H + j) = g.dn;
        dhp(b, H + j) = g.dz;
        dhp(b, 2 * H + j) = g.dn;
        dhCarry(b, j) = g.dhDirect;
    }
    RNNPROF_HD void operator()(Index idx) const { at(idx / H, idx % H); }
};

// Second half: dr from drh = dn * W_hn, and the r * drh part of the gradient of hRec (the caller
// then adds [dr, dz] * W_hh[0:2H] with beta = 1).
template <class A, class T>
struct GruResetBeforeResetKernel {
    CRows<T> gates;   // [B, 3H]
    CRows<T> hRec;    // [B, H]
    CRows<T> drh;     // [B, H]
    Rows<T> dxp;      // [B, 3H] writes dr
    Rows<T> dhp;      // [B, 3H] writes dr
    Rows<T> dhRecOut; // [B, H] r * drh
    Index H;
    A acts; // the cell's activations and their parameters

    RNNPROF_HD void at(Index b, Index j) const {
        const T r = gates(b, j);
        const T dr = gates::gruResetBeforeDr(acts, r, hRec(b, j), drh(b, j));
        dxp(b, j) = dr;
        dhp(b, j) = dr;
        dhRecOut(b, j) = r * drh(b, j);
    }
    RNNPROF_HD void operator()(Index idx) const { at(idx / H, idx % H); }
};

// After the first step (t = 0 forward, t = T-1 reverse): the gradient of the initial state.
template <class T, bool Checked = true>
struct InitialStateGradKernel {
    CRows<T> dhCarry; // [B, H]
    CRows<T> dhRec;   // [B, H]
    CRows<T> mask;    // [B, H]
    Rows<T> dh0;      // [B, H]
    Index H;

    RNNPROF_HD void at(Index b, Index j) const {
        dh0(b, j) = dhCarry(b, j) + loadOr<Checked>(mask, b, j, T(1)) * dhRec(b, j);
    }
    RNNPROF_HD void operator()(Index idx) const { at(idx / H, idx % H); }
};

// ---- elementwise helpers -----------------------------------------------------------------

// out(b, j) = in(b, j) * mask(b, j) (mask nullptr: copy). Dropout between layers, and the first
// step's recurrent input h0 * mask.
template <class T, bool Checked = true>
struct MaskKernel {
    CRows<T> in;
    CRows<T> mask;
    Rows<T> out;
    Index W; // row width

    RNNPROF_HD void at(Index b, Index j) const { out(b, j) = in(b, j) * loadOr<Checked>(mask, b, j, T(1)); }
    RNNPROF_HD void operator()(Index idx) const { at(idx / W, idx % W); }
};

// w[i] -= lr * g[i]: the SGD update over the whole flat parameter buffer.
template <class T>
struct SgdKernel {
    T* w;
    const T* g;
    T lr;
    RNNPROF_HD void operator()(Index i) const { w[i] -= lr * g[i]; }
};

// dy[i] = scale * (y[i] - target[i]) with scale = 2 / N: gradient of the mean squared error.
template <class T>
struct MseGradKernel {
    const T* y;
    const T* target;
    T* dy;
    T scale;
    RNNPROF_HD void operator()(Index i) const { dy[i] = scale * (y[i] - target[i]); }
};

} // namespace rnnprof::kernels

#pragma once
// Activations, their derivatives and the per-element LSTM/GRU cell updates, for host and device.
// Derivatives are computed from the activation's output (y), which is what backward passes keep.
// float uses a branch-free polynomial exp and rational tanh (a few ulp) so that loops vectorise;
// double uses the C library (the reference backend in double is the numerical oracle).
#include "engine/kernels/host_device.h"

#include <cstdint>
#include <math.h>
#if !defined(__CUDACC__)
#include <bit>
#endif

namespace rnnprof::gates {

enum class Act : int { Tanh, Relu, Sigmoid, HardSigmoid };

RNNPROF_HD float bitsToFloat(std::int32_t bits) {
#if defined(__CUDA_ARCH__)
    return __int_as_float(bits);
#elif defined(__CUDACC__)
    float f;
    __builtin_memcpy(&f, &bits, sizeof f);
    return f;
#else
    return std::bit_cast<float>(bits);
#endif
}

RNNPROF_HD float clampf(float x, float lo, float hi) {
    return x < lo ? lo : (x > hi ? hi : x);
}

RNNPROF_HD std::int32_t floatToBits(float f) {
#if defined(__CUDA_ARCH__)
    return __float_as_int(f);
#elif defined(__CUDACC__)
    std::int32_t bits;
    __builtin_memcpy(&bits, &f, sizeof bits);
    return bits;
#else
    return std::bit_cast<std::int32_t>(f);
#endif
}

// Cephes-style expf: range reduction by ln2 and a degree-6 polynomial; exact to about 2 ulp on
// [-87, 88], where e^x is a normal float; callers bound x to that range themselves (no clamp
// here to pay twice). Branch-free so compilers vectorise it. Must not be compiled with -ffast-math.
RNNPROF_HD float expApprox(float x) {
    // n = round(x / ln2) by the 1.5 * 2^23 trick: plain adds vectorise even on SSE2 (floorf does
    // not), and |r| <= ln2 / 2 as with Cephes' floor(x / ln2 + 0.5).
    constexpr float kRound = 12582912.0f;
    const float shifted = x * 1.44269504088896341f + kRound;
    const float n = shifted - kRound;
    float r = x - n * 0.693359375f;
    r = r - n * -2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + 1.0f;
    // 2^n without a float-to-int conversion: `shifted` has an ulp of 1 and kRound's low 9 bits
    // are zero, so its low bits hold n (-126..127) and the bias moves n + 127 into the exponent
    // field while kRound's own bits shift out.
    const std::uint32_t scale = (std::uint32_t(floatToBits(shifted)) + 127u) << 23;
    return p * bitsToFloat(std::int32_t(scale));
}

// Eigen's rational tanh (generic_fast_tanh_float): an odd degree-13 polynomial over an even
// degree-6 one on x clamped to +-7.905 (where float's tanh is 1), within 3.3e-7 relative of tanh
// (2.7e-7 with FMA; no cancellation near 0: the numerator is x times a polynomial). Half the
// operations of (1 - e^-2x) / (1 + e^-2x); the gate math was a fifth of the LSTM step at H=64.
RNNPROF_HD float tanhApprox(float x) {
    x = clampf(x, -7.90531110763549805f, 7.90531110763549805f);
    const float x2 = x * x;
    float p = -2.76076847742355e-16f;
    p = p * x2 + 2.00018790482477e-13f;
    p = p * x2 + -8.60467152213735e-11f;
    p = p * x2 + 5.12229709037114e-08f;
    p = p * x2 + 1.48572235717979e-05f;
    p = p * x2 + 6.37261928875436e-04f;
    p = p * x2 + 4.89352455891786e-03f;
    float q = 1.19825839466702e-06f;
    q = q * x2 + 1.18534705686654e-04f;
    q = q * x2 + 2.26843463243900e-03f;
    q = q * x2 + 4.89352518554385e-03f;
    return x * p / q;
}

RNNPROF_HD float sigmoidApprox(float x) {
    return 1.0f / (1.0f + expApprox(-clampf(x, -80.0f, 80.0f)));
}

RNNPROF_HD float tanhOf(float x) {
    return tanhApprox(x);
}
RNNPROF_HD double tanhOf(double x) {
    return ::tanh(x);
}
RNNPROF_HD float sigmoidOf(float x) {
    return sigmoidApprox(x);
}
RNNPROF_HD double sigmoidOf(double x) {
    return 1.0 / (1.0 + ::exp(-x));
}

// The run-time parameters of the activations that have one. Relu: y = x for x > 0, leak * x
// otherwise (leak = 0: plain ReLU, Keras' LeakyReLU(negative_slope) otherwise). HardSigmoid:
// y = clip(hardScale * x + 0.5, 0, 1); Keras 2 defines it with 0.2, Keras 3 with 1/6.
struct ActParams {
    double leak = 0.0;
    double hardScale = 0.2;
};

template <Act A, class T>
RNNPROF_HD T activate(T x, const ActParams& p = {}) {
    if constexpr (A == Act::Tanh)
        return tanhOf(x);
    else if constexpr (A == Act::Relu)
        return x > T(0) ? x : T(p.leak) * x;
    else if constexpr (A == Act::Sigmoid)
        return sigmoidOf(x);
    else {
        const T y = T(p.hardScale) * x + T(0.5);
        return y < T(0) ? T(0) : (y > T(1) ? T(1) : y);
    }
}

// d activate(x) / dx, written in terms of y = activate(x) (leak >= 0, so y > 0 exactly when x > 0).
template <Act A, class T>
RNNPROF_HD T derivativeFromOutput(T y, const ActParams& p = {}) {
    if constexpr (A == Act::Tanh)
        return T(1) - y * y;
    else if constexpr (A == Act::Relu)
        return y > T(0) ? T(1) : T(p.leak);
    else if constexpr (A == Act::Sigmoid)
        return y * (T(1) - y);
    else
        return (y > T(0) && y < T(1)) ? T(p.hardScale) : T(0);
}

// The two activations of a cell: `act` (tanh|relu) for candidates and the cell output, `rec`
// (sigmoid|hard_sigmoid) for the gates; their kinds are compile-time (no switch in inner loops),
// their parameters run-time values carried by the object.
template <Act ActV, Act RecV>
struct CellActs {
    static constexpr Act act = ActV;
    static constexpr Act rec = RecV;
    ActParams params;
    template <class T>
    RNNPROF_HD T a(T x) const {
        return activate<ActV>(x, params);
    }
    template <class T>
    RNNPROF_HD T r(T x) const {
        return activate<RecV>(x, params);
    }
    template <class T>
    RNNPROF_HD T da(T y) const {
        return derivativeFromOutput<ActV>(y, params);
    }
    template <class T>
    RNNPROF_HD T dr(T y) const {
        return derivativeFromOutput<RecV>(y, params);
    }
};

// ---- LSTM: gates i, f, g, o ----------------------------------------------------------------
template <class T>
struct LstmState {
    T i, f, g, o; // gate outputs
    T c;          // new cell state
    T h;          // new hidden state
};

// Pre-activations already include both projections and both biases.
template <class A, class T>
RNNPROF_HD LstmState<T> lstmForward(const A& acts, T pi, T pf, T pg, T po, T cPrev) {
    LstmState<T> s;
    s.i = acts.r(pi);
    s.f = acts.r(pf);
    s.g = acts.a(pg);
    s.o = acts.r(po);
    s.c = s.f * cPrev + s.i * s.g;
    s.h = s.o * acts.a(s.c);
    return s;
}

template <class T>
struct LstmGrads {
    T di, df, dg, dO; // gradients of the pre-activations
    T dcPrev;
};

// dh: total gradient reaching h_t; dcNext: gradient reaching c_t from step t+1.
template <class A, class T>
RNNPROF_HD LstmGrads<T> lstmBackward(const A& acts, T i, T f, T g, T o, T c, T cPrev, T dh, T dcNext) {
    const T actC = acts.a(c);
    const T dc = dcNext + dh * o * acts.da(actC);
    LstmGrads<T> r;
    r.dO = dh * actC * acts.dr(o);
    r.di = dc * g * acts.dr(i);
    r.df = dc * cPrev * acts.dr(f);
    r.dg = dc * i * acts.da(g);
    r.dcPrev = dc * f;
    return r;
}

// ---- GRU: gates r, z, n -------------------------------------------------------------------
// reset_after (cuDNN): n = act(xn + r * hn), hn = W_hn h + b_hn.
// reset_before (Keras reset_after=False): n = act(xn + W_hn (r * h) + b_hn); the caller computes
// the recurrent product of (r * h) between gruGates() and gruCandidate().
template <class T>
struct GruGates {
    T r, z;
};

template <class A, class T>
RNNPROF_HD GruGates<T> gruGates(const A& acts, T pr, T pz) {
    return {acts.r(pr), acts.r(pz)};
}

// Returns n; `preN` is the full pre-activation of the candidate.
template <class A, class T>
RNNPROF_HD T gruCandidate(const A& acts, T preN) {
    return acts.a(preN);
}

template <class T>
RNNPROF_HD T gruOutput(T z, T n, T hPrev) {
    return (T(1) - z) * n + z * hPrev;
}

template <class T>
struct GruGrads {
    T dr, dz;   // gradients of the r and z pre-activations
    T dn;       // gradient of the candidate's pre-activation
    T dhDirect; // gradient reaching h_{t-1} through z * h_{t-1}
};

// reset_after: hn is the recurrent candidate product (with b_hn). The gradient of that product is
// dn * r; the gradient of the input candidate projection is dn.
template <class A, class T>
RNNPROF_HD GruGrads<T> gruBackwardResetAfter(const A& acts, T r, T z, T n, T hn, T hPrev, T dh) {
    GruGrads<T> g;
    g.dn = dh * (T(1) - z) * acts.da(n);
    g.dz = dh * (hPrev - n) * acts.dr(z);
    g.dr = g.dn * hn * acts.dr(r);
    g.dhDirect = dh * z;
    return g;
}

// reset_before, first half: everything but dr, which needs W_hn^T dn (a GEMM) first.
template <class A, class T>
RNNPROF_HD GruGrads<T> gruBackwardResetBefore(const A& acts, T z, T n, T hPrev, T dh) {
    GruGrads<T> g;
    g.dn = dh * (T(1) - z) * acts.da(n);
    g.dz = dh * (hPrev - n) * acts.dr(z);
    g.dr = T(0);
    g.dhDirect = dh * z;
    return g;
}

// reset_before, second half: drh = (W_hn^T dn) for this element; hRec is the h the recurrent
// products saw (masked by recurrent dropout).
template <class A, class T>
RNNPROF_HD T gruResetBeforeDr(const A& acts, T r, T hRec, T drh) {
    return drh * hRec * acts.dr(r);
}

} // namespace rnnprof::gates

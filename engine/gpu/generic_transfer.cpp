#include "engine/gpu/generic_transfer.h"

namespace rnnprof::gpu {
namespace {

void put(const CopyFloats& copy, float* dst, const Tensor<float>& src) {
    if (dst && !src.empty()) copy(dst, src.ptr(), src.data.size());
}

Tensor<float> get(const CopyFloats& copy, std::vector<std::int64_t> shape, const float* src) {
    Tensor<float> t(std::move(shape));
    copy(t.ptr(), src, t.data.size());
    return t;
}

ParamSet<float> getParams(const CopyFloats& copy, const RnnConfig& config, const float* src) {
    ParamSet<float> p(config);
    copy(p.values.data(), src, p.values.size());
    return p;
}

} // namespace

void uploadGenericProblem(const GenericDims& d, const GenericBuffers& b, const ResolvedProblem<float>& host,
                          const ProblemOverrides& o, const CopyFloats& toDevice) {
    toDevice(b.params, host.params.values.data(), host.params.values.size());
    put(toDevice, b.x, host.data.x);
    put(toDevice, b.h0, host.data.h0);
    if (d.lstm) put(toDevice, b.c0, host.data.c0);
    put(toDevice, b.target, host.data.target);
    for (std::size_t i = 0; i < b.recurrentMask.size(); ++i)
        put(toDevice, b.recurrentMask[i], host.data.masks.recurrent[i]);
    for (std::size_t i = 0; i < b.betweenMask.size(); ++i)
        put(toDevice, b.betweenMask[i], host.data.masks.between[i]);
    if (b.ones) {
        const std::vector<float> ones(std::size_t(d.TB()), 1.0f);
        toDevice(b.ones, ones.data(), ones.size());
    }
    if (d.outputGradGiven) put(toDevice, b.dy, *o.outputGrad);
    if (b.dhN) put(toDevice, b.dhN, *o.hNGrad);
    if (b.dcN) put(toDevice, b.dcN, *o.cNGrad);
}

RunOutputs downloadGenericOutputs(const GenericDims& d, const GenericBuffers& b, const CopyFloats& toHost) {
    RunOutputs out;
    out.training = d.training;
    const std::vector<std::int64_t> states{d.L * d.D, d.B, d.H};
    out.y = get(toHost, {d.T, d.B, d.DH()}, b.y);
    out.hN = get(toHost, states, b.hN);
    if (d.lstm) out.cN = get(toHost, states, b.cN);
    if (!d.training) return out;
    if (!d.outputGradGiven) {
        float norm = 0.0f;
        toHost(&norm, b.lossNorm, 1);
        // dy = 2 (y - target) / N, so sum (y - target)^2 / N = ||dy||^2 N / 4.
        out.loss = double(norm) * double(norm) * double(d.TB() * d.DH()) / 4.0;
    }
    out.gradients.dParams = getParams(toHost, d.config, b.grads);
    if (d.inputGradients) {
        out.gradients.dx = get(toHost, {d.T, d.B, d.I}, b.dx);
        out.gradients.dh0 = get(toHost, states, b.dh0);
        if (d.lstm) out.gradients.dc0 = get(toHost, states, b.dc0);
    }
    out.paramsAfter = getParams(toHost, d.config, b.params);
    return out;
}

} // namespace rnnprof::gpu

#include "engine/cpu/blas_layout.h"

namespace rnnprof::cpu {

BlasLayout::BlasLayout(const Problem& p)
    : RecurrenceDims(RecurrenceDims::of(p)), paramCount(ParamLayout(p.config).totalSize()),
      bias(p.config.bias) {}

void declareBlasBuffers(const BlasLayout& l, std::int64_t projectionSteps, BlasBuffers& b,
                        const DeclareBlasBuffer& declare) {
    using C = BufferCategory;
    const auto allocate = [&](C c, std::int64_t n, auto& v) { declare(c, n, &v, BlasFill::Zeros); };
    const auto resolved = [&](C c, std::int64_t n, std::vector<float>& v) {
        declare(c, n, &v, BlasFill::Resolved);
    };
    const std::int64_t BH = l.B * l.H, states = l.L * l.D * BH;
    const std::vector<std::int64_t> stateShape{l.L * l.D, l.B, l.H};

    // weights, gradients
    resolved(C::Weights, l.paramCount, b.in.params.values);
    if (!l.bias) allocate(C::Weights, l.DGH(), b.zeros);
    if (l.training) allocate(C::Gradients, l.paramCount, b.grads.values);

    // io: what resolve() built (x, initial states, training target and dropout masks, counted as
    // gpu-generic counts them), the outputs, and in training the gradients of outputs and inputs.
    resolved(C::Io, l.TB() * l.I, b.in.data.x.data);
    resolved(C::Io, states, b.in.data.h0.data);
    if (l.lstm) resolved(C::Io, states, b.in.data.c0.data);
    if (l.training) resolved(C::Io, l.TB() * l.DH(), b.in.data.target.data);
    b.in.data.masks.recurrent.resize(std::size_t(l.recurrentDropout ? l.L * l.D : 0));
    for (auto& m : b.in.data.masks.recurrent)
        resolved(C::Io, BH, m.data);
    b.in.data.masks.between.resize(std::size_t(l.betweenDropout ? l.L - 1 : 0));
    for (auto& m : b.in.data.masks.between)
        resolved(C::Io, l.TB() * l.DH(), m.data);
    b.y.resize(std::size_t(l.L));
    allocate(C::Io, l.TB() * l.DH(), b.y.back()); // the last layer's output
    b.hN.shape = stateShape;
    allocate(C::Io, states, b.hN.data);
    if (l.lstm) {
        b.cN.shape = stateShape;
        allocate(C::Io, states, b.cN.data);
    }
    if (l.training) {
        allocate(C::Io, l.TB() * l.DH(), b.dy);
        b.dx.shape = {l.T, l.B, l.I};
        allocate(C::Io, l.TB() * l.I, b.dx.data);
        b.dh0.shape = stateShape;
        allocate(C::Io, states, b.dh0.data);
        if (l.lstm) {
            b.dc0.shape = stateShape;
            allocate(C::Io, states, b.dc0.data);
        }
    }

    // The outputs of the layers below the last: kept for backward in training, scratch otherwise.
    for (std::int64_t layer = 0; layer + 1 < l.L; ++layer)
        allocate(l.training ? C::Activations : C::Workspace, l.TB() * l.DH(), b.y[std::size_t(layer)]);
    if (l.training) {
        // Per layer and direction the gate values, the recurrent inputs, LSTM cell states, GRU
        // (reset before) r * h; per upper layer its input after dropout.
        b.kept.resize(std::size_t(l.L));
        for (std::int64_t layer = 0; layer < l.L; ++layer) {
            BlasBuffers::Kept& k = b.kept[std::size_t(layer)];
            for (int d = 0; d < l.D; ++d) {
                allocate(C::Activations, l.TB() * l.savedWidth(), k.saved[d]);
                allocate(C::Activations, l.TB() * l.H, k.hrec[d]);
                if (l.lstm) allocate(C::Activations, l.TB() * l.H, k.cells[d]);
                if (l.resetBefore()) allocate(C::Activations, l.TB() * l.H, k.rh[d]);
            }
            if (l.betweenDropout && layer > 0) allocate(C::Activations, l.TB() * l.DH(), k.maskedInput);
        }
    }

    // workspace: the input projection, the recurrent projection per direction, the unchecked
    // kernels' stand-ins (a mask of ones, one step's recurrent input).
    allocate(C::Workspace, projectionSteps * l.B * l.DGH(), b.xp);
    declare(C::Workspace, BH, &b.ones, BlasFill::Ones);
    for (int d = 0; d < l.D; ++d) {
        allocate(C::Workspace, l.B * l.GH(), b.hp[d]);
        allocate(C::Workspace, BH, b.scratchRec[d]);
    }
    if (l.training) {
        // Backward: gate gradients, GRU recurrent-gate gradients, carries.
        allocate(C::Workspace, l.TB() * l.DGH(), b.dxp);
        for (int d = 0; d < l.D; ++d) {
            if (!l.lstm) allocate(C::Workspace, l.TB() * 3 * l.H, b.dhp[d]);
            for (BlasBuffers::Buffer* v : {&b.dhCarry[d], &b.dhRec[d], &b.dcCarry[d], &b.drh[d]})
                allocate(C::Workspace, BH, *v);
        }
    } else {
        for (int d = 0; d < l.D; ++d) {
            if (l.lstm)
                for (auto& c : b.cstate[d])
                    allocate(C::Workspace, BH, c);
            if (l.resetBefore()) {
                allocate(C::Workspace, 3 * BH, b.stepGates[d]);
                allocate(C::Workspace, BH, b.stepRh[d]);
            }
        }
    }
}

MemoryFootprint blasFootprint(const BlasLayout& l, std::int64_t projectionSteps) {
    MemoryFootprint m;
    BlasBuffers none; // only the list's bookkeeping: no buffer is allocated
    declareBlasBuffers(l, projectionSteps, none,
                       [&](BufferCategory c, std::int64_t n, BlasBufferRef, BlasFill) {
                           m.add(c, std::uint64_t(n) * sizeof(float));
                       });
    return m;
}

} // namespace rnnprof::cpu

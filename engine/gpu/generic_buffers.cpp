#include "engine/gpu/generic_buffers.h"

#include <functional>

namespace rnnprof::gpu {
namespace {

constexpr std::int64_t kAlignFloats = 64;

std::int64_t aligned(std::int64_t n) {
    return (n + kAlignFloats - 1) / kAlignFloats * kAlignFloats;
}

using Allocate = std::function<float*(BufferCategory, std::int64_t)>;

// The one list of gpu-generic's buffers. `take` returns nullptr for zero elements.
GenericBuffers layout(const GenericDims& d, const Allocate& take) {
    using C = BufferCategory;
    GenericBuffers b;
    const std::int64_t slots = d.L * d.D, TB = d.TB(), BH = d.B * d.H, states = slots * BH;
    const std::int64_t paramCount = ParamLayout(d.config).totalSize();

    b.params = take(C::Weights, paramCount);
    if (d.training) b.grads = take(C::Gradients, paramCount);
    if (!d.config.bias) b.zeroBias = take(C::Weights, d.DGH());

    b.x = take(C::Io, TB * d.I);
    b.h0 = take(C::Io, states);
    if (d.lstm) b.c0 = take(C::Io, states);
    b.y = take(C::Io, TB * d.DH());
    b.hN = take(C::Io, states);
    if (d.lstm) b.cN = take(C::Io, states);
    if (d.training) {
        if (!d.outputGradGiven) b.target = take(C::Io, TB * d.DH());
        b.dy = take(C::Io, TB * d.DH());
        if (d.hNGradGiven) b.dhN = take(C::Io, states);
        if (d.cNGradGiven && d.lstm) b.dcN = take(C::Io, states);
        if (d.inputGradients) {
            b.dx = take(C::Io, TB * d.I);
            b.dh0 = take(C::Io, states);
            if (d.lstm) b.dc0 = take(C::Io, states);
        }
        b.lossNorm = take(C::Io, 1);
        if (d.config.bias) b.ones = take(C::Workspace, TB);
    }
    if (d.recurrentDropout)
        for (std::int64_t s = 0; s < slots; ++s)
            b.recurrentMask.push_back(take(C::Io, BH));
    if (d.betweenDropout)
        for (std::int64_t l = 1; l < d.L; ++l)
            b.betweenMask.push_back(take(C::Io, TB * d.DH()));

    b.layerOut.assign(std::size_t(d.L), nullptr);
    if (d.training) {
        for (std::int64_t l = 0; l + 1 < d.L; ++l)
            b.layerOut[std::size_t(l)] = take(C::Activations, TB * d.DH());
        b.layerOut.back() = b.y;
        b.layerIn.assign(std::size_t(d.L), nullptr);
        if (d.betweenDropout)
            for (std::int64_t l = 1; l < d.L; ++l)
                b.layerIn[std::size_t(l)] = take(C::Activations, TB * d.DH());
        for (std::int64_t s = 0; s < slots; ++s) {
            b.saved.push_back(take(C::Activations, TB * d.savedWidth()));
            b.hRec.push_back(take(C::Activations, TB * d.H));
            if (d.lstm) b.cells.push_back(take(C::Activations, TB * d.H));
            if (d.resetBefore()) b.rh.push_back(take(C::Activations, TB * d.H));
        }
    } else {
        // Inference keeps nothing: layers alternate between y and one spare buffer, arranged so
        // that the last layer writes y.
        float* spare = d.L > 1 ? take(C::Workspace, TB * d.DH()) : nullptr;
        for (std::int64_t l = 0; l < d.L; ++l)
            b.layerOut[std::size_t(l)] = (d.L - 1 - l) % 2 == 0 ? b.y : spare;
    }

    b.xp = take(C::Workspace, TB * d.DGH());
    b.hp = take(C::Workspace, d.B * d.GH());
    if (d.resetBefore()) b.hpn = take(C::Workspace, BH);
    if (!d.training) {
        if (d.lstm) b.cState = take(C::Workspace, BH);
        if (d.resetBefore()) {
            b.gatesScratch = take(C::Workspace, 3 * BH);
            b.rhScratch = take(C::Workspace, BH);
        }
    } else {
        b.dXP = take(C::Workspace, TB * d.DGH());
        if (!d.lstm) b.dHP = take(C::Workspace, TB * d.GH());
        if (d.L >= 2) b.dOutA = take(C::Workspace, TB * d.DH());
        if (d.L >= 3) b.dOutB = take(C::Workspace, TB * d.DH());
        b.dhCarry = take(C::Workspace, BH);
        if (d.lstm) b.dcCarry = take(C::Workspace, BH);
        b.dhRec = take(C::Workspace, BH);
        if (d.resetBefore()) b.drh = take(C::Workspace, BH);
    }
    return b;
}

} // namespace

GenericDims GenericDims::of(const Problem& p) {
    GenericDims d;
    static_cast<RecurrenceDims&>(d) = RecurrenceDims::of(p);
    d.config = p.config;
    d.inputGradients = d.training && p.inputGradients;
    d.outputGradGiven = d.training && p.overrides.outputGrad != nullptr;
    d.hNGradGiven = d.training && p.overrides.hNGrad != nullptr;
    d.cNGradGiven = d.training && d.lstm && p.overrides.cNGrad != nullptr;
    return d;
}

std::int64_t genericArenaElements(const GenericDims& dims) {
    std::int64_t total = 0;
    (void)layout(dims, [&](BufferCategory, std::int64_t n) -> float* {
        total += aligned(n);
        return nullptr;
    });
    return total;
}

GenericBuffers bindGenericBuffers(const GenericDims& dims, float* base) {
    std::int64_t offset = 0;
    return layout(dims, [&](BufferCategory, std::int64_t n) -> float* {
        if (n <= 0) return nullptr;
        float* p = base + offset;
        offset += aligned(n);
        return p;
    });
}

MemoryFootprint genericFootprint(const GenericDims& dims) {
    MemoryFootprint m;
    m.onDevice = true;
    (void)layout(dims, [&](BufferCategory c, std::int64_t n) -> float* {
        const std::uint64_t bytes = std::uint64_t(aligned(n)) * sizeof(float);
        m.add(c, bytes);
        return nullptr;
    });
    m.addNamed(std::string(kBufferCublasWorkspace), BufferCategory::Workspace, kCublasWorkspaceBytes);
    return m;
}

} // namespace rnnprof::gpu

#include "profiling/analysis/flops.h"

#include "engine/params.h"

#include <cmath>
#include <limits>

namespace rnnprof {
namespace {

using u64 = std::uint64_t;
constexpr u64 kMax = std::numeric_limits<u64>::max();

// Validated configurations stay far below 2^64; saturation only guards against misuse.
u64 mul(u64 a, u64 b) {
    u64 r = 0;
    return __builtin_mul_overflow(a, b, &r) ? kMax : r;
}
u64 add(u64 a, u64 b) {
    u64 r = 0;
    return __builtin_add_overflow(a, b, &r) ? kMax : r;
}

struct Sizes {
    u64 rows;   // T*B: the GEMMs of a layer run over every (t, b)
    u64 hidden; // H
    u64 gates;  // G*H: rows of W_ih and W_hh
    u64 dirs;
};

Sizes sizesOf(const RnnConfig& config, const Shape& shape) {
    requireValid(config, shape);
    const u64 h = u64(config.hiddenSize);
    return {mul(u64(shape.seqLen), u64(shape.batch)), h, mul(u64(gateCount(config.cell)), h),
            u64(directionCount(config))};
}

u64 biasPerUnit(const RnnConfig& config, u64 perGate) {
    return config.bias ? perGate * u64(gateCount(config.cell)) : 0;
}

} // namespace

u64 gemmFlops(u64 m, u64 n, u64 k) {
    return mul(2, mul(m, mul(n, k)));
}

u64 forwardFlops(const RnnConfig& config, const Shape& shape) {
    const Sizes s = sizesOf(config, shape);
    const u64 perUnit =
        (config.cell == CellType::Lstm ? flops::kLstmForwardPerUnit : flops::kGruForwardPerUnit) +
        biasPerUnit(config, flops::kBiasAddsPerGate);
    u64 total = 0;
    for (int layer = 0; layer < config.layers; ++layer) {
        const u64 in = u64(layerInputSize(config, layer));
        u64 direction = gemmFlops(s.rows, s.gates, in);                   // W_ih x_t
        direction = add(direction, gemmFlops(s.rows, s.gates, s.hidden)); // W_hh h_{t-1}
        direction = add(direction, mul(mul(s.rows, s.hidden), perUnit));
        total = add(total, mul(s.dirs, direction));
    }
    return total;
}

u64 backwardFlops(const RnnConfig& config, const Shape& shape, bool inputGradients) {
    const Sizes s = sizesOf(config, shape);
    const u64 perUnit =
        (config.cell == CellType::Lstm ? flops::kLstmBackwardPerUnit : flops::kGruBackwardPerUnit) +
        biasPerUnit(config, flops::kBiasGradAddsPerGate);
    u64 total = 0;
    for (int layer = 0; layer < config.layers; ++layer) {
        const u64 in = u64(layerInputSize(config, layer));
        u64 direction = gemmFlops(s.rows, s.gates, in);                   // dW_ih = dG^T x
        direction = add(direction, gemmFlops(s.rows, s.gates, s.hidden)); // dW_hh = dG^T h
        direction = add(direction, gemmFlops(s.rows, s.hidden, s.gates)); // dh_{t-1} = W_hh^T dG
        if (layer > 0 || inputGradients)
            direction = add(direction, gemmFlops(s.rows, in, s.gates)); // dx = W_ih^T dG
        direction = add(direction, mul(mul(s.rows, s.hidden), perUnit));
        total = add(total, mul(s.dirs, direction));
    }
    return total;
}

u64 lossFlops(const RnnConfig& config, const Shape& shape) {
    const Sizes s = sizesOf(config, shape);
    return mul(mul(s.rows, mul(s.dirs, s.hidden)), flops::kLossPerOutput);
}

u64 updateFlops(const RnnConfig& config) {
    requireValid(config);
    return mul(u64(ParamLayout(config).totalSize()), flops::kSgdPerParameter);
}

u64 trainingFlops(const RnnConfig& config, const Shape& shape, bool inputGradients) {
    return add(add(forwardFlops(config, shape), lossFlops(config, shape)),
               add(backwardFlops(config, shape, inputGradients), updateFlops(config)));
}

u64 iterationFlops(const RnnConfig& config, const Shape& shape, Mode mode) {
    return mode == Mode::Training ? trainingFlops(config, shape, false) : forwardFlops(config, shape);
}

namespace {
bool measured(double ms) {
    return std::isfinite(ms) && ms > 0.0;
}
} // namespace

double sequencesPerSecond(const Shape& shape, double ms) {
    return measured(ms) ? double(shape.batch) * 1000.0 / ms : 0.0;
}

double tokensPerSecond(const Shape& shape, double ms) {
    return measured(ms) ? double(shape.batch) * double(shape.seqLen) * 1000.0 / ms : 0.0;
}

double achievedGflops(u64 flops, double ms) {
    return measured(ms) ? double(flops) / (ms * 1e6) : 0.0;
}

} // namespace rnnprof

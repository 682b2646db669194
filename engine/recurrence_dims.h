#pragma once
// The one description of a recurrence that cpu-blas, cpu-onednn and gpu-generic share: the sizes of
// a problem, the switches that decide which buffers exist, and the walk of each direction over
// time. Backends keep their own extras beside it (by inheritance); none repeats these fields.
// Plain C++ without device code: the GPU backend uses it on the host, where it issues its kernels.
#include "engine/problem.h"

#include <cstdint>

namespace rnnprof {

// Where step s (0..T-1, in execution order) of direction dir lies in time: the forward direction
// walks t = 0..T-1, the reverse one t = T-1..0. prev and next are the times of the neighbouring
// steps in that walk; they fall outside [0, T) at the ends, where callers read h0/c0 instead.
struct TimeStep {
    std::int64_t t, prev, next;
};

[[nodiscard]] constexpr TimeStep timeStep(std::int64_t T, int dir, std::int64_t s) {
    const std::int64_t t = dir == 0 ? s : T - 1 - s;
    return {t, dir == 0 ? t - 1 : t + 1, dir == 0 ? t + 1 : t - 1};
}

struct RecurrenceDims {
    std::int64_t T = 1, B = 1, I = 1, H = 1;
    std::int64_t G = 4; // gates in the weights: LSTM 4, GRU 3
    std::int64_t D = 1, L = 1;
    bool training = false;
    bool lstm = true;
    bool resetAfter = true;        // GRU only
    bool recurrentDropout = false; // training with recurrent dropout > 0: one [B, H] mask per (layer, dir)
    bool betweenDropout = false;   // training with dropout > 0 and more than one layer

    [[nodiscard]] static RecurrenceDims of(const Problem& problem);

    [[nodiscard]] std::int64_t GH() const { return G * H; }
    [[nodiscard]] std::int64_t DH() const { return D * H; }
    [[nodiscard]] std::int64_t DGH() const { return D * G * H; }
    [[nodiscard]] std::int64_t TB() const { return T * B; }
    // Width of a layer's input: x for the first, the previous layer's output (both directions) above.
    [[nodiscard]] std::int64_t layerInput(std::int64_t layer) const { return layer == 0 ? I : D * H; }
    // Floats kept per (time, batch row) for backward: LSTM i,f,g,o; GRU r,z,n,hn (reset_after)
    // or r,z,n (reset_before).
    [[nodiscard]] std::int64_t savedWidth() const { return (lstm || resetAfter) ? 4 * H : 3 * H; }
    [[nodiscard]] bool resetBefore() const { return !lstm && !resetAfter; }
    [[nodiscard]] TimeStep step(int dir, std::int64_t s) const { return timeStep(T, dir, s); }
    // The time of a direction's first and last step.
    [[nodiscard]] std::int64_t firstTime(int dir) const { return step(dir, 0).t; }
    [[nodiscard]] std::int64_t lastTime(int dir) const { return step(dir, T - 1).t; }
};

inline RecurrenceDims RecurrenceDims::of(const Problem& p) {
    RecurrenceDims d;
    d.T = p.shape.seqLen;
    d.B = p.shape.batch;
    d.I = p.config.inputSize;
    d.H = p.config.hiddenSize;
    d.G = gateCount(p.config.cell);
    d.D = directionCount(p.config);
    d.L = p.config.layers;
    d.training = p.mode == Mode::Training;
    d.lstm = p.config.cell == CellType::Lstm;
    d.resetAfter = p.config.resetAfter;
    d.recurrentDropout = d.training && p.config.recurrentDropout > 0;
    d.betweenDropout = d.training && p.config.dropout > 0 && p.config.layers > 1;
    return d;
}

} // namespace rnnprof

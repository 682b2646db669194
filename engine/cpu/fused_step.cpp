#include "engine/cpu/fused_step.h"

#include <algorithm>

namespace rnnprof::cpu {

namespace {

Index blockCount(Index j0, Index j1, int lanes) {
    return (j1 - j0 + lanes - 1) / lanes;
}

} // namespace

Index fusedSliceFloats(Index hidden, int gates, Index j0, Index j1, Isa isa) {
    const int lanes = fusedLanes(isa);
    return blockCount(j0, j1, lanes) * fusedBlockFloats(hidden, gates, lanes);
}

void packFusedSlice(const FusedPackArgs& a, Isa isa, float* out) {
    const int lanes = fusedLanes(isa);
    const Index H = a.hidden, G = a.gates;
    const bool gru = G == 3;
    const bool gateMajor = a.order == FusedOrder::GateMajor;
    std::fill_n(out, fusedSliceFloats(H, a.gates, a.j0, a.j1, isa), 0.0f);
    const Index blocks = blockCount(a.j0, a.j1, lanes);
    for (Index blk = 0; blk < blocks; ++blk) {
        float* w = out + blk * fusedBlockFloats(H, a.gates, lanes);
        float* bias = w + H * G * lanes;
        for (Index l = 0; l < lanes; ++l) {
            const Index j = a.j0 + blk * lanes + l;
            if (j >= a.j1) break; // zero padding
            for (Index g = 0; g < G; ++g) {
                const float* row = a.whh + (g * H + j) * H;
                for (Index k = 0; k < H; ++k)
                    w[(gateMajor ? g * H + k : k * G + g) * lanes + l] = row[k];
                const bool candidate = gru && g == 2; // b_hn goes inside r * (W_hn h + b_hn)
                bias[g * lanes + l] = a.bih[g * H + j] + (candidate ? 0.0f : a.bhh[g * H + j]);
            }
            if (gru) bias[G * lanes + l] = a.bhh[2 * H + j];
        }
    }
}

} // namespace rnnprof::cpu

#include "engine/cpu/onednn_params.h"

#include <algorithm>
#include <cstdint>

namespace rnnprof::cpu {

std::array<int, 4> oneDnnGateOrder(CellType cell) {
    // oneDNN's GRU: u_t (update, canonical z), r_t (reset), o_t (candidate, canonical n).
    return cell == CellType::Lstm ? std::array<int, 4>{0, 1, 2, 3} : std::array<int, 4>{1, 0, 2, 3};
}

int oneDnnBiasGates(const RnnConfig& config) {
    return config.cell == CellType::Lstm || config.resetAfter ? 4 : 3;
}

void weightsToOneDnn(CellType cell, int hidden, int cols, const float* canonical, float* ldgoi) {
    const auto order = oneDnnGateOrder(cell);
    const std::int64_t block = std::int64_t(hidden) * cols;
    for (int g = 0; g < gateCount(cell); ++g)
        std::copy_n(canonical + order[std::size_t(g)] * block, block, ldgoi + g * block);
}

void weightsFromOneDnn(CellType cell, int hidden, int cols, const float* ldgoi, float* canonical) {
    const auto order = oneDnnGateOrder(cell);
    const std::int64_t block = std::int64_t(hidden) * cols;
    for (int g = 0; g < gateCount(cell); ++g)
        std::copy_n(ldgoi + g * block, block, canonical + order[std::size_t(g)] * block);
}

void biasToOneDnn(const RnnConfig& config, const float* biasIh, const float* biasHh, float* ldgo) {
    const int H = config.hiddenSize;
    const int G = gateCount(config.cell);
    const auto order = oneDnnGateOrder(config.cell);
    const bool lbr = config.cell == CellType::Gru && config.resetAfter;
    std::fill_n(ldgo, std::int64_t(oneDnnBiasGates(config)) * H, 0.0f);
    if (!biasIh || !biasHh) return;
    for (int g = 0; g < G; ++g) {
        const std::int64_t src = std::int64_t(order[std::size_t(g)]) * H;
        float* dst = ldgo + std::int64_t(g) * H;
        // The linear-before-reset candidate: o holds b_in only, the fourth vector b_hn.
        const bool splitCandidate = lbr && g == 2;
        for (int j = 0; j < H; ++j)
            dst[j] = splitCandidate ? biasIh[src + j] : biasIh[src + j] + biasHh[src + j];
    }
    if (lbr) std::copy_n(biasHh + 2 * std::int64_t(H), H, ldgo + 3 * std::int64_t(H));
}

void biasGradientFromOneDnn(const RnnConfig& config, const float* ldgoDiff, float* dBiasIh, float* dBiasHh) {
    if (!dBiasIh || !dBiasHh) return;
    const int H = config.hiddenSize;
    const int G = gateCount(config.cell);
    const auto order = oneDnnGateOrder(config.cell);
    const bool lbr = config.cell == CellType::Gru && config.resetAfter;
    for (int g = 0; g < G; ++g) {
        const std::int64_t dst = std::int64_t(order[std::size_t(g)]) * H;
        const float* src = ldgoDiff + std::int64_t(g) * H;
        std::copy_n(src, H, dBiasIh + dst);
        std::copy_n(lbr && g == 2 ? ldgoDiff + 3 * std::int64_t(H) : src, H, dBiasHh + dst);
    }
}

void sgdBiasFromOneDnn(const RnnConfig& config, const float* ldgoDiff, float learningRate, float* biasIh,
                       float* biasHh) {
    const int H = config.hiddenSize;
    const int G = gateCount(config.cell);
    const auto order = oneDnnGateOrder(config.cell);
    const bool lbr = config.cell == CellType::Gru && config.resetAfter;
    for (int g = 0; g < G; ++g) {
        const std::int64_t dst = std::int64_t(order[std::size_t(g)]) * H;
        const float* dIh = ldgoDiff + std::int64_t(g) * H;
        const float* dHh = lbr && g == 2 ? ldgoDiff + 3 * std::int64_t(H) : dIh;
        for (int j = 0; j < H; ++j) {
            biasIh[dst + j] -= learningRate * dIh[j];
            biasHh[dst + j] -= learningRate * dHh[j];
        }
    }
}

} // namespace rnnprof::cpu

#pragma once
// Sizes of every buffer the cpu-blas session allocates, computed once from the problem, so that
// estimateMemory() and the allocation agree by construction.
#include "engine/backend.h"

#include <cstdint>

namespace rnnprof::cpu {

struct BlasLayout {
    std::int64_t T = 0, B = 0, I = 0, H = 0, G = 0, D = 0, L = 0;
    bool training = false;
    bool lstm = false;
    bool resetAfter = true;      // GRU
    bool betweenDropout = false; // training with dropout > 0 and layers > 1
    bool recurrentDropout = false;
    std::int64_t savedWidth = 0; // per direction and step: LSTM 4H (i,f,g,o), GRU 4H (r,z,n,hn) or 3H

    explicit BlasLayout(const Problem& problem);
    [[nodiscard]] std::int64_t GH() const { return G * H; }
    [[nodiscard]] std::int64_t DH() const { return D * H; }
    [[nodiscard]] std::int64_t DGH() const { return D * G * H; }
    [[nodiscard]] std::int64_t TB() const { return T * B; }
    [[nodiscard]] std::int64_t layerInput(std::int64_t layer) const { return layer == 0 ? I : D * H; }
    [[nodiscard]] MemoryFootprint footprint(std::int64_t paramCount) const;
};

} // namespace rnnprof::cpu

#pragma once
// A model of given sizes in one call, the other fields at their defaults: the shape tests vary.
#include "engine/config.h"

namespace rnnprof::test {

inline RnnConfig sizedModel(CellType cell, int input, int hidden, int layers = 1, bool bidirectional = false,
                            bool bias = true) {
    RnnConfig c;
    c.cell = cell;
    c.inputSize = input;
    c.hiddenSize = hidden;
    c.layers = layers;
    c.bidirectional = bidirectional;
    c.bias = bias;
    return c;
}

} // namespace rnnprof::test

#pragma once
// What the cpu-blas tests share: inference problems built field by field, and a look into a
// session's notes.
#include "engine/problem.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace rnnprof::test {

// An inference problem of `layers` layers; the shape is the caller's.
[[nodiscard]] inline Problem inferenceProblem(CellType cell, int inputSize, int hidden, int layers, int seed,
                                              int threads) {
    Problem p;
    p.config.cell = cell;
    p.config.inputSize = inputSize;
    p.config.hiddenSize = hidden;
    p.config.layers = layers;
    p.config.seed = seed;
    p.mode = Mode::Inference;
    p.options.threads = threads;
    return p;
}

// Whether one of a session's notes contains `text`.
[[nodiscard]] inline bool hasNote(const std::vector<std::string>& notes, std::string_view text) {
    return std::any_of(notes.begin(), notes.end(),
                       [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

} // namespace rnnprof::test

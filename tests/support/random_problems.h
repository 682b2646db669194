#pragma once
// Deterministic random problems for conformance tests: cells x layers 1-3 x uni/bi x every cell
// option x batch 1..33 x seq 1..40, training and inference; and random operands for the GEMM tests.
#include "engine/problem.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rnnprof::test {

struct RandomProblemOptions {
    int count = 40;
    std::uint64_t seed = 2026;
    bool withOptions = true; // activation, recurrent activation, dropouts, reset_after, bias
};

[[nodiscard]] std::vector<Problem> randomProblems(const RandomProblemOptions& options);
[[nodiscard]] std::string describeProblem(const Problem& problem);

// n floats drawn uniformly from [-1, 1), the same for the same seed.
[[nodiscard]] std::vector<float> randomFloats(std::int64_t n, unsigned seed);

} // namespace rnnprof::test

#include "support/random_problems.h"

#include "engine/random.h"

#include <random>

namespace rnnprof::test {

std::vector<Problem> randomProblems(const RandomProblemOptions& options) {
    SplitMix64 rng(options.seed);
    auto pick = [&](int lo, int hi) { return lo + int(rng.next() % std::uint64_t(hi - lo + 1)); };
    std::vector<Problem> out;
    for (int i = 0; i < options.count; ++i) {
        Problem p;
        RnnConfig& c = p.config;
        c.cell = pick(0, 1) ? CellType::Gru : CellType::Lstm;
        c.layers = pick(1, 3);
        c.bidirectional = pick(0, 1);
        c.inputSize = pick(1, 24);
        c.hiddenSize = pick(1, 24);
        c.seed = rng.next();
        if (options.withOptions) {
            c.bias = pick(0, 4) != 0;
            const int act = pick(0, 5), rec = pick(0, 5);
            c.activation = act == 0 ? Activation::Relu : act == 1 ? Activation::LeakyRelu : Activation::Tanh;
            c.negativeSlope = 0.05 * double(1 + c.seed % 4);
            c.recurrentActivation = rec == 0   ? RecurrentActivation::HardSigmoid
                                    : rec == 1 ? RecurrentActivation::HardSigmoidKeras3
                                               : RecurrentActivation::Sigmoid;
            c.recurrentDropout = pick(0, 3) == 0 ? 0.3 : 0.0;
            c.dropout = pick(0, 3) == 0 ? 0.25 : 0.0;
            c.resetAfter = pick(0, 2) != 0;
        }
        p.shape.batch = pick(1, 33);
        p.shape.seqLen = pick(1, 40);
        p.mode = pick(0, 1) ? Mode::Training : Mode::Inference;
        p.inputGradients = true;
        p.options.learningRate = 0.1;
        p.options.threads = pick(1, 2);
        out.push_back(p);
    }
    return out;
}

std::string describeProblem(const Problem& p) {
    return describe(p.config) + ", B=" + std::to_string(p.shape.batch) +
           " T=" + std::to_string(p.shape.seqLen) + " " + std::string(toString(p.mode)) + " (seed " +
           std::to_string(p.config.seed) + ")";
}

std::vector<float> randomFloats(std::int64_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::vector<float> v(static_cast<std::size_t>(n));
    for (float& x : v)
        x = uniform(rng);
    return v;
}

} // namespace rnnprof::test

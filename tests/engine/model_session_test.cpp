// A model of several layers run on one backend: the homogeneous stack is exactly the backend's own
// session; every CPU backend runs a stack of different sizes (with dropout and a dense head) as
// cpu-reference does; a layer a backend cannot run makes the model ineligible naming the layer;
// the dense head against a double-precision loop and finite differences; dropout against its mask.
#include "engine/model_session.h"

#include "support/compare.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

namespace rnnprof {
namespace {

using ::testing::HasSubstr;

ModelSpec model(int inputSize, std::initializer_list<const char*> layers) {
    ModelSpec m;
    m.inputSize = inputSize;
    for (const char* text : layers) {
        const LayerParse p = parseLayer(text);
        EXPECT_TRUE(p.layer) << p.error;
        if (p.layer) m.layers.push_back(*p.layer);
    }
    return m;
}

const Backend* availableBackend(const char* id) {
    const Backend* b = builtinBackends().find(id);
    return b && b->availability().available ? b : nullptr;
}

std::vector<const Backend*> cpuBackends() {
    std::vector<const Backend*> out;
    for (const Backend* b : builtinBackends().all())
        if (!b->isGpu() && b->availability().available) out.push_back(b);
    return out;
}

ModelProblem problemOf(ModelSpec m, Shape shape, Mode mode) {
    ModelProblem p;
    p.model = std::move(m);
    p.shape = shape;
    p.mode = mode;
    p.options.threads = 1;
    return p;
}

// Counts the phases a run marks.
struct PhaseCounter final : PhaseHook {
    std::array<int, kPhaseCount> begun{};
    void beginPhase(Phase p) override { ++begun[std::size_t(p)]; }
};

TEST(ModelSession, TheHomogeneousStackRunsExactlyTheBackendsOwnSession) {
    RnnConfig c;
    c.inputSize = 8;
    c.hiddenSize = 16;
    c.layers = 2;
    c.bidirectional = true;
    for (const Backend* backend : cpuBackends())
        for (Mode mode : {Mode::Inference, Mode::Training}) {
            SCOPED_TRACE(std::string(backend->id()) + " " + std::string(toString(mode)));
            const ModelProblem p = problemOf(modelOf(c), {3, 5}, mode);
            auto session = prepareModel(*backend, p);
            ASSERT_EQ(session->stageCount(), 1);
            Problem single;
            single.config = c;
            single.shape = p.shape;
            single.mode = mode;
            single.options = p.options;
            auto own = backend->prepare(single);
            NullPhaseHook hook;
            session->run(hook);
            own->run(hook);
            EXPECT_EQ(session->outputs().y, own->outputs().y);
            EXPECT_EQ(session->outputs().loss, own->outputs().loss);
            EXPECT_EQ(session->memory(), own->memory());
            EXPECT_EQ(session->notes(), own->notes());
            EXPECT_EQ(estimateModelMemory(*backend, p), backend->estimateMemory(single));
        }
}

// Three recurrent layers of different sizes and cells, dropout and a dense head: the model's
// output (inference, each stage reading the one before) and every stage's outputs and input
// gradients (training) as cpu-reference computes them.
TEST(ModelSession, EveryCpuBackendRunsAStackOfDifferentSizesAsTheReferenceDoes) {
    const Backend* reference = availableBackend("cpu-reference");
    ASSERT_NE(reference, nullptr);
    const ModelSpec m = model(6, {"lstm:16", "gru:24:bi", "dropout:0.3", "lstm:8:last", "dense:5:tanh"});
    for (Mode mode : {Mode::Inference, Mode::Training}) {
        const ModelProblem p = problemOf(m, {4, 7}, mode);
        auto want = prepareModel(*reference, p);
        ASSERT_EQ(want->stageCount(), 5);
        NullPhaseHook hook;
        want->run(hook);
        for (const Backend* backend : cpuBackends()) {
            SCOPED_TRACE(std::string(backend->id()) + " " + std::string(toString(mode)));
            auto got = prepareModel(*backend, p);
            got->run(hook);
            EXPECT_EQ(got->outputs().y.shape, (std::vector<std::int64_t>{4, 5})); // one row per sequence
            EXPECT_TRUE(test::tensorsClose(got->outputs().y, want->outputs().y, 1e-4, "model output"));
            if (mode != Mode::Training) continue;
            for (int k = 0; k < got->stageCount(); ++k) {
                SCOPED_TRACE(got->stage(k).firstLayer);
                const RunOutputs g = got->stageSession(k).outputs(), w = want->stageSession(k).outputs();
                EXPECT_TRUE(test::tensorsClose(g.y, w.y, 1e-4, "stage output"));
                if (k == 0) continue; // nothing below the first layer needs its input's gradient
                EXPECT_FALSE(g.gradients.dx.empty());
                EXPECT_TRUE(test::tensorsClose(g.gradients.dx, w.gradients.dx, 1e-4, "input gradient"));
            }
            EXPECT_NEAR(got->outputs().loss, want->outputs().loss, 1e-5 * std::abs(want->outputs().loss));
        }
    }
}

TEST(ModelSession, ALayerABackendCannotRunMakesTheModelIneligibleNamingTheLayer) {
    const ModelSpec m = model(8, {"lstm:64:leaky_relu=0.05", "dropout:0.2", "lstm:32:last", "dense:8"});
    if (const Backend* onednn = availableBackend("cpu-onednn")) {
        const auto reasons = modelUnsupportedReasons(*onednn, m, Mode::Training);
        ASSERT_EQ(reasons.size(), 1u);
        EXPECT_THAT(reasons[0],
                    HasSubstr("layers[0] (LSTM 64, leaky_relu(0.05)/sigmoid): oneDNN's LSTM primitive "
                              "only implements activation=tanh (got activation=leaky_relu)"));
        try {
            (void)prepareModel(*onednn, problemOf(m, {1, 3}, Mode::Training));
            FAIL() << "cpu-onednn prepared a leaky ReLU LSTM";
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
            EXPECT_THAT(e.what(), HasSubstr("layers[0] (LSTM 64"));
        }
    }
    EXPECT_THAT(modelUnsupportedReasons(*builtinBackends().find("cpu-blas"), m, Mode::Training),
                ::testing::IsEmpty());
    for (const char* gpu : {"gpu-generic", "gpu-cudnn"}) {
        const auto reasons = modelUnsupportedReasons(*builtinBackends().find(gpu), m, Mode::Inference);
        ASSERT_FALSE(reasons.empty()) << gpu;
        EXPECT_THAT(reasons[0],
                    HasSubstr("runs a model of one recurrent call only so far; this one needs 4 "
                              "(layers[0] (LSTM 64, leaky_relu(0.05)/sigmoid), layers[1] (dropout 0.2)"));
    }
}

TEST(ModelSession, AModelMarksEveryStagesPhasesAndTimesEachStage) {
    const Backend* blas = availableBackend("cpu-blas");
    ASSERT_NE(blas, nullptr);
    const ModelSpec m = model(8, {"lstm:12", "dropout:0.2", "gru:6", "dense:3"});
    for (Mode mode : {Mode::Inference, Mode::Training}) {
        auto session = prepareModel(*blas, problemOf(m, {2, 3}, mode));
        PhaseCounter counter;
        session->run(counter);
        EXPECT_EQ(counter.begun[0], 4); // every stage runs forward, dropout included
        EXPECT_EQ(counter.begun[1], mode == Mode::Training ? 4 : 0);
        EXPECT_EQ(counter.begun[2], mode == Mode::Training ? 3 : 0); // dropout has nothing to update
        for (int k = 0; k < session->stageCount(); ++k)
            EXPECT_TRUE(std::isfinite(session->stageMs(k)) && session->stageMs(k) >= 0.0);
        EXPECT_THAT(
            session->notes().front(),
            HasSubstr("model run as 4 calls: layers[0] (LSTM 12, tanh/sigmoid), layers[1] (dropout 0.2)"));
    }
}

// Hand-derived: weights units*in + units floats, the input and output rows; training adds the
// gradients, dy and dz, the target and the input gradient.
TEST(HostStages, ADenseLayersFootprintIsItsBuffers) {
    HostStageSetup s;
    s.layer = *parseLayer("dense:8").layer;
    s.inputWidth = 32;
    s.rows = 10;
    const MemoryFootprint infer = hostStageFootprint(s);
    EXPECT_EQ(infer.weights, (8u * 32 + 8) * 4);
    EXPECT_EQ(infer.io, (10u * 32 + 10 * 8) * 4);
    EXPECT_EQ(infer.gradients, 0u);
    s.mode = Mode::Training;
    s.inputGradients = true;
    const MemoryFootprint train = hostStageFootprint(s);
    EXPECT_EQ(train.gradients, (8u * 32 + 8) * 4);
    EXPECT_EQ(train.workspace, 2u * 10 * 8 * 4);
    EXPECT_EQ(train.io, (10u * 32 + 10 * 8 + 10 * 8 + 10 * 32) * 4);
}

HostStageSetup denseSetup(const char* layer, Mode mode, const Tensor<float>& x) {
    HostStageSetup s;
    s.layer = *parseLayer(layer).layer;
    s.inputWidth = int(x.shape[1]);
    s.rows = x.shape[0];
    s.mode = mode;
    s.seed = 9;
    s.last = true;
    s.inputGradients = true;
    s.options.threads = 1;
    s.input = x;
    return s;
}

double activation(DenseActivation a, double z) {
    switch (a) {
    case DenseActivation::Relu:
        return z > 0 ? z : 0;
    case DenseActivation::Tanh:
        return std::tanh(z);
    case DenseActivation::Sigmoid:
        return 1 / (1 + std::exp(-z));
    default:
        return z;
    }
}

TEST(HostStages, ADenseLayerComputesActOfXWPlusBAsADoubleLoopDoes) {
    const Tensor<float> x = seededUniform<float>({3, 4}, 5, 1.0);
    for (const char* text :
         {"dense:5", "dense:5:relu", "dense:5:tanh", "dense:5:sigmoid", "dense:5:softmax:no_bias"}) {
        SCOPED_TRACE(text);
        const HostStageSetup s = denseSetup(text, Mode::Inference, x);
        const DenseParams w = seededDenseParams(s.layer, 4, s.seed);
        auto stage = makeHostStage(s);
        NullPhaseHook hook;
        stage->run(hook);
        const Tensor<float> y = stage->outputs().y;
        ASSERT_EQ(y.shape, (std::vector<std::int64_t>{3, 5}));
        for (int r = 0; r < 3; ++r) {
            std::vector<double> z(5);
            double sum = 0;
            for (int j = 0; j < 5; ++j) {
                z[std::size_t(j)] = w.bias.data[std::size_t(j)];
                for (int k = 0; k < 4; ++k)
                    z[std::size_t(j)] +=
                        double(w.weight.data[std::size_t(j * 4 + k)]) * x.data[std::size_t(r * 4 + k)];
                sum += std::exp(z[std::size_t(j)]);
            }
            for (int j = 0; j < 5; ++j) {
                const double want = s.layer.denseActivation == DenseActivation::Softmax
                                        ? std::exp(z[std::size_t(j)]) / sum
                                        : activation(s.layer.denseActivation, z[std::size_t(j)]);
                EXPECT_NEAR(y.data[std::size_t(r * 5 + j)], want, 2e-6) << r << "," << j;
            }
        }
    }
}

// d loss / d x of the MSE loss at the dense layer's output against central differences of the loss.
TEST(HostStages, ADenseLayersInputGradientMatchesFiniteDifferencesOfTheLoss) {
    const Tensor<float> x = seededUniform<float>({3, 4}, 6, 1.0);
    for (const char* text : {"dense:5", "dense:5:tanh", "dense:5:sigmoid", "dense:5:softmax"}) {
        SCOPED_TRACE(text);
        const auto lossAt = [&](const Tensor<float>& at) {
            auto stage = makeHostStage(denseSetup(text, Mode::Training, at));
            NullPhaseHook hook;
            stage->run(hook);
            return stage->outputs();
        };
        const Tensor<float> dx = lossAt(x).gradients.dx;
        ASSERT_EQ(dx.shape, x.shape);
        const float h = 1e-2f;
        Tensor<double> numeric(x.shape);
        for (std::size_t i = 0; i < x.data.size(); ++i) {
            Tensor<float> up = x, down = x;
            up.data[i] += h;
            down.data[i] -= h;
            numeric.data[i] = (lossAt(up).loss - lossAt(down).loss) / (2.0 * h);
        }
        EXPECT_TRUE(test::tensorsClose(dx, numeric, 2e-3, "dx"));
    }
}

TEST(HostStages, DropoutPassesItsInputInInferenceAndMasksItInTraining) {
    const Tensor<float> x = seededUniform<float>({50, 40}, 7, 1.0);
    HostStageSetup s;
    s.layer = *parseLayer("dropout:0.25").layer;
    s.inputWidth = 40;
    s.rows = 50;
    s.input = x;
    NullPhaseHook hook;
    auto infer = makeHostStage(s);
    infer->run(hook);
    EXPECT_EQ(infer->outputs().y, x);
    s.mode = Mode::Training;
    auto train = makeHostStage(s);
    train->run(hook);
    const Tensor<float> y = train->outputs().y;
    int dropped = 0;
    for (std::size_t i = 0; i < x.data.size(); ++i) {
        if (y.data[i] == 0.0f)
            ++dropped;
        else
            EXPECT_FLOAT_EQ(y.data[i], x.data[i] / 0.75f);
    }
    // 2000 draws at p = 0.25: 500 expected, 4.5 standard deviations (19.4 each) either side.
    EXPECT_GT(dropped, 413);
    EXPECT_LT(dropped, 587);
}

} // namespace
} // namespace rnnprof

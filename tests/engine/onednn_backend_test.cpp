// The cpu-onednn backend: what it refuses and why, and that what it runs matches cpu-reference
// (double) in the cases the random conformance suite may miss: bias off, bidirectional stacks with
// dropout, input gradients on/off, overrides, repeated runs, memory accounting, phase marks.
#include "engine/backend.h"
#include "engine/cpu/gemm.h"
#include "engine/error.h"
#include "engine/host_memory.h"
#include "engine/reference/reference_rnn.h"
#include "support/compare.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace rnnprof {
namespace {

using test::tensorsClose;

constexpr double kTol = 1e-4;

const Backend& oneDnn() {
    const Backend* b = builtinBackends().find("cpu-onednn");
    if (!b) throw std::runtime_error("cpu-onednn is not registered");
    return *b;
}

Problem smallProblem(CellType cell, Mode mode) {
    Problem p;
    p.config.cell = cell;
    p.config.inputSize = 7;
    p.config.hiddenSize = 9;
    p.config.seed = 1234;
    p.shape = {5, 6};
    p.mode = mode;
    p.inputGradients = true;
    p.options.learningRate = 0.1;
    p.options.threads = 2;
    return p;
}

Tensor<double> flat(const ParamSet<double>& p) {
    Tensor<double> t({std::int64_t(p.values.size())});
    t.data = p.values;
    return t;
}

// Runs `problem` once on cpu-onednn and compares everything with the double reference.
RunOutputs expectMatchesReference(const Problem& problem) {
    auto session = oneDnn().prepare(problem);
    NullPhaseHook hook;
    session->run(hook);
    RunOutputs out = session->outputs();
    const auto ref = reference::runIteration<double>(problem);
    EXPECT_TRUE(tensorsClose(out.y.cast<double>(), ref.y, kTol, "y"));
    EXPECT_TRUE(tensorsClose(out.hN.cast<double>(), ref.hN, kTol, "h_n"));
    if (problem.config.cell == CellType::Lstm) {
        EXPECT_TRUE(tensorsClose(out.cN.cast<double>(), ref.cN, kTol, "c_n"));
    }
    if (problem.mode != Mode::Training) return out;
    EXPECT_NEAR(out.loss, ref.loss, kTol * std::max(1.0, ref.loss));
    for (const auto& spec : ref.gradients.dParams.layout.specs()) {
        Tensor<double> got({spec.size()}), want({spec.size()});
        std::copy_n(out.gradients.dParams.data(spec), spec.size(), got.data.begin());
        std::copy_n(ref.gradients.dParams.data(spec), spec.size(), want.data.begin());
        EXPECT_TRUE(tensorsClose(got, want, kTol, "grad_" + spec.name));
    }
    if (problem.inputGradients) {
        EXPECT_TRUE(tensorsClose(out.gradients.dx.cast<double>(), ref.gradients.dx, kTol, "dx"));
        EXPECT_TRUE(tensorsClose(out.gradients.dh0.cast<double>(), ref.gradients.dh0, kTol, "dh0"));
        if (problem.config.cell == CellType::Lstm) {
            EXPECT_TRUE(tensorsClose(out.gradients.dc0.cast<double>(), ref.gradients.dc0, kTol, "dc0"));
        }
    }
    EXPECT_TRUE(
        tensorsClose(flat(out.paramsAfter.cast<double>()), flat(ref.paramsAfter), kTol, "params after SGD"));
    return out;
}

// The three cell formulas oneDNN has: LSTM, GRU reset_after (linear-before-reset), GRU reset_before.
std::vector<RnnConfig> cellVariants() {
    RnnConfig lstm, gruAfter, gruBefore;
    gruAfter.cell = gruBefore.cell = CellType::Gru;
    gruBefore.resetAfter = false;
    return {lstm, gruAfter, gruBefore};
}

TEST(OneDnnBackend, IsRegisteredRightAfterCpuBlas) {
    const auto ids = builtinBackends().ids();
    const auto blas = std::find(ids.begin(), ids.end(), "cpu-blas");
    ASSERT_NE(blas, ids.end());
    ASSERT_NE(blas + 1, ids.end());
    EXPECT_EQ(*(blas + 1), "cpu-onednn");
    EXPECT_TRUE(oneDnn().availability().available);
    EXPECT_FALSE(oneDnn().isGpu());
}

TEST(OneDnnBackend, RefusesReluActivationSayingWhatToUse) {
    for (const CellType cell : {CellType::Lstm, CellType::Gru}) {
        RnnConfig c;
        c.cell = cell;
        c.activation = Activation::Relu;
        const auto reasons = oneDnn().unsupportedReasons(c, Mode::Inference);
        ASSERT_EQ(reasons.size(), 1u);
        EXPECT_NE(reasons[0].find("activation=relu"), std::string::npos) << reasons[0];
        EXPECT_NE(reasons[0].find("tanh"), std::string::npos) << reasons[0];
        EXPECT_NE(reasons[0].find("use cpu-blas"), std::string::npos) << reasons[0];
    }
}

TEST(OneDnnBackend, RefusesHardSigmoidSayingWhatToUse) {
    RnnConfig c;
    c.recurrentActivation = RecurrentActivation::HardSigmoid;
    const auto reasons = oneDnn().unsupportedReasons(c, Mode::Training);
    ASSERT_EQ(reasons.size(), 1u);
    EXPECT_NE(reasons[0].find("recurrent_activation=hard_sigmoid"), std::string::npos) << reasons[0];
    EXPECT_NE(reasons[0].find("use cpu-blas"), std::string::npos) << reasons[0];
}

TEST(OneDnnBackend, RefusesRecurrentDropoutOnlyInTraining) {
    RnnConfig c;
    c.recurrentDropout = 0.3;
    const auto training = oneDnn().unsupportedReasons(c, Mode::Training);
    ASSERT_EQ(training.size(), 1u);
    EXPECT_NE(training[0].find("recurrent_dropout=0.3"), std::string::npos) << training[0];
    EXPECT_NE(training[0].find("use cpu-blas"), std::string::npos) << training[0];
    EXPECT_TRUE(oneDnn().unsupportedReasons(c, Mode::Inference).empty());
}

TEST(OneDnnBackend, ReportsEveryReasonAtOnceAndPrepareRefusesWithThem) {
    Problem p = smallProblem(CellType::Gru, Mode::Training);
    p.config.activation = Activation::Relu;
    p.config.recurrentActivation = RecurrentActivation::HardSigmoid;
    p.config.recurrentDropout = 0.2;
    EXPECT_EQ(oneDnn().unsupportedReasons(p.config, p.mode).size(), 3u);
    try {
        (void)oneDnn().prepare(p);
        FAIL() << "prepare() accepted an unsupported configuration";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
        EXPECT_NE(std::string(e.what()).find("activation=relu"), std::string::npos) << e.what();
    }
}

TEST(OneDnnBackend, SupportsBiasOffBidirectionalLayersAndDropoutBetweenLayers) {
    for (RnnConfig c : cellVariants()) {
        c.bias = false;
        c.bidirectional = true;
        c.layers = 3;
        c.dropout = 0.5;
        EXPECT_TRUE(oneDnn().unsupportedReasons(c, Mode::Training).empty()) << describe(c);
        EXPECT_TRUE(oneDnn().unsupportedReasons(c, Mode::Inference).empty()) << describe(c);
    }
}

TEST(OneDnnBackend, BiasOffMatchesReferenceAndReportsNoBiasGradients) {
    for (const RnnConfig& variant : cellVariants()) {
        Problem p = smallProblem(variant.cell, Mode::Training);
        p.config.resetAfter = variant.resetAfter;
        p.config.bias = false;
        SCOPED_TRACE(describe(p.config));
        const RunOutputs out = expectMatchesReference(p);
        EXPECT_EQ(out.gradients.dParams.layout.find(0, 0, ParamKind::BiasIh), nullptr);
        EXPECT_EQ(out.gradients.dParams.values.size(), std::size_t(ParamLayout(p.config).totalSize()));
    }
}

TEST(OneDnnBackend, BidirectionalStackWithDropoutMatchesReference) {
    for (const RnnConfig& variant : cellVariants()) {
        for (const Mode mode : {Mode::Inference, Mode::Training}) {
            Problem p = smallProblem(variant.cell, mode);
            p.config.resetAfter = variant.resetAfter;
            p.config.bidirectional = true;
            p.config.layers = 3;
            p.config.dropout = 0.4;
            p.config.recurrentDropout = mode == Mode::Inference ? 0.3 : 0.0; // does nothing in inference
            SCOPED_TRACE(describe(p.config) + " " + std::string(toString(mode)));
            expectMatchesReference(p);
        }
    }
}

TEST(OneDnnBackend, ReportsInputGradientsOnlyWhenAskedAndParameterGradientsEitherWay) {
    Problem p = smallProblem(CellType::Lstm, Mode::Training);
    p.config.layers = 2;
    p.inputGradients = true;
    const RunOutputs with = expectMatchesReference(p);
    p.inputGradients = false;
    auto session = oneDnn().prepare(p);
    NullPhaseHook hook;
    session->run(hook);
    const RunOutputs without = session->outputs();
    EXPECT_TRUE(without.gradients.dx.empty());
    EXPECT_TRUE(without.gradients.dh0.empty());
    EXPECT_TRUE(without.gradients.dc0.empty());
    EXPECT_FALSE(with.gradients.dx.empty());
    EXPECT_EQ(without.gradients.dParams.values, with.gradients.dParams.values);
    EXPECT_EQ(without.paramsAfter.values, with.paramsAfter.values);
}

TEST(OneDnnBackend, RepeatedRunsStayCorrectBecauseGradientsAreZeroedEachRun) {
    for (const RnnConfig& variant : cellVariants()) {
        Problem p = smallProblem(variant.cell, Mode::Training);
        p.config.resetAfter = variant.resetAfter;
        p.config.bidirectional = true;
        p.config.layers = 2;
        SCOPED_TRACE(describe(p.config));
        auto session = oneDnn().prepare(p);
        NullPhaseHook hook;
        auto params = std::make_shared<ParamSet<float>>(initParams<float>(p.config, p.config.seed));
        for (int iteration = 0; iteration < 3; ++iteration) {
            session->run(hook);
            const RunOutputs out = session->outputs();
            // The reference iteration from the parameters this run started with.
            Problem from = p;
            from.overrides.params = params;
            const auto ref = reference::runIteration<double>(from);
            Tensor<double> got({std::int64_t(out.gradients.dParams.values.size())});
            got.data.assign(out.gradients.dParams.values.begin(), out.gradients.dParams.values.end());
            EXPECT_TRUE(tensorsClose(got, flat(ref.gradients.dParams), kTol,
                                     "gradients of run " + std::to_string(iteration)));
            EXPECT_TRUE(
                tensorsClose(out.y.cast<double>(), ref.y, kTol, "y of run " + std::to_string(iteration)));
            EXPECT_TRUE(tensorsClose(flat(out.paramsAfter.cast<double>()), flat(ref.paramsAfter), kTol,
                                     "params after run " + std::to_string(iteration)));
            params = std::make_shared<ParamSet<float>>(out.paramsAfter);
        }
    }
}

TEST(OneDnnBackend, UsesOverriddenDataParametersAndOutputGradients) {
    Problem p = smallProblem(CellType::Lstm, Mode::Training);
    p.config.layers = 2;
    auto data = makeProblemData<float>(p.config, p.shape, p.mode);
    for (auto& v : data.x.data)
        v *= -0.5f;
    p.overrides.data = std::make_shared<ProblemData<float>>(data);
    auto params = initParams<float>(p.config, 99);
    p.overrides.params = std::make_shared<ParamSet<float>>(params);
    Tensor<float> dy(data.target.shape, 0.01f), dh({2, p.shape.batch, p.config.hiddenSize}, -0.02f);
    p.overrides.outputGrad = std::make_shared<Tensor<float>>(dy);
    p.overrides.hNGrad = std::make_shared<Tensor<float>>(dh);
    p.overrides.cNGrad = std::make_shared<Tensor<float>>(dh);
    expectMatchesReference(p);
}

TEST(OneDnnBackend, RejectsOverridesOfTheWrongShape) {
    Problem p = smallProblem(CellType::Gru, Mode::Training);
    p.overrides.outputGrad = std::make_shared<Tensor<float>>(std::vector<std::int64_t>{1, 2, 3});
    try {
        (void)oneDnn().prepare(p);
        FAIL() << "a wrong-shaped output gradient was accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
        EXPECT_NE(std::string(e.what()).find("output gradient"), std::string::npos) << e.what();
    }
}

TEST(OneDnnBackend, RejectsANegativeThreadCount) {
    Problem p = smallProblem(CellType::Lstm, Mode::Inference);
    p.options.threads = -1;
    try {
        (void)oneDnn().prepare(p);
        FAIL() << "threads=-1 was accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::InvalidConfig);
    }
}

TEST(OneDnnBackend, EstimatesExactlyTheMemoryTheSessionAllocates) {
    for (const RnnConfig& variant : cellVariants()) {
        for (const Mode mode : {Mode::Inference, Mode::Training}) {
            for (const int layers : {1, 2, 3}) {
                Problem p = smallProblem(variant.cell, mode);
                p.config.resetAfter = variant.resetAfter;
                p.config.layers = layers;
                p.config.bidirectional = layers != 2;
                p.config.dropout = layers == 3 ? 0.2 : 0.0;
                p.config.bias = layers != 1;
                SCOPED_TRACE(describe(p.config) + " " + std::string(toString(mode)));
                const MemoryFootprint estimate = oneDnn().estimateMemory(p);
                const MemoryFootprint used = oneDnn().prepare(p)->memory();
                EXPECT_EQ(estimate, used);
                EXPECT_GT(estimate.weights, 0u);
                EXPECT_EQ(estimate.activations > 0, mode == Mode::Training);
                EXPECT_EQ(estimate.gradients > 0, mode == Mode::Training);
                EXPECT_FALSE(estimate.onDevice);
            }
        }
    }
}

TEST(OneDnnBackend, RefusesAProblemThatDoesNotFitBeforeAllocatingAnything) {
    Problem p;
    p.config.hiddenSize = 512;
    p.config.layers = 16;
    p.config.bidirectional = true;
    p.shape = {256, 1000}; // valid, but training keeps tens of GiB
    p.mode = Mode::Training;
    const MemoryFootprint need = oneDnn().estimateMemory(p); // descriptors only: must not allocate
    const auto available = availableHostMemory();
    if (!available || need.total() <= *available) GTEST_SKIP() << "this machine has memory for the problem";
    try {
        (void)oneDnn().prepare(p);
        FAIL() << "prepare() accepted a problem needing " << formatBytes(need.total());
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::OutOfMemory);
        EXPECT_NE(std::string(e.what()).find(formatBytes(need.total())), std::string::npos) << e.what();
    }
}

// Records phases and steps in order.
class RecordingHook final : public PhaseHook {
public:
    void beginPhase(Phase p) override { events.push_back("begin " + std::string(toString(p))); }
    void endPhase(Phase p) override { events.push_back("end " + std::string(toString(p))); }
    void beginStep(const char* name) override { events.push_back(std::string("step ") + name); }
    std::vector<std::string> events;
    [[nodiscard]] bool has(const std::string& e) const {
        return std::find(events.begin(), events.end(), e) != events.end();
    }
};

TEST(OneDnnBackend, MarksPhasesAndNamedSteps) {
    Problem p = smallProblem(CellType::Gru, Mode::Training);
    p.config.layers = 2;
    p.config.dropout = 0.3;
    auto session = oneDnn().prepare(p);
    RecordingHook hook;
    session->run(hook);
    ASSERT_FALSE(hook.events.empty());
    EXPECT_EQ(hook.events.front(), "begin forward");
    EXPECT_EQ(hook.events.back(), "end update");
    for (const char* e : {"end forward", "begin backward", "end backward", "begin update",
                          "step layer 0 forward", "step layer 1 forward", "step layer 1 backward",
                          "step layer 0 backward", "step loss", "step dropout", "step SGD"})
        EXPECT_TRUE(hook.has(e)) << e;

    Problem inference = smallProblem(CellType::Lstm, Mode::Inference);
    RecordingHook inferenceHook;
    oneDnn().prepare(inference)->run(inferenceHook);
    EXPECT_FALSE(inferenceHook.has("begin backward"));
    EXPECT_FALSE(inferenceHook.has("begin update"));
}

TEST(OneDnnBackend, NotesNameThreadsAndIsa) {
    Problem p = smallProblem(CellType::Lstm, Mode::Inference);
    p.options.threads = 1;
    const auto notes = oneDnn().prepare(p)->notes();
    ASSERT_FALSE(notes.empty());
    EXPECT_NE(notes[0].find("oneDNN RNN primitives, 1 thread, ISA "), std::string::npos) << notes[0];
    EXPECT_EQ(cpu::threadCount(2), "2 threads");
}

} // namespace
} // namespace rnnprof

// On a machine with a GPU: gpu-cudnn and gpu-generic against cpu-reference (double) and against
// each other in strict FP32 (outputs, states, all gradients, parameters after SGD within 1e-4),
// their memory, notes, CUDA-event phase times, refusals and cuDNN's own refusals. Without a device
// every test skips with the reason.
#include "engine/backend.h"
#include "engine/error.h"
#include "engine/gpu/gpu_info.h"
#include "engine/reference/reference_rnn.h"
#include "support/compare.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace rnnprof {
namespace {

using test::tensorsClose;

constexpr double kTol = 1e-4;

#define REQUIRE_DEVICE()                                                                                     \
    if (!gpuInfo().available) GTEST_SKIP() << "no GPU: " << gpuInfo().reason

const Backend& backend(const char* id) {
    return *builtinBackends().find(id);
}

// Every tensor of `a` against `b` (both float runs), or against the double reference.
void expectSameResults(const Problem& p, const RunOutputs& a, const RunOutputs& b, const std::string& what) {
    SCOPED_TRACE(what);
    EXPECT_TRUE(tensorsClose(a.y, b.y, kTol, "output"));
    EXPECT_TRUE(tensorsClose(a.hN, b.hN, kTol, "h_n"));
    if (p.config.cell == CellType::Lstm) {
        EXPECT_TRUE(tensorsClose(a.cN, b.cN, kTol, "c_n"));
    }
    if (p.mode != Mode::Training) return;
    EXPECT_NEAR(a.loss, b.loss, kTol * std::max(1.0, b.loss));
    for (const auto& spec : b.gradients.dParams.layout.specs()) {
        Tensor<float> x(spec.shape()), y(spec.shape());
        std::copy_n(a.gradients.dParams.data(spec), spec.size(), x.data.begin());
        std::copy_n(b.gradients.dParams.data(spec), spec.size(), y.data.begin());
        EXPECT_TRUE(tensorsClose(x, y, kTol, "grad_" + spec.name));
    }
    EXPECT_TRUE(tensorsClose(a.gradients.dx, b.gradients.dx, kTol, "grad_input"));
    EXPECT_TRUE(tensorsClose(a.gradients.dh0, b.gradients.dh0, kTol, "grad_h0"));
    if (p.config.cell == CellType::Lstm) {
        EXPECT_TRUE(tensorsClose(a.gradients.dc0, b.gradients.dc0, kTol, "grad_c0"));
    }
    Tensor<float> pa({std::int64_t(a.paramsAfter.values.size())}),
        pb({std::int64_t(b.paramsAfter.values.size())});
    pa.data = a.paramsAfter.values;
    pb.data = b.paramsAfter.values;
    EXPECT_TRUE(tensorsClose(pa, pb, kTol, "parameters after SGD"));
}

RunOutputs referenceOutputs(const Problem& p) {
    const auto ref = reference::runIteration<double>(p);
    RunOutputs out;
    out.training = p.mode == Mode::Training;
    out.y = ref.y.cast<float>();
    out.hN = ref.hN.cast<float>();
    out.cN = ref.cN.cast<float>();
    out.loss = ref.loss;
    if (out.training) {
        out.gradients.dParams = ref.gradients.dParams.cast<float>();
        out.gradients.dx = ref.gradients.dx.cast<float>();
        out.gradients.dh0 = ref.gradients.dh0.cast<float>();
        out.gradients.dc0 = ref.gradients.dc0.cast<float>();
        out.paramsAfter = ref.paramsAfter.cast<float>();
    }
    return out;
}

RunOutputs runOnce(const char* id, const Problem& p) {
    auto session = backend(id).prepare(p);
    NullPhaseHook hook;
    session->run(hook);
    return session->outputs();
}

std::vector<Problem> eligibleProblems() {
    std::vector<Problem> out;
    for (CellType cell : {CellType::Lstm, CellType::Gru})
        for (bool bi : {false, true})
            for (Mode mode : {Mode::Inference, Mode::Training}) {
                Problem p;
                p.config.cell = cell;
                p.config.bidirectional = bi;
                p.config.layers = bi ? 2 : 3;
                p.config.inputSize = 24;
                p.config.hiddenSize = 40;
                p.config.seed = 5 + std::uint64_t(bi);
                p.shape = {7, 13};
                p.mode = mode;
                p.inputGradients = true;
                p.options.learningRate = 0.1;
                out.push_back(p);
            }
    return out;
}

TEST(GpuDevice, CudnnAndGenericMatchTheReferenceAndEachOtherInStrictFp32) {
    REQUIRE_DEVICE();
    for (const Problem& p : eligibleProblems()) {
        SCOPED_TRACE(describe(p.config) + (p.mode == Mode::Training ? " train" : " infer"));
        const RunOutputs ref = referenceOutputs(p);
        const RunOutputs cudnn = runOnce("gpu-cudnn", p);
        const RunOutputs generic = runOnce("gpu-generic", p);
        expectSameResults(p, cudnn, ref, "gpu-cudnn vs cpu-reference");
        expectSameResults(p, generic, ref, "gpu-generic vs cpu-reference");
        expectSameResults(p, cudnn, generic, "gpu-cudnn vs gpu-generic");
    }
}

// bias=false runs on cuDNN with CUDNN_RNN_NO_BIAS: a weight space of matrices only, located
// without bias blocks. LSTM and GRU, one and two directions, inference and training.
TEST(GpuDevice, CudnnWithoutBiasMatchesTheReference) {
    REQUIRE_DEVICE();
    for (Problem p : eligibleProblems()) {
        p.config.bias = false;
        SCOPED_TRACE(describe(p.config) + (p.mode == Mode::Training ? " train" : " infer"));
        ASSERT_TRUE(backend("gpu-cudnn").unsupportedReasons(p.config, p.mode).empty());
        auto session = backend("gpu-cudnn").prepare(p);
        NullPhaseHook hook;
        session->run(hook);
        expectSameResults(p, session->outputs(), referenceOutputs(p), "gpu-cudnn vs cpu-reference");
        const auto notes = session->notes();
        EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
            return n.find("CUDNN_RNN_ALGO_STANDARD, NO_BIAS,") != std::string::npos;
        }));
        // The weight space holds the matrices (cuDNN may pad), and less than they and the biases.
        RnnConfig withBias = p.config;
        withBias.bias = true;
        EXPECT_GE(session->memory().weights, std::uint64_t(parameterCount(p.config)) * sizeof(float));
        EXPECT_LT(session->memory().weights, std::uint64_t(parameterCount(withBias)) * sizeof(float));
    }
}

// Recurrent dropout acts in training only, so gpu-cudnn runs it in inference: the plain network.
TEST(GpuDevice, CudnnRunsRecurrentDropoutInInference) {
    REQUIRE_DEVICE();
    for (Problem p : eligibleProblems()) {
        if (p.mode != Mode::Inference) continue;
        p.config.recurrentDropout = 0.4;
        SCOPED_TRACE(describe(p.config));
        expectSameResults(p, runOnce("gpu-cudnn", p), referenceOutputs(p), "gpu-cudnn vs cpu-reference");
    }
}

TEST(GpuDevice, GenericMatchesTheReferenceWithEveryOption) {
    REQUIRE_DEVICE();
    Problem p;
    p.config.cell = CellType::Gru;
    p.config.resetAfter = false;
    p.config.activation = Activation::Relu;
    p.config.recurrentActivation = RecurrentActivation::HardSigmoid;
    p.config.recurrentDropout = 0.3;
    p.config.dropout = 0.2;
    p.config.bias = false;
    p.config.layers = 3;
    p.config.bidirectional = true;
    p.config.inputSize = 9;
    p.config.hiddenSize = 17;
    p.shape = {5, 11};
    p.mode = Mode::Training;
    p.inputGradients = true;
    for (CellType cell : {CellType::Lstm, CellType::Gru}) {
        p.config.cell = cell;
        SCOPED_TRACE(describe(p.config));
        expectSameResults(p, runOnce("gpu-generic", p), referenceOutputs(p), "gpu-generic vs cpu-reference");
    }
}

TEST(GpuDevice, SessionsReportDeviceMemoryTheirQueueAndNotes) {
    REQUIRE_DEVICE();
    for (const char* id : {"gpu-generic", "gpu-cudnn"})
        for (Mode mode : {Mode::Inference, Mode::Training}) {
            Problem p = eligibleProblems().front();
            p.mode = mode;
            auto session = backend(id).prepare(p);
            DeviceQueue* queue = session->deviceQueue();
            ASSERT_NE(queue, nullptr) << id;
            const auto watch = queue->makeStopwatch();
            NullPhaseHook hook;
            watch->start();
            session->run(hook);
            watch->stop();
            queue->synchronize();
            EXPECT_GT(watch->elapsedMs(), 0.0) << id << ": the run's device work lies between the marks";
            const MemoryFootprint m = session->memory();
            EXPECT_TRUE(m.onDevice) << id;
            EXPECT_GT(m.weights, 0u) << id;
            EXPECT_EQ(m.gradients > 0, mode == Mode::Training) << id;
            if (std::string(id) == "gpu-cudnn") {
                EXPECT_EQ(m.activations > 0, mode == Mode::Training) << id;
            }
            const auto notes = session->notes();
            EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
                return n.rfind("math type: ", 0) == 0;
            })) << id;
        }
}

TEST(GpuDevice, Tf32IsRecordedWhenAllowed) {
    REQUIRE_DEVICE();
    Problem p = eligibleProblems().front();
    p.options.allowTf32 = true;
    for (const char* id : {"gpu-generic", "gpu-cudnn"}) {
        const auto notes = backend(id).prepare(p)->notes();
        EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
            return n.find("TF32 allowed") != std::string::npos;
        })) << id;
    }
}

TEST(GpuDevice, CudnnDropoutBetweenLayersIsMarkedNotComparable) {
    REQUIRE_DEVICE();
    Problem p = eligibleProblems().back();
    p.mode = Mode::Training;
    p.config.dropout = 0.3;
    const Session::Comparability c = backend("gpu-cudnn").prepare(p)->numericsComparable();
    EXPECT_FALSE(c.comparable);
    EXPECT_EQ(c.why, "cuDNN samples its own dropout mask");
}

TEST(GpuDevice, RepeatedTrainingRunsLowerTheLoss) {
    REQUIRE_DEVICE();
    for (const char* id : {"gpu-generic", "gpu-cudnn"}) {
        Problem p = eligibleProblems().back();
        p.mode = Mode::Training;
        auto session = backend(id).prepare(p);
        NullPhaseHook hook;
        session->run(hook);
        const double first = session->outputs().loss;
        for (int i = 0; i < 4; ++i)
            session->run(hook);
        EXPECT_LT(session->outputs().loss, first) << id;
    }
}

TEST(GpuDevice, ProblemsLargerThanDeviceMemoryAreRefusedBeforeAllocating) {
    REQUIRE_DEVICE();
    // Valid (every buffer within the 32-bit index limit) but about 125 GiB in training.
    Problem p;
    p.config.inputSize = 4096;
    p.config.hiddenSize = 4096;
    p.config.layers = 15;
    p.shape = {512, 127};
    p.mode = Mode::Training;
    ASSERT_TRUE(validate(p.config, p.shape).empty()) << joinIssues(validate(p.config, p.shape));
    for (const char* id : {"gpu-generic", "gpu-cudnn"})
        if (backend(id).estimateMemory(p).total() <= gpuInfo().devices.front().totalMemory)
            GTEST_SKIP() << "this GPU holds the largest valid problem (" << id << ")";
    for (const char* id : {"gpu-generic", "gpu-cudnn"}) {
        try {
            (void)backend(id).prepare(p);
            ADD_FAILURE() << id << " prepared a problem of " << backend(id).estimateMemory(p).total()
                          << " bytes";
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::OutOfMemory) << e.what();
            EXPECT_NE(std::string(e.what()).find("of device memory"), std::string::npos) << e.what();
        }
    }
}

TEST(GpuDevice, IneligibleConfigurationsAreRefusedAsUnsupported) {
    REQUIRE_DEVICE();
    Problem p = eligibleProblems().front();
    p.config.activation = Activation::Relu;
    try {
        (void)backend("gpu-cudnn").prepare(p);
        ADD_FAILURE() << "gpu-cudnn prepared a relu LSTM";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
        EXPECT_NE(std::string(e.what()).find("cuDNN's LSTM has no activation but tanh (got activation=relu)"),
                  std::string::npos)
            << e.what();
    }
}

} // namespace
} // namespace rnnprof

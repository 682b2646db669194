// On a machine with a GPU: gpu-cudnn and gpu-generic against cpu-reference (double) and against
// each other in strict FP32 (outputs, states, all gradients, parameters after SGD within 1e-4),
// their memory, notes, CUDA-event phase times, refusals and cuDNN's own refusals. Without a device
// every test skips with the reason.
#include "engine/backend.h"
#include "engine/error.h"
#include "engine/gpu/gpu_info.h"
#include "engine/kernels/reduce_kernels.h"
#include "engine/random.h"
#include "engine/reference/reference_rnn.h"
#include "support/compare.h"
#include "support/gradient_overrides.h"
#if RNNPROF_WITH_CUDA
#include "engine/gpu/cuda_resources.h"
#include "engine/gpu/reduce_launch.h"
#endif

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

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
            return n.find("algorithm standard, NO_BIAS,") != std::string::npos;
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

// Training from given gradients of y, h_n and c_n (what a layer above would pass down), not from
// the loss: both GPU backends against the reference.
TEST(GpuDevice, GradientsFromGivenHnAndCnGradientsMatchTheReference) {
    REQUIRE_DEVICE();
    for (Problem p : eligibleProblems()) {
        if (p.mode != Mode::Training) continue;
        test::setGradientOverrides(p);
        SCOPED_TRACE(describe(p.config));
        const RunOutputs ref = referenceOutputs(p);
        for (const char* id : {"gpu-cudnn", "gpu-generic"}) {
            const RunOutputs out = runOnce(id, p);
            EXPECT_EQ(out.loss, 0.0) << id << ": no loss when the output gradient is given";
            expectSameResults(p, out, ref, std::string(id) + " vs cpu-reference");
        }
    }
}

// Dropout between layers in training: gpu-generic applies the shared seeded masks (so it matches
// the reference); cuDNN samples its own, so its outputs differ from the dropout-free network's
// while staying finite, and training still lowers the loss.
TEST(GpuDevice, DropoutBetweenLayersActsInTraining) {
    REQUIRE_DEVICE();
    Problem p = eligibleProblems().back(); // GRU, two directions, two layers
    p.mode = Mode::Training;
    p.config.dropout = 0.3;
    expectSameResults(p, runOnce("gpu-generic", p), referenceOutputs(p), "gpu-generic vs cpu-reference");
    Problem plain = p;
    plain.config.dropout = 0.0;
    const RunOutputs with = runOnce("gpu-cudnn", p);
    const RunOutputs without = runOnce("gpu-cudnn", plain);
    ASSERT_EQ(with.y.data.size(), without.y.data.size());
    EXPECT_TRUE(
        std::all_of(with.y.data.begin(), with.y.data.end(), [](float v) { return std::isfinite(v); }));
    EXPECT_FALSE(std::equal(with.y.data.begin(), with.y.data.end(), without.y.data.begin()))
        << "cuDNN's dropout between layers changed nothing";
    auto session = backend("gpu-cudnn").prepare(p);
    NullPhaseHook hook;
    session->run(hook);
    const double first = session->outputs().loss;
    for (int i = 0; i < 4; ++i)
        session->run(hook);
    EXPECT_LT(session->outputs().loss, first);
}

// Every cuDNN algorithm either matches the reference or is refused by cuDNN as unsupported (an
// ineligible point), never anything else: STANDARD always runs.
TEST(GpuDevice, EveryCudnnAlgorithmMatchesTheReferenceOrIsRefusedAsUnsupported) {
    REQUIRE_DEVICE();
    for (const auto& spelling : kCudnnAlgoSpellings)
        for (Problem p : eligibleProblems()) {
            p.options.cudnnAlgo = spelling.value;
            SCOPED_TRACE(std::string(spelling.text) + " " + describe(p.config) +
                         (p.mode == Mode::Training ? " train" : " infer"));
            try {
                expectSameResults(p, runOnce("gpu-cudnn", p), referenceOutputs(p),
                                  "gpu-cudnn vs cpu-reference");
            } catch (const Error& e) {
                EXPECT_NE(spelling.value, CudnnAlgo::Standard) << e.what();
                EXPECT_EQ(e.kind(), ErrorKind::Unsupported) << e.what();
                EXPECT_NE(std::string(e.what()).find("CUDNN_STATUS_NOT_SUPPORTED"), std::string::npos)
                    << e.what();
            }
        }
}

// With CUDA graphs the first run captures each phase and launches it; later runs replay: the first
// run matches the reference, the replays keep training (the loss falls), and the note says so.
TEST(GpuDevice, PhasesReplayedAsCudaGraphsComputeTheSame) {
    REQUIRE_DEVICE();
    for (Problem p : eligibleProblems()) {
        p.options.cudaGraph = true;
        SCOPED_TRACE(describe(p.config) + (p.mode == Mode::Training ? " train" : " infer"));
        for (const char* id : {"gpu-cudnn", "gpu-generic"}) {
            auto session = backend(id).prepare(p);
            NullPhaseHook hook;
            session->run(hook);
            const RunOutputs first = session->outputs();
            expectSameResults(p, first, referenceOutputs(p), std::string(id) + " (graphs) vs cpu-reference");
            for (int i = 0; i < 3; ++i)
                session->run(hook);
            if (p.mode == Mode::Training) {
                EXPECT_LT(session->outputs().loss, first.loss) << id;
            } else {
                EXPECT_TRUE(tensorsClose(session->outputs().y, first.y, 0.0, "replayed output")) << id;
            }
            const auto notes = session->notes();
            EXPECT_TRUE(std::find(notes.begin(), notes.end(), std::string(kCudaGraphNote)) != notes.end())
                << id;
        }
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

// What cuDNN asks for (the session queries cudnnGetRNNTempSpaceSizes before allocating) against
// the estimate the sweep refuses points with before a session exists: never below.
TEST(GpuDevice, CudnnSizeEstimateIsNeverBelowCudnnsOwnQuery) {
    REQUIRE_DEVICE();
    struct Dims {
        int input, hidden, batch, seqLen;
    };
    int checked = 0;
    for (const Dims d : {Dims{32, 48, 3, 5}, Dims{512, 128, 64, 50}, Dims{100, 600, 17, 33}})
        for (CellType cell : {CellType::Lstm, CellType::Gru})
            for (bool bi : {false, true})
                for (int layers : {1, 3})
                    for (Mode mode : {Mode::Inference, Mode::Training}) {
                        Problem p;
                        p.config.cell = cell;
                        p.config.bidirectional = bi;
                        p.config.layers = layers;
                        p.config.inputSize = d.input;
                        p.config.hiddenSize = d.hidden;
                        p.config.dropout = layers > 1 && bi ? 0.3 : 0.0; // cuDNN's dropout states
                        p.shape = {d.batch, d.seqLen};
                        p.mode = mode;
                        const std::string what = describe(p.config) + ", B=" + std::to_string(d.batch) +
                                                 " T=" + std::to_string(d.seqLen) + " " +
                                                 std::string(toString(mode));
                        const MemoryFootprint estimate = backend("gpu-cudnn").estimateMemory(p);
                        const MemoryFootprint queried = backend("gpu-cudnn").prepare(p)->memory();
                        EXPECT_EQ(estimate.weights, queried.weights) << what;
                        for (std::string_view part :
                             {kBufferCudnnWorkspace, kBufferCudnnReserve, kBufferCudnnDropoutStates})
                            EXPECT_GE(estimate.part(part), queried.part(part)) << part << ": " << what;
                        EXPECT_GE(estimate.total(), queried.total()) << what;
                        ++checked;
                    }
    EXPECT_EQ(checked, 48);
}

TEST(GpuDevice, CudnnSessionsMakeNoCublasWorkspace) {
    REQUIRE_DEVICE();
    for (Mode mode : {Mode::Inference, Mode::Training}) {
        Problem p = eligibleProblems().front();
        p.mode = mode;
        auto session = backend("gpu-cudnn").prepare(p);
        EXPECT_EQ(session->memory().part(kBufferCublasWorkspace), 0u);
        const auto notes = session->notes();
        EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
            return n.find("no cuBLAS handle or workspace") != std::string::npos;
        }));
    }
}

TEST(GpuDevice, SessionsSayTheirMathType) {
    REQUIRE_DEVICE();
    Problem p = eligibleProblems().front();
    for (bool tf32 : {false, true}) {
        p.options.allowTf32 = tf32;
        for (const char* id : {"gpu-generic", "gpu-cudnn"}) {
            const std::string math = backend(id).prepare(p)->mathType();
            EXPECT_NE(math.find(tf32 ? "TF32 allowed" : "strict FP32"), std::string::npos)
                << id << ": " << math;
        }
    }
}

#if RNNPROF_WITH_CUDA
TEST(GpuDevice, TheDeviceSumAddsInTheOrderTheHostEmulates) {
    REQUIRE_DEVICE();
    gpu::selectDevice();
    const gpu::CudaStream stream;
    SplitMix64 rng(3);
    for (kernels::Index n : {kernels::Index(1), kernels::Index(1000), kernels::Index(3'000'001)}) {
        std::vector<float> y(static_cast<std::size_t>(n)), target(static_cast<std::size_t>(n));
        for (std::size_t i = 0; i < y.size(); ++i) {
            y[i] = float(rng.uniform(-1.0, 1.0));
            target[i] = float(rng.uniform(-1.0, 1.0));
        }
        const gpu::DeviceBuffer dy(y.size() * sizeof(float), "y"), dt(y.size() * sizeof(float), "target");
        const gpu::DeviceBuffer partials(kernels::kReducePartialsBytes, "partials"),
            out(sizeof(float), "sum");
        gpu::copyToDevice(dy.get(), y.data(), y.size() * sizeof(float), stream.get());
        gpu::copyToDevice(dt.get(), target.data(), y.size() * sizeof(float), stream.get());
        gpu::launchSum(kernels::SquaredErrorTerm<float>{dy.as<float>(), dt.as<float>()}, n,
                       partials.as<float>(), out.as<float>(), stream.get());
        float device = 0.0f;
        gpu::copyToHost(&device, out.get(), sizeof device, stream.get());
        const float host =
            kernels::sumInDeviceOrder<float>(kernels::SquaredErrorTerm<float>{y.data(), target.data()}, n);
        // The same additions in the same order; the device may fuse a square into its addition.
        EXPECT_NEAR(device, host, 1e-5 * std::abs(host)) << "n = " << n;
    }
}
#endif

TEST(GpuDevice, FreeMemoryIsMeasuredOnEveryDevice) {
    REQUIRE_DEVICE();
    GpuInfo info = gpuInfo();
    measureFreeMemory(info);
    for (const GpuDevice& d : info.devices) {
        EXPECT_GT(d.freeMemory, 0u) << d.name;
        EXPECT_LE(d.freeMemory, d.totalMemory) << d.name;
    }
    EXPECT_EQ(info.freeMemorySummary().find("not known"), std::string::npos) << info.freeMemorySummary();
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

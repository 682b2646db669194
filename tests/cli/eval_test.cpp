// `rnnprof eval` end to end: the real binary on PyTorch's golden cases (outputs and every
// gradient), missing initial states, the cell options passed through to the engine, and every
// registered backend. The error exits are in eval_errors_test.cpp.
#include "cli/cli_process.h"
#include "engine/backend.h"
#include "engine/npy.h"
#include "engine/random.h"
#include "engine/reference/reference_rnn.h"
#include "support/compare.h"
#include "support/pytorch_fixture.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

namespace rnnprof {
namespace {

namespace fs = std::filesystem;
using test::Args;
using test::filesIn;
using test::ProcessResult;
using test::runEval;
using test::TempDir;
using ::testing::StartsWith;

// Float32 results against PyTorch's float64 ones, norm-wise per tensor.
constexpr double kFloatTolerance = 1e-5;

Tensor<double> readFloat32(const std::string& path) {
    const NpyArray a = readNpy(path);
    EXPECT_EQ(a.dtype, NpyDtype::Float32) << path;
    Tensor<double> t;
    t.shape = a.shape;
    t.data = a.values;
    return t;
}

Args modelArgs(const RnnConfig& c) {
    Args a{"--cell",        std::string(toString(c.cell)), "--input-size", std::to_string(c.inputSize),
           "--hidden-size", std::to_string(c.hiddenSize),  "--layers",     std::to_string(c.layers)};
    if (c.bidirectional) a.push_back("--bidirectional");
    if (!c.bias) a.push_back("--no-bias");
    return a;
}

// Every input of a golden case, with gradients of output, h_n and c_n.
Args caseArgs(const test::PytorchCase& pc, const std::string& out, bool gradients = true) {
    const bool lstm = pc.config.cell == CellType::Lstm;
    Args a = modelArgs(pc.config);
    Args more{"--weights", pc.dir, "--input", pc.dir + "/x.npy", "--h0", pc.dir + "/h0.npy", "--out", out};
    a.insert(a.end(), more.begin(), more.end());
    if (lstm) a.insert(a.end(), {"--c0", pc.dir + "/c0.npy"});
    if (gradients) {
        a.insert(a.end(), {"--grad-output", pc.dir + "/dy.npy", "--grad-h-n", pc.dir + "/dh_n.npy"});
        if (lstm) a.insert(a.end(), {"--grad-c-n", pc.dir + "/dc_n.npy"});
    }
    return a;
}

std::set<std::string> expectedFiles(const RnnConfig& c, bool gradients) {
    const bool lstm = c.cell == CellType::Lstm;
    std::set<std::string> names{"output.npy", "h_n.npy"};
    if (lstm) names.insert("c_n.npy");
    if (!gradients) return names;
    names.insert({"grad_input.npy", "grad_h0.npy"});
    if (lstm) names.insert("grad_c0.npy");
    const ParamLayout layout(c); // named: a range-for over a temporary's specs() would dangle
    for (const auto& spec : layout.specs())
        names.insert("grad_" + spec.name + ".npy");
    return names;
}

Tensor<double> paramTensor(const ParamSet<double>& p, const ParamSpec& spec) {
    Tensor<double> t(spec.shape());
    std::copy(p.data(spec), p.data(spec) + spec.size(), t.data.begin());
    return t;
}

void expectMatchesCase(const test::PytorchCase& pc, const std::string& out, double tol) {
    const bool lstm = pc.config.cell == CellType::Lstm;
    EXPECT_TRUE(test::tensorsClose(readFloat32(out + "/output.npy"), pc.output, tol, "output"));
    EXPECT_TRUE(test::tensorsClose(readFloat32(out + "/h_n.npy"), pc.hN, tol, "h_n"));
    EXPECT_TRUE(test::tensorsClose(readFloat32(out + "/grad_input.npy"), pc.gradInput, tol, "grad_input"));
    EXPECT_TRUE(test::tensorsClose(readFloat32(out + "/grad_h0.npy"), pc.gradH0, tol, "grad_h0"));
    if (lstm) {
        EXPECT_TRUE(test::tensorsClose(readFloat32(out + "/c_n.npy"), pc.cN, tol, "c_n"));
        EXPECT_TRUE(test::tensorsClose(readFloat32(out + "/grad_c0.npy"), pc.gradC0, tol, "grad_c0"));
    }
    for (const auto& spec : pc.params.layout.specs())
        EXPECT_TRUE(test::tensorsClose(readFloat32(out + "/grad_" + spec.name + ".npy"),
                                       paramTensor(pc.gradParams, spec), tol, "grad_" + spec.name));
}

class EvalOnPytorchCases : public ::testing::TestWithParam<std::string> {};

TEST_P(EvalOnPytorchCases, OutputsAndEveryGradientMatchPytorch) {
    const auto pc = test::loadPytorchCase(GetParam());
    TempDir dir;
    const std::string out = dir.path("out"); // missing: eval creates it
    const ProcessResult run = runEval(caseArgs(pc, out));
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_EQ(run.err, "");
    EXPECT_EQ(filesIn(out), expectedFiles(pc.config, true));
    expectMatchesCase(pc, out, kFloatTolerance);
}

TEST_P(EvalOnPytorchCases, WithoutGradOutputWritesOnlyOutputsAndStates) {
    const auto pc = test::loadPytorchCase(GetParam());
    TempDir dir;
    const ProcessResult run = runEval(caseArgs(pc, dir.path(), false)); // an existing folder is fine
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_EQ(filesIn(dir.path()), expectedFiles(pc.config, false));
    EXPECT_TRUE(
        test::tensorsClose(readFloat32(dir.path("output.npy")), pc.output, kFloatTolerance, "output"));
}

INSTANTIATE_TEST_SUITE_P(Pytorch, EvalOnPytorchCases, ::testing::ValuesIn(test::pytorchCaseNames()),
                         [](const auto& info) { return info.param; });

TEST(Eval, MissingInitialStatesAreZeros) {
    const auto pc = test::loadPytorchCase("lstm_1l_uni");
    TempDir dir;
    Args args = modelArgs(pc.config);
    args.insert(args.end(), {"--weights", pc.dir, "--input", pc.dir + "/x.npy", "--out", dir.path()});
    const ProcessResult run = runEval(args);
    ASSERT_EQ(run.status, 0) << run.err;
    const Tensor<double> zeros(pc.h0.shape);
    const auto fwd = reference::forward(pc.config, pc.params, pc.x, zeros, zeros, nullptr);
    EXPECT_TRUE(test::tensorsClose(readFloat32(dir.path("output.npy")), fwd.y, kFloatTolerance, "output"));
    EXPECT_TRUE(test::tensorsClose(readFloat32(dir.path("c_n.npy")), fwd.cN, kFloatTolerance, "c_n"));
}

// Random weights and inputs written as float64 files, for configurations PyTorch has no case for.
struct OptionCase {
    RnnConfig config;
    Args flags;
};

TEST(Eval, PassesEveryCellOptionToTheEngine) {
    std::vector<OptionCase> cases;
    RnnConfig c;
    c.inputSize = 3;
    c.hiddenSize = 4;
    c.layers = 2;
    c.bidirectional = true;
    c.activation = Activation::Relu;
    c.recurrentActivation = RecurrentActivation::HardSigmoid;
    cases.push_back({c, {"--activation", "relu", "--recurrent-activation", "hard_sigmoid"}});
    c.cell = CellType::Gru;
    c.resetAfter = false;
    c.bias = false;
    cases.push_back(
        {c, {"--activation", "relu", "--recurrent-activation", "hard_sigmoid", "--reset-before"}});
    c.activation = Activation::Tanh;
    c.recurrentActivation = RecurrentActivation::Sigmoid;
    c.bias = true;
    cases.push_back({c, {"--reset-before"}});
    for (const OptionCase& oc : cases) {
        SCOPED_TRACE(describe(oc.config));
        const RnnConfig& cfg = oc.config;
        TempDir dir;
        const auto params = initParams<double>(cfg, 5);
        for (const auto& spec : params.layout.specs())
            writeNpy(dir.path(spec.name + ".npy"), paramTensor(params, spec));
        const Shape shape{2, 5};
        auto data = makeProblemData<double>(cfg, shape, Mode::Inference);
        Tensor<double> dy({shape.seqLen, shape.batch, std::int64_t(directionCount(cfg)) * cfg.hiddenSize});
        SplitMix64 rng(3);
        for (double& v : dy.data)
            v = rng.uniform(-1, 1);
        writeNpy(dir.path("x.npy"), data.x);
        writeNpy(dir.path("h0.npy"), data.h0);
        if (cfg.cell == CellType::Lstm) writeNpy(dir.path("c0.npy"), data.c0);
        writeNpy(dir.path("dy.npy"), dy);
        Args args = modelArgs(cfg);
        args.insert(args.end(), oc.flags.begin(), oc.flags.end());
        args.insert(args.end(),
                    {"--weights", dir.path(), "--input", dir.path("x.npy"), "--h0", dir.path("h0.npy"),
                     "--grad-output", dir.path("dy.npy"), "--out", dir.path("out")});
        if (cfg.cell == CellType::Lstm) args.insert(args.end(), {"--c0", dir.path("c0.npy")});
        const ProcessResult run = runEval(args);
        ASSERT_EQ(run.status, 0) << run.err;
        const auto fwd = reference::forward(cfg, params, data.x, data.h0, data.c0, nullptr);
        const auto grads =
            reference::backward<double>(cfg, params, fwd, data.h0, data.c0, nullptr, dy, nullptr, nullptr);
        constexpr double tol = 2e-5; // float32 against double over 5 steps and 2 layers
        EXPECT_TRUE(test::tensorsClose(readFloat32(dir.path("out/output.npy")), fwd.y, tol, "output"));
        EXPECT_TRUE(
            test::tensorsClose(readFloat32(dir.path("out/grad_input.npy")), grads.dx, tol, "grad_input"));
        EXPECT_TRUE(test::tensorsClose(readFloat32(dir.path("out/grad_h0.npy")), grads.dh0, tol, "grad_h0"));
        for (const auto& spec : params.layout.specs())
            EXPECT_TRUE(test::tensorsClose(readFloat32(dir.path("out/grad_" + spec.name + ".npy")),
                                           paramTensor(grads.dParams, spec), tol, "grad_" + spec.name));
    }
}

// Each registered backend either matches PyTorch through eval or is refused with its reason.
TEST(Eval, RunsThroughEveryRegisteredBackend) {
    for (const char* name : {"lstm_2l_bi", "gru_2l_bi"}) {
        const auto pc = test::loadPytorchCase(name);
        for (const Backend* backend : builtinBackends().all()) {
            const std::string id(backend->id());
            SCOPED_TRACE(std::string(name) + " on " + id);
            TempDir dir;
            Args args = caseArgs(pc, dir.path("out"));
            args.insert(args.end(), {"--backend", id});
            const ProcessResult run = runEval(args);
            const auto reasons = backend->unsupportedReasons(pc.config, Mode::Training);
            if (backend->availability().available && reasons.empty()) {
                ASSERT_EQ(run.status, 0) << run.err;
                expectMatchesCase(pc, dir.path("out"), 1e-4);
            } else {
                EXPECT_EQ(run.status, 1);
                EXPECT_THAT(run.err, StartsWith("rnnprof eval: "));
                EXPECT_FALSE(fs::exists(dir.path("out")));
            }
        }
    }
}

} // namespace
} // namespace rnnprof

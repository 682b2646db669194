// gpu-generic without a GPU: GenericRnn, the code that drives the device, run with a host executor
// (naive GEMMs between the step-kernel functors of engine/kernels/step_kernels.h, each run over its
// whole index range through operator()(idx)) and compared with reference::runIteration<double> on
// T = 1..3 sequences. This checks the kernels' indexing and every offset, leading dimension and
// argument the GPU backend passes, for LSTM, GRU reset_after and GRU reset_before, with masks,
// with relu/hard_sigmoid, uni- and bidirectional, with and without bias.
#include "engine/reference/reference_rnn.h"
#include "support/compare.h"
#include "support/gradient_overrides.h"
#include "tests/gpu/host_exec.h"

#include <gtest/gtest.h>

#include <typeinfo>

namespace rnnprof {
namespace {

using test::HostGenericRun;
using test::tensorsClose;

constexpr double kTol = 1e-4;

void expectMatchesReference(const Problem& problem, const RunOutputs& out) {
    const auto ref = reference::runIteration<double>(problem);
    EXPECT_TRUE(tensorsClose(out.y.cast<double>(), ref.y, kTol, "output"));
    EXPECT_TRUE(tensorsClose(out.hN.cast<double>(), ref.hN, kTol, "h_n"));
    if (problem.config.cell == CellType::Lstm) {
        EXPECT_TRUE(tensorsClose(out.cN.cast<double>(), ref.cN, kTol, "c_n"));
    }
    if (problem.mode != Mode::Training) return;
    ASSERT_TRUE(out.training);
    EXPECT_NEAR(out.loss, ref.loss, 1e-5 * std::max(1.0, ref.loss));
    test::expectParamGradientsClose(out.gradients.dParams, ref.gradients.dParams, kTol);
    if (problem.inputGradients) {
        EXPECT_TRUE(tensorsClose(out.gradients.dx.cast<double>(), ref.gradients.dx, kTol, "grad_input"));
        EXPECT_TRUE(tensorsClose(out.gradients.dh0.cast<double>(), ref.gradients.dh0, kTol, "grad_h0"));
        if (problem.config.cell == CellType::Lstm) {
            EXPECT_TRUE(tensorsClose(out.gradients.dc0.cast<double>(), ref.gradients.dc0, kTol, "grad_c0"));
        }
    }
    Tensor<double> after({std::int64_t(ref.paramsAfter.values.size())});
    Tensor<double> want = after;
    after.data.assign(out.paramsAfter.values.begin(), out.paramsAfter.values.end());
    want.data = ref.paramsAfter.values;
    EXPECT_TRUE(tensorsClose(after, want, kTol, "parameters after SGD"));
}

enum class Cell { Lstm, GruResetAfter, GruResetBefore };

struct Case {
    Cell cell;
    bool reluHard; // activation relu + recurrent activation hard_sigmoid
    bool masks;    // recurrent dropout and dropout between layers
    bool bidirectional;
    int seqLen;
    Mode mode;
};

Problem makeProblem(const Case& c) {
    Problem p;
    RnnConfig& r = p.config;
    r.cell = c.cell == Cell::Lstm ? CellType::Lstm : CellType::Gru;
    r.resetAfter = c.cell != Cell::GruResetBefore;
    r.inputSize = 3;
    r.hiddenSize = 5;
    r.layers = 2;
    r.bidirectional = c.bidirectional;
    if (c.reluHard) {
        r.activation = Activation::Relu;
        r.recurrentActivation = RecurrentActivation::HardSigmoid;
    }
    if (c.masks) {
        r.recurrentDropout = 0.3;
        r.dropout = 0.4;
    }
    r.seed = 11 + std::uint64_t(c.seqLen) * 7 + (c.bidirectional ? 3 : 0);
    p.shape = {3, c.seqLen};
    p.mode = c.mode;
    p.inputGradients = true;
    p.options.learningRate = 0.1;
    return p;
}

std::vector<Case> allCases() {
    std::vector<Case> cases;
    for (Cell cell : {Cell::Lstm, Cell::GruResetAfter, Cell::GruResetBefore})
        for (bool reluHard : {false, true})
            for (bool masks : {false, true})
                for (bool bi : {false, true})
                    for (int T = 1; T <= 3; ++T)
                        for (Mode mode : {Mode::Inference, Mode::Training})
                            cases.push_back({cell, reluHard, masks, bi, T, mode});
    return cases;
}

std::string caseName(const ::testing::TestParamInfo<Case>& info) {
    const Case& c = info.param;
    static const char* const cells[] = {"Lstm", "GruResetAfter", "GruResetBefore"};
    return std::string(cells[int(c.cell)]) + (c.reluHard ? "_ReluHard" : "_TanhSigmoid") +
           (c.masks ? "_Masks" : "_NoMasks") + (c.bidirectional ? "_Bi" : "_Uni") + "_T" +
           std::to_string(c.seqLen) + (c.mode == Mode::Training ? "_Train" : "_Infer");
}

class GenericHostEmulation : public ::testing::TestWithParam<Case> {};

TEST_P(GenericHostEmulation, MatchesReference) {
    const Problem problem = makeProblem(GetParam());
    HostGenericRun run(problem);
    NullPhaseHook hook;
    run.run(hook);
    EXPECT_EQ(run.exec.invalidGemms, 0) << "a GEMM cuBLAS would reject";
    expectMatchesReference(problem, run.outputs());
}

INSTANTIATE_TEST_SUITE_P(Cells, GenericHostEmulation, ::testing::ValuesIn(allCases()), caseName);

TEST(GenericHostEmulationOptions, MatchesReferenceWithoutBiasAndWithThreeLayers) {
    for (Cell cell : {Cell::Lstm, Cell::GruResetAfter, Cell::GruResetBefore})
        for (Mode mode : {Mode::Inference, Mode::Training}) {
            Problem p = makeProblem({cell, false, true, true, 3, mode});
            p.config.bias = false;
            p.config.layers = 3;
            SCOPED_TRACE(describe(p.config));
            HostGenericRun run(p);
            NullPhaseHook hook;
            run.run(hook);
            expectMatchesReference(p, run.outputs());
        }
}

TEST(GenericHostEmulationOptions, MatchesReferenceWithOneLayerAndLargerShapes) {
    for (Cell cell : {Cell::Lstm, Cell::GruResetAfter, Cell::GruResetBefore}) {
        Problem p = makeProblem({cell, false, true, false, 3, Mode::Training});
        p.config.layers = 1;
        p.config.inputSize = 7;
        p.config.hiddenSize = 9;
        p.shape = {5, 3};
        SCOPED_TRACE(describe(p.config));
        HostGenericRun run(p);
        NullPhaseHook hook;
        run.run(hook);
        expectMatchesReference(p, run.outputs());
    }
}

TEST(GenericHostEmulationOptions, BackpropagatesFromGradientOverrides) {
    for (Cell cell : {Cell::Lstm, Cell::GruResetAfter, Cell::GruResetBefore}) {
        Problem p = makeProblem({cell, false, false, true, 3, Mode::Training});
        test::setGradientOverrides(p);
        SCOPED_TRACE(describe(p.config));
        HostGenericRun run(p);
        NullPhaseHook hook;
        run.run(hook);
        const RunOutputs out = run.outputs();
        EXPECT_EQ(out.loss, 0.0); // no loss when the output gradient is given
        expectMatchesReference(p, out);
    }
}

TEST(GenericHostEmulationOptions, WithoutInputGradientsComputesOnlyParameterGradients) {
    Problem p = makeProblem({Cell::Lstm, false, false, true, 3, Mode::Training});
    p.inputGradients = false;
    HostGenericRun run(p);
    NullPhaseHook hook;
    run.run(hook);
    const RunOutputs out = run.outputs();
    EXPECT_TRUE(out.gradients.dx.empty());
    EXPECT_TRUE(out.gradients.dh0.empty());
    EXPECT_TRUE(out.gradients.dc0.empty());
    expectMatchesReference(p, out);
}

// Copies `width` columns starting at `first` of every row of a [T, B, rowWidth] buffer.
Tensor<double> columns(const float* p, std::int64_t T, std::int64_t B, std::int64_t rowWidth,
                       std::int64_t first, std::int64_t width) {
    Tensor<double> t({T, B, width});
    for (std::int64_t r = 0; r < T * B; ++r)
        for (std::int64_t j = 0; j < width; ++j)
            t.data[std::size_t(r * width + j)] = p[r * rowWidth + first + j];
    return t;
}

Tensor<double> columns(const Tensor<double>& t, std::int64_t first, std::int64_t width) {
    std::vector<float> f(t.data.begin(), t.data.end());
    return columns(f.data(), t.shape[0], t.shape[1], t.shape[2], first, width);
}

// What the forward kernels keep for backward, step by step, equals the reference's forward pass:
// gate outputs, LSTM cells, GRU's hn (reset_after) or r * hRec (reset_before).
TEST(GenericHostEmulationOptions, KeepsTheReferenceGatesAndCellsOfEveryStep) {
    for (Cell cell : {Cell::Lstm, Cell::GruResetAfter, Cell::GruResetBefore}) {
        const Problem p = makeProblem({cell, true, true, true, 3, Mode::Training});
        SCOPED_TRACE(describe(p.config));
        HostGenericRun run(p);
        NullPhaseHook hook;
        run.run(hook);
        const auto data = makeProblemData<double>(p.config, p.shape, p.mode);
        const auto params = initParams<double>(p.config, p.config.seed);
        const auto fwd = reference::forward<double>(p.config, params, data.x, data.h0, data.c0, &data.masks);
        const auto& d = run.dims();
        const auto& b = run.buffers();
        for (std::size_t k = 0; k < fwd.gates.size(); ++k) {
            const std::int64_t GH = d.GH(), H = d.H;
            EXPECT_TRUE(tensorsClose(columns(b.saved[k], d.T, d.B, d.savedWidth(), 0, GH), fwd.gates[k], kTol,
                                     "gates of slot " + std::to_string(k)));
            if (cell == Cell::Lstm) {
                EXPECT_TRUE(
                    tensorsClose(columns(b.cells[k], d.T, d.B, H, 0, H), fwd.cells[k], kTol, "cells"));
            } else if (cell == Cell::GruResetAfter) {
                EXPECT_TRUE(
                    tensorsClose(columns(b.saved[k], d.T, d.B, 4 * H, 3 * H, H), fwd.extra[k], kTol, "hn"));
            } else {
                EXPECT_TRUE(
                    tensorsClose(columns(b.rh[k], d.T, d.B, H, 0, H), fwd.extra[k], kTol, "r * hRec"));
            }
        }
        EXPECT_TRUE(tensorsClose(columns(b.layerOut[0], d.T, d.B, d.DH(), 0, d.DH()),
                                 columns(fwd.layerOutputs[0], 0, d.DH()), kTol, "layer 0 output"));
    }
}

TEST(GenericHostEmulationOptions, ExercisesEveryStepKernelFunctor) {
    std::set<std::string> seen;
    for (const Case& c : allCases()) {
        HostGenericRun run(makeProblem(c));
        NullPhaseHook hook;
        run.run(hook);
        seen.insert(run.exec.functors.begin(), run.exec.functors.end());
    }
    using A = gates::CellActs<gates::Act::Tanh, gates::Act::Sigmoid>;
    for (const char* name :
         {typeid(kernels::LstmForwardKernel<A, float>).name(),
          typeid(kernels::GruForwardKernel<A, float>).name(),
          typeid(kernels::GruResetBeforeGatesKernel<A, float>).name(),
          typeid(kernels::GruResetBeforeOutputKernel<A, float>).name(),
          typeid(kernels::LstmBackwardKernel<A, float>).name(),
          typeid(kernels::GruBackwardKernel<A, float>).name(),
          typeid(kernels::GruResetBeforeBackwardKernel<A, float>).name(),
          typeid(kernels::GruResetBeforeResetKernel<A, float>).name(),
          typeid(kernels::InitialStateGradKernel<float>).name(), typeid(kernels::MaskKernel<float>).name(),
          typeid(kernels::SgdKernel<float>).name(), typeid(kernels::MseGradKernel<float>).name()})
        EXPECT_TRUE(seen.count(name)) << name << " was never launched";
}

} // namespace
} // namespace rnnprof

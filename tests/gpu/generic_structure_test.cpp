// The shape of gpu-generic's work, checked on the host executor: one input GEMM per layer, one
// recurrent GEMM and one cell kernel per step, weight gradients over all steps in one GEMM per
// matrix, and every sub-step marked inside its phase (each followed by a synchronisation).
#include "tests/gpu/host_exec.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rnnprof {
namespace {

using test::HostGenericRun;

Problem smallProblem(CellType cell, Mode mode, int seqLen) {
    Problem p;
    p.config.cell = cell;
    p.config.inputSize = 4;
    p.config.hiddenSize = 3;
    p.shape = {2, seqLen};
    p.mode = mode;
    return p;
}

TEST(GenericStructure, InferenceIssuesOneInputGemmAndOneRecurrentGemmAndKernelPerStep) {
    for (CellType cell : {CellType::Lstm, CellType::Gru}) {
        HostGenericRun run(smallProblem(cell, Mode::Inference, 6));
        NullPhaseHook hook;
        run.run(hook);
        EXPECT_EQ(run.exec.gemms, 1 + 6);
        EXPECT_EQ(run.exec.launches, 6);
    }
}

TEST(GenericStructure, GruResetBeforeNeedsASecondGemmAndKernelPerStep) {
    Problem p = smallProblem(CellType::Gru, Mode::Inference, 6);
    p.config.resetAfter = false;
    HostGenericRun run(p);
    NullPhaseHook hook;
    run.run(hook);
    EXPECT_EQ(run.exec.gemms, 1 + 2 * 6);
    EXPECT_EQ(run.exec.launches, 2 * 6);
}

TEST(GenericStructure, BidirectionalLayersProjectBothDirectionsWithOneGemm) {
    Problem p = smallProblem(CellType::Lstm, Mode::Inference, 5);
    p.config.bidirectional = true;
    p.config.layers = 2;
    HostGenericRun run(p);
    NullPhaseHook hook;
    run.run(hook);
    EXPECT_EQ(run.exec.gemms, 2 * (1 + 2 * 5)); // per layer: input GEMM + per direction and step
}

TEST(GenericStructure, TrainingComputesWeightGradientsOverAllStepsAtOnce) {
    Problem p = smallProblem(CellType::Lstm, Mode::Training, 7);
    p.inputGradients = false;
    HostGenericRun run(p);
    NullPhaseHook hook;
    run.run(hook);
    // forward 1 + 7; backward: 6 recurrent-gradient GEMMs (none needed before step 0 without input
    // gradients), dW_hh and dW_ih once each, and each bias gradient as one GEMM of a row of ones
    // with all T*B rows (not a kernel summing them serially).
    EXPECT_EQ(run.exec.gemms, (1 + 7) + 6 + 2 + 2);
    // forward: h0 mask + 7 cells; backward: loss, 7 cells; update: SGD.
    EXPECT_EQ(run.exec.launches, (1 + 7) + 1 + 7 + 1);
}

std::string mark(char sign, std::string_view phase) {
    std::string s(1, sign);
    s.append(phase);
    return s;
}

class RecordingHook final : public PhaseHook {
public:
    void beginPhase(Phase p) override {
        EXPECT_FALSE(inPhase) << "phases must not nest";
        inPhase = true;
        events.push_back(mark('+', toString(p)));
    }
    void endPhase(Phase p) override {
        EXPECT_TRUE(inPhase);
        inPhase = false;
        events.push_back(mark('-', toString(p)));
    }
    void beginStep(const char* name) override {
        EXPECT_TRUE(inPhase) << name << " outside a phase";
        ++steps;
        events.push_back(std::string("step ") + name);
    }
    bool inPhase = false;
    int steps = 0;
    std::vector<std::string> events;
};

TEST(GenericStructure, MarksNamedStepsInsidePhases) {
    Problem p = smallProblem(CellType::Gru, Mode::Training, 3);
    p.config.layers = 2;
    p.config.dropout = 0.5;
    p.inputGradients = true;
    HostGenericRun run(p);
    RecordingHook hook;
    run.run(hook);
    const std::vector<std::string> expected{"+forward",
                                            "step input GEMM",
                                            "step recurrent steps",
                                            "step dropout",
                                            "step input GEMM",
                                            "step recurrent steps",
                                            "-forward",
                                            "+backward",
                                            "step loss",
                                            "step recurrent steps",
                                            "step weight-gradient GEMM",
                                            "step weight-gradient GEMM",
                                            "step input-gradient GEMM",
                                            "step dropout",
                                            "step recurrent steps",
                                            "step weight-gradient GEMM",
                                            "step weight-gradient GEMM",
                                            "step input-gradient GEMM",
                                            "-backward",
                                            "+update",
                                            "step SGD update",
                                            "-update"};
    EXPECT_EQ(hook.events, expected);
}

TEST(GenericStructure, InferenceKeepsNothingForBackward) {
    Problem p = smallProblem(CellType::Lstm, Mode::Inference, 4);
    p.config.layers = 3;
    const auto dims = gpu::GenericDims::of(p);
    const MemoryFootprint m = gpu::genericFootprint(dims);
    EXPECT_TRUE(m.onDevice);
    EXPECT_EQ(m.activations, 0u);
    EXPECT_EQ(m.gradients, 0u);
    p.mode = Mode::Training;
    const MemoryFootprint t = gpu::genericFootprint(gpu::GenericDims::of(p));
    EXPECT_GT(t.activations, 0u);
    EXPECT_EQ(t.gradients, t.weights);
}

TEST(GenericStructure, FootprintCoversTheWholeArenaPlusTheCublasWorkspace) {
    for (Mode mode : {Mode::Inference, Mode::Training}) {
        Problem p = smallProblem(CellType::Gru, mode, 9);
        p.config.bidirectional = true;
        p.config.layers = 2;
        p.config.resetAfter = false;
        p.config.recurrentDropout = 0.2;
        const auto dims = gpu::GenericDims::of(p);
        EXPECT_EQ(gpu::genericFootprint(dims).total(),
                  std::uint64_t(gpu::genericArenaElements(dims)) * sizeof(float) +
                      gpu::kCublasWorkspaceBytes);
    }
}

TEST(GenericStructure, BuffersDoNotOverlap) {
    Problem p = smallProblem(CellType::Lstm, Mode::Training, 4);
    p.config.bidirectional = true;
    p.config.layers = 3;
    p.config.dropout = 0.3;
    p.config.recurrentDropout = 0.3;
    p.inputGradients = true;
    const auto dims = gpu::GenericDims::of(p);
    std::vector<float> arena(std::size_t(gpu::genericArenaElements(dims)));
    const gpu::GenericBuffers b = gpu::bindGenericBuffers(dims, arena.data());
    // Every named buffer starts at a distinct, 256-byte aligned place inside the arena.
    std::vector<const float*> starts{b.params, b.grads, b.x,       b.h0,      b.c0,    b.y,       b.hN, b.cN,
                                     b.target, b.dy,    b.dx,      b.dh0,     b.dc0,   b.xp,      b.hp, b.dXP,
                                     b.dOutA,  b.dOutB, b.dhCarry, b.dcCarry, b.dhRec, b.lossNorm};
    for (const auto* v : {&b.recurrentMask, &b.betweenMask, &b.saved, &b.cells, &b.hRec})
        starts.insert(starts.end(), v->begin(), v->end());
    for (std::size_t l = 0; l + 1 < b.layerOut.size(); ++l)
        starts.push_back(b.layerOut[l]);
    for (std::size_t l = 1; l < b.layerIn.size(); ++l)
        starts.push_back(b.layerIn[l]);
    std::set<const float*> unique;
    for (const float* s : starts) {
        ASSERT_NE(s, nullptr);
        EXPECT_GE(s, arena.data());
        EXPECT_LT(s, arena.data() + arena.size());
        EXPECT_EQ((s - arena.data()) % 64, 0);
        unique.insert(s);
    }
    EXPECT_EQ(unique.size(), starts.size());
    EXPECT_EQ(b.layerOut.back(), b.y);
}

} // namespace
} // namespace rnnprof

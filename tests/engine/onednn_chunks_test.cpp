// cpu-onednn runs a long layer in chunks of time steps, one primitive call per chunk, and a
// bidirectional one as two unidirectional parts, so that a stop is honoured between calls. The
// chunked session must compute what the reference computes (outputs, states, every gradient, the
// parameters after SGD), hold exactly the memory its plan estimates, and stop between chunks.
// Small problems are chunked by giving the plan a small FLOP budget per call.
#include "engine/backend.h"
#include "engine/cpu/onednn_plan.h"
#include "engine/cpu/onednn_session.h"
#include "support/cpu_problems.h"
#include "support/random_problems.h"
#include "support/reference_check.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rnnprof {
namespace {

using cpu::OneDnnChunk;
using cpu::oneDnnChunks;

TEST(OneDnnChunks, AsManyStepsAsTheBudgetHoldsTheLastChunkShorter) {
    EXPECT_EQ(oneDnnChunks(7, 10.0, 30.0), (std::vector<OneDnnChunk>{{0, 3}, {3, 3}, {6, 1}}));
    EXPECT_EQ(oneDnnChunks(6, 10.0, 35.0), (std::vector<OneDnnChunk>{{0, 3}, {3, 3}}));
}

TEST(OneDnnChunks, OneChunkWhenTheWholeSequenceFitsAndOneStepWhenNoneDoes) {
    EXPECT_EQ(oneDnnChunks(7, 10.0, 70.0), (std::vector<OneDnnChunk>{{0, 7}}));
    EXPECT_EQ(oneDnnChunks(7, 10.0, 1e30), (std::vector<OneDnnChunk>{{0, 7}}));
    EXPECT_EQ(oneDnnChunks(3, 10.0, 5.0), (std::vector<OneDnnChunk>{{0, 1}, {1, 1}, {2, 1}}));
}

constexpr int kSteps = 7;

Problem problem(CellType cell, bool resetAfter, bool bidirectional, Mode mode) {
    Problem p = test::inferenceProblem(cell, 5, 6, 2, 11, 1);
    p.config.resetAfter = resetAfter;
    p.config.bidirectional = bidirectional;
    p.mode = mode;
    p.shape = {3, kSteps};
    p.inputGradients = true;
    return p;
}

// The forward GEMM FLOPs of `steps` steps of one direction of layer 2 (the wider input of the two).
double budgetOf(const Problem& p, int steps) {
    const double gates = p.config.cell == CellType::Lstm ? 4 : 3;
    const double in = double(p.config.hiddenSize) * (p.config.bidirectional ? 2 : 1);
    return steps * 2.0 * p.shape.batch * gates * p.config.hiddenSize * (in + p.config.hiddenSize);
}

struct Case {
    CellType cell;
    bool resetAfter, bidirectional;
    Mode mode;
};

std::vector<Case> cases() {
    std::vector<Case> out;
    for (const Mode mode : {Mode::Inference, Mode::Training})
        for (const bool bidirectional : {false, true}) {
            out.push_back({CellType::Lstm, true, bidirectional, mode});
            out.push_back({CellType::Gru, true, bidirectional, mode});
            out.push_back({CellType::Gru, false, bidirectional, mode});
        }
    return out;
}

TEST(OneDnnChunkedLayers, ComputeWhatTheReferenceComputes) {
    for (const Case& c : cases())
        for (const int steps : {3, 1}) {
            const Problem p = problem(c.cell, c.resetAfter, c.bidirectional, c.mode);
            SCOPED_TRACE(test::describeProblem(p) + ", chunks of " + std::to_string(steps) + " steps");
            cpu::OneDnnPlan plan(p, budgetOf(p, steps));
            for (const auto& layer : plan.layers()) {
                ASSERT_GE(layer.chunks.size(), std::size_t(kSteps / steps));
                EXPECT_EQ(layer.parts, c.bidirectional ? 2 : 1) << "a chunked bidirectional layer is split";
            }
            cpu::OneDnnSession session(p, std::move(plan));
            if (steps == 3) {
                EXPECT_TRUE(test::hasNote(session.notes(), "layer 2 in 3 chunks of up to 3 time steps"));
            }
            test::expectRunMatchesReference(session, p);
        }
}

TEST(OneDnnChunkedLayers, HoldTheMemoryTheirPlanEstimates) {
    for (const Case& c : cases()) {
        const Problem p = problem(c.cell, c.resetAfter, c.bidirectional, c.mode);
        SCOPED_TRACE(test::describeProblem(p));
        const MemoryFootprint estimate = cpu::OneDnnPlan(p, budgetOf(p, 3)).footprint();
        const cpu::OneDnnSession session(p, cpu::OneDnnPlan(p, budgetOf(p, 3)));
        const MemoryFootprint held = session.memory();
        EXPECT_EQ(held.weights, estimate.weights);
        EXPECT_EQ(held.gradients, estimate.gradients);
        EXPECT_EQ(held.activations, estimate.activations);
        EXPECT_EQ(held.workspace, estimate.workspace);
        EXPECT_EQ(held.io, estimate.io);
    }
}

TEST(OneDnnChunkedLayers, RunInOneCallPerLayerWhenTheLayerFitsTheBudget) {
    const Problem p = problem(CellType::Lstm, true, true, Mode::Training);
    const cpu::OneDnnPlan plan(p);
    for (const auto& layer : plan.layers()) {
        EXPECT_EQ(layer.chunks, (std::vector<OneDnnChunk>{{0, kSteps}}));
        EXPECT_EQ(layer.parts, 1) << "both directions in one primitive";
    }
    EXPECT_EQ(plan.chunking(), "");
}

// Requests a stop when the hook sees step `trigger` begin ("layer 0 forward" is the first layer's).
class StopAtStep final : public PhaseHook {
public:
    StopAtStep(StopToken& stop, std::string trigger) : m_stop(stop), m_trigger(std::move(trigger)) {}
    void beginPhase(Phase) override {}
    void endPhase(Phase) override {}
    void beginStep(const char* name) override {
        if (name == m_trigger) m_stop.requestStop();
    }
    void endStep(const char*) override {}

private:
    StopToken& m_stop;
    std::string m_trigger;
};

std::string stoppedWhere(const Problem& p, double budget, const std::string& trigger) {
    cpu::OneDnnSession session(p, cpu::OneDnnPlan(p, budget));
    StopToken stop;
    session.setStopToken(&stop);
    StopAtStep hook(stop, trigger);
    try {
        session.run(hook);
    } catch (const StopRequested& e) {
        return e.where();
    }
    return "completed";
}

TEST(OneDnnChunkedLayers, AStopInsideALayerEndsTheRunAfterTheChunkThatIsRunning) {
    const Problem uni = problem(CellType::Lstm, true, false, Mode::Training);
    EXPECT_EQ(stoppedWhere(uni, budgetOf(uni, 3), "layer 1 forward"),
              "in forward, layer 2 of 2, before time steps 4 to 6 of 7");
    EXPECT_EQ(stoppedWhere(uni, budgetOf(uni, 3), "layer 0 backward"),
              "in backward, layer 1 of 2, before time steps 4 to 6 of 7");
    // The reverse part runs its first chunk right after the forward part's first.
    const Problem bi = problem(CellType::Gru, true, true, Mode::Training);
    EXPECT_EQ(stoppedWhere(bi, budgetOf(bi, 3), "layer 1 forward"),
              "in forward, layer 2 of 2, before time step 7 of 7 of the reverse direction");
    // Unchunked, the layer runs to its end: the next check is before the next layer.
    EXPECT_EQ(stoppedWhere(uni, 1e30, "layer 0 forward"), "in forward, before layer 2 of 2");
}

} // namespace
} // namespace rnnprof

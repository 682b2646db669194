// A stop request inside an iteration (Session::setStopToken): the CPU backends check the token
// between the steps of a run (cpu-reference and cpu-blas before every time step, cpu-onednn before
// every layer primitive, each before the update) and abandon the run with StopRequested, which says
// where. Counted by what the phase hook saw and by the time step the error names, compared with
// the sequence length; never by time. cpu-blas's step team must agree on the step it stops at, or
// a barrier would wait forever for a thread that left.
#include "engine/backend.h"
#include "engine/cpu/step_team.h"
#include "support/compare.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

namespace rnnprof {
namespace {

constexpr int kSteps = 7; // the sequence length of every problem here

// Records what a run marked ("+forward", "+step:input GEMM", "-step:input GEMM", "-forward", ...)
// and requests a stop when it sees `trigger`.
class RecordingHook final : public PhaseHook {
public:
    RecordingHook(StopToken& stop, std::string trigger) : m_stop(stop), m_trigger(std::move(trigger)) {}
    // append(), not operator+: GCC 12 warns falsely (-Wrestrict) about "+" + std::string.
    void beginPhase(Phase p) override { record(std::string("+").append(toString(p))); }
    void endPhase(Phase p) override { record(std::string("-").append(toString(p))); }
    void beginStep(const char* name) override { record(std::string("+step:").append(name)); }
    void endStep(const char* name) override { record(std::string("-step:").append(name)); }
    [[nodiscard]] const std::vector<std::string>& events() const { return m_events; }
    [[nodiscard]] int stepsBegun() const {
        int n = 0;
        for (const std::string& e : m_events)
            n += e.rfind("+step:", 0) == 0 ? 1 : 0;
        return n;
    }
    [[nodiscard]] bool saw(const std::string& event) const {
        return std::find(m_events.begin(), m_events.end(), event) != m_events.end();
    }

private:
    void record(std::string event) {
        if (event == m_trigger) m_stop.requestStop();
        m_events.push_back(std::move(event));
    }
    StopToken& m_stop;
    std::string m_trigger;
    std::vector<std::string> m_events;
};

// A two-layer LSTM in training: forward, backward and update, kSteps time steps per layer.
Problem trainingProblem(int threads, int hidden = 8, int batch = 3) {
    Problem p;
    p.config.cell = CellType::Lstm;
    p.config.inputSize = 5;
    p.config.hiddenSize = hidden;
    p.config.layers = 2;
    p.shape = {batch, kSteps};
    p.mode = Mode::Training;
    p.options.threads = threads;
    return p;
}

const Backend* usableBackend(const std::string& id, const Problem& problem, std::string& why) {
    const Backend* b = builtinBackends().find(id);
    if (!b) {
        why = id + " is not built in";
        return nullptr;
    }
    if (const Verdict v = assess(*b, problem); !v.ready()) {
        why = v.reason;
        return nullptr;
    }
    return b;
}

// Runs `session` with `stop` set when the hook sees `trigger` (empty: set before the run); returns
// where the session said it stopped, or "" when the run completed.
std::string runUntilStopped(Session& session, RecordingHook& hook, StopToken& stop) {
    session.setStopToken(&stop);
    try {
        session.run(hook);
    } catch (const StopRequested& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Cancelled);
        return e.where();
    }
    return {};
}

struct FirstCheck {
    std::string backend;
    std::string where; // where an already-stopped token ends the run
};

class StopInsideAnIteration : public ::testing::TestWithParam<FirstCheck> {};

TEST_P(StopInsideAnIteration, AnAlreadyStoppedTokenEndsTheRunAtItsFirstCheck) {
    const Problem problem = trainingProblem(1);
    std::string why;
    const Backend* backend = usableBackend(GetParam().backend, problem, why);
    if (!backend) GTEST_SKIP() << why;

    StopToken never;
    RecordingHook complete(never, "");
    auto full = backend->prepare(problem);
    EXPECT_EQ(runUntilStopped(*full, complete, never), "");
    ASSERT_TRUE(complete.saw("+update")) << "the complete run is the baseline: every phase";

    StopToken stop;
    stop.requestStop();
    RecordingHook hook(stop, "");
    auto session = backend->prepare(problem);
    EXPECT_EQ(runUntilStopped(*session, hook, stop), GetParam().where);
    EXPECT_EQ(hook.events(), (std::vector<std::string>{"+forward", "-forward"}));
    EXPECT_EQ(hook.stepsBegun(), 0) << "of " << complete.stepsBegun() << " in a complete run";
}

TEST_P(StopInsideAnIteration, AStopInBackwardSkipsTheUpdateAndTheNextRunIsComplete) {
    const Problem problem = trainingProblem(1);
    std::string why;
    const Backend* backend = usableBackend(GetParam().backend, problem, why);
    if (!backend) GTEST_SKIP() << why;

    StopToken stop;
    RecordingHook hook(stop, "+backward");
    auto session = backend->prepare(problem);
    const std::string where = runUntilStopped(*session, hook, stop);
    EXPECT_EQ(where.rfind("in backward, ", 0), 0u) << where;
    EXPECT_TRUE(hook.saw("-forward"));
    EXPECT_FALSE(hook.saw("+update")) << "the parameters were not touched";

    // The abandoned run changed nothing a later run reads: it computes what a fresh session does.
    stop.reset();
    RecordingHook again(stop, "");
    EXPECT_EQ(runUntilStopped(*session, again, stop), "");
    auto fresh = backend->prepare(problem);
    NullPhaseHook none;
    fresh->run(none);
    const RunOutputs a = session->outputs(), b = fresh->outputs();
    EXPECT_TRUE(test::tensorsClose(a.y, b.y, 1e-6, "y"));
    EXPECT_NEAR(a.loss, b.loss, 1e-6 * std::max(1.0, b.loss));
    Tensor<float> pa({std::int64_t(a.paramsAfter.values.size())}), pb(pa.shape);
    pa.data = a.paramsAfter.values;
    pb.data = b.paramsAfter.values;
    EXPECT_TRUE(test::tensorsClose(pa, pb, 1e-6, "parameters after SGD"));
}

INSTANTIATE_TEST_SUITE_P(CpuBackends, StopInsideAnIteration,
                         ::testing::Values(FirstCheck{"cpu-reference",
                                                      "in forward, layer 1 of 2, before time step 1 of 7"},
                                           FirstCheck{"cpu-blas", "in forward, before layer 1 of 2"},
                                           FirstCheck{"cpu-onednn", "in forward, before layer 1 of 2"}),
                         [](const auto& info) {
                             std::string name = info.param.backend;
                             std::replace(name.begin(), name.end(), '-', '_');
                             return name;
                         });

// The step of "before time step N of 7" in `where`, 0 when there is none.
int timeStepIn(const std::string& where) {
    const std::string key = "before time step ";
    const auto at = where.find(key);
    return at == std::string::npos ? 0 : std::stoi(where.substr(at + key.size()));
}

// A stop requested as the recurrence of layer 1 begins ends it at its first step or, with a team
// of several threads (which learn of it from thread 0 at the next barrier), the second; a check
// only between layers would compute all kSteps of them first. H=64 at B=64 on two threads runs
// on a team over the rows, which has no barrier.
TEST(StopInsideTheRecurrence, CpuBlasStopsWithinTheFirstStepsOfTheSequence) {
    for (const auto& [threads, hidden, batch] : {std::tuple{1, 256, 3}, {4, 256, 3}, {2, 64, 64}}) {
        SCOPED_TRACE("threads " + std::to_string(threads) + ", H=" + std::to_string(hidden));
        const Problem problem = trainingProblem(threads, hidden, batch);
        std::string why;
        const Backend* backend = usableBackend("cpu-blas", problem, why);
        if (!backend) GTEST_SKIP() << why;
        StopToken stop;
        RecordingHook hook(stop, "+step:recurrent steps");
        auto session = backend->prepare(problem);
        const std::string where = runUntilStopped(*session, hook, stop);
        EXPECT_EQ(where.rfind("in forward, layer 1 of 2, before time step ", 0), 0u) << where;
        const int step = timeStepIn(where);
        EXPECT_GE(step, 1) << where;
        EXPECT_LE(step, 2) << where << " (the sequence has " << kSteps << ")";
        EXPECT_FALSE(hook.saw("+step:weight-gradient GEMM"));
    }
}

TEST(StopInsideTheRecurrence, CpuReferenceStopsBeforeTheFirstStepOfBackward) {
    const Problem problem = trainingProblem(1);
    StopToken stop;
    RecordingHook hook(stop, "+backward");
    auto session = builtinBackends().find("cpu-reference")->prepare(problem);
    EXPECT_EQ(runUntilStopped(*session, hook, stop), "in backward, layer 2 of 2, before time step 1 of 7");
}

// Every thread of a step team leaves the loop at the same step, whichever step thread 0 sees the
// request at; the team returns (no barrier left waiting) and says which step that was.
TEST(StepTeamStop, EveryThreadStopsBeforeTheSameStep) {
    constexpr int kLoop = 50;
    constexpr int kRequestAt = 10;
    for (const int size : {1, 2, 4}) {
        SCOPED_TRACE("team of " + std::to_string(size));
        StopToken stop;
        std::vector<int> stepsRun(std::size_t(size), 0);
        std::vector<int> teamSize(std::size_t(size), 0);
        cpu::RecurrentThreads threads;
        threads.team = size;
        const int stoppedAt =
            cpu::StepTeam::run(GemmProvider::OneDnn, threads, 64 * size, 1, &stop, [&](cpu::StepTeam& team) {
                teamSize[std::size_t(team.index())] = team.size();
                for (int s = 0; s < kLoop; ++s) {
                    if (team.stopBefore(s)) return;
                    if (team.index() == 0 && s == kRequestAt) stop.requestStop();
                    ++stepsRun[std::size_t(team.index())];
                    team.barrier();
                }
            });
        const int actual = teamSize[0];
        ASSERT_GE(actual, 1);
        // Thread 0 asks at step 10 after its check: a team of one stops before step 11; a larger
        // team hears of it at its check of step 11 and all stop before step 12.
        EXPECT_EQ(stoppedAt, actual == 1 ? kRequestAt + 1 : kRequestAt + 2);
        for (int i = 0; i < actual; ++i)
            EXPECT_EQ(stepsRun[std::size_t(i)], stoppedAt) << "thread " << i;
    }
}

// A team over the rows waits at no barrier: thread 0 publishes the step its team stops before, and
// each thread stops at the first step from there that it starts; one that ran ahead may have run
// more steps, none fewer, and the team returns.
TEST(StepTeamStop, ATeamOverTheRowsStopsEveryThreadWithoutWaiting) {
    constexpr int kLoop = 50;
    constexpr int kRequestAt = 10;
    for (const int size : {2, 4}) {
        SCOPED_TRACE("team of " + std::to_string(size));
        StopToken stop;
        std::vector<int> stepsRun(std::size_t(size), 0);
        int actual = 0;
        const cpu::RecurrentThreads threads{.team = size, .singleTeam = 1, .rows = true};
        const int stoppedAt =
            cpu::StepTeam::run(GemmProvider::OneDnn, threads, 16, 8 * size, &stop, [&](cpu::StepTeam& team) {
                if (team.index() == 0) actual = team.size();
                EXPECT_EQ(team.slice().width(), 16) << "every unit";
                for (int s = 0; s < kLoop; ++s) {
                    if (team.stopBefore(s)) return;
                    if (team.index() == 0 && s == kRequestAt) stop.requestStop();
                    ++stepsRun[std::size_t(team.index())];
                    team.barrier();
                }
            });
        // As in a team over the units: thread 0 of a team of several publishes "before step 12".
        EXPECT_EQ(stoppedAt, actual == 1 ? kRequestAt + 1 : kRequestAt + 2);
        EXPECT_EQ(stepsRun[0], stoppedAt);
        for (int i = 1; i < actual; ++i) {
            EXPECT_GE(stepsRun[std::size_t(i)], stoppedAt) << "thread " << i;
            EXPECT_LE(stepsRun[std::size_t(i)], kLoop) << "thread " << i;
        }
    }
}

TEST(StepTeamStop, WithoutATokenOrARequestEveryStepRuns) {
    StopToken stop;
    const StopToken* unset = &stop;
    for (const StopToken* token : {static_cast<const StopToken*>(nullptr), unset}) {
        int steps = 0;
        const int stoppedAt =
            cpu::StepTeam::run(GemmProvider::OneDnn, {}, 16, 1, token, [&](cpu::StepTeam& team) {
                for (int s = 0; s < 20; ++s) {
                    if (team.stopBefore(s)) return;
                    ++steps;
                    team.barrier();
                }
            });
        EXPECT_EQ(stoppedAt, -1);
        EXPECT_EQ(steps, 20);
    }
}

} // namespace
} // namespace rnnprof

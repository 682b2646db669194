// Every backend against cpu-reference (double) on random problems: outputs, final states, all
// gradients within 1e-4 (norm-wise relative, float) and the parameters after one SGD step.
// Unsupported combinations must come with reasons; unavailable backends skip with theirs. cpu-blas
// runs once more per vector ISA of its step kernels (RNNPROF_CPU_ISA, see tests/CMakeLists.txt).
#include "engine/backend.h"
#include "forced_isa.h"
#include "support/compare.h"
#include "support/random_problems.h"
#include "support/reference_check.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace rnnprof {
namespace {

std::vector<std::string> backendIds() {
    std::vector<std::string> ids;
    for (const Backend* b : builtinBackends().all())
        if (b->id() != "cpu-reference") ids.emplace_back(b->id());
    ids.emplace_back("cpu-reference"); // the float reference against the double one
    return ids;
}

// True when the session says its results cannot equal the reference's (cuDNN draws its own dropout
// masks); such problems are checked for finiteness only.
bool notComparable(const Session& session) {
    return !session.numericsComparable().comparable;
}

void expectMatchesReference(const Backend& backend, const Problem& problem) {
    auto session = backend.prepare(problem);
    if (notComparable(*session)) {
        NullPhaseHook hook;
        session->run(hook);
        for (float v : session->outputs().y.data)
            ASSERT_TRUE(std::isfinite(v));
        return;
    }
    test::expectRunMatchesReference(*session, problem);
}

class BackendConformance : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        if (const auto why = test::forcedIsaMissing()) GTEST_SKIP() << *why;
    }
};

TEST_P(BackendConformance, MatchesReferenceOnRandomProblems) {
    const Backend* backend = builtinBackends().find(GetParam());
    ASSERT_NE(backend, nullptr);
    if (const Availability a = backend->availability(); !a.available)
        GTEST_SKIP() << GetParam() << " unavailable: " << a.reason;
    int ran = 0;
    for (const Problem& problem : test::randomProblems({})) {
        const auto reasons = backend->unsupportedReasons(problem.config, problem.mode);
        if (!reasons.empty()) {
            for (const auto& r : reasons)
                EXPECT_FALSE(r.empty());
            continue;
        }
        SCOPED_TRACE(test::describeProblem(problem));
        expectMatchesReference(*backend, problem);
        ++ran;
    }
    EXPECT_GT(ran, 0) << "every random problem was unsupported";
}

TEST_P(BackendConformance, MatchesReferenceWithDefaultCellOptions) {
    const Backend* backend = builtinBackends().find(GetParam());
    ASSERT_NE(backend, nullptr);
    if (const Availability a = backend->availability(); !a.available)
        GTEST_SKIP() << GetParam() << " unavailable: " << a.reason;
    for (const Problem& problem : test::randomProblems({.count = 24, .seed = 7, .withOptions = false})) {
        SCOPED_TRACE(test::describeProblem(problem));
        const auto reasons = backend->unsupportedReasons(problem.config, problem.mode);
        ASSERT_TRUE(reasons.empty()) << "default cell options must be supported: " << reasons.front();
        expectMatchesReference(*backend, problem);
    }
}

// Hidden sizes large enough for cpu-blas to split the units across a two-thread team (its
// recurrence then runs with one barrier per step), with every cell option: the problems of a fixed
// random sequence, widened.
std::vector<Problem> wideProblemSequence() {
    std::vector<Problem> sequence = test::randomProblems({.count = 200, .seed = 99, .withOptions = true});
    for (Problem& problem : sequence) {
        // At least 96 units and 4 rows: enough work per step for cpu-blas's threading rule
        // (recurrentThreads) to form a two-thread team.
        problem.config.hiddenSize = 96 + int(problem.config.seed % 40);
        problem.config.layers = std::min(problem.config.layers, 2);
        problem.shape.seqLen = std::min(problem.shape.seqLen, 6);
        problem.shape.batch = 4 + int(problem.config.seed % 2);
        problem.options.threads = 2;
    }
    return sequence;
}

// The first twelve problems of the sequence are checked, and as many more as it takes to reach
// one the backend supports: cuDNN supports only some cell options, and none of the first twelve.
constexpr std::size_t kWideProblemsChecked = 12;

TEST_P(BackendConformance, MatchesReferenceWithWideHiddenLayersOnTwoThreads) {
    const Backend* backend = builtinBackends().find(GetParam());
    ASSERT_NE(backend, nullptr);
    if (const Availability a = backend->availability(); !a.available)
        GTEST_SKIP() << GetParam() << " unavailable: " << a.reason;
    const std::vector<Problem> sequence = wideProblemSequence();
    int ran = 0;
    for (std::size_t i = 0; i < sequence.size() && (i < kWideProblemsChecked || ran == 0); ++i) {
        const Problem& problem = sequence[i];
        if (!backend->unsupportedReasons(problem.config, problem.mode).empty()) continue;
        SCOPED_TRACE(test::describeProblem(problem));
        expectMatchesReference(*backend, problem);
        ++ran;
    }
    EXPECT_GT(ran, 0) << "none of " << sequence.size() << " random problems is supported by " << GetParam();
}

// Support does not need the device, so this holds on every machine: the test above reaches a
// supported problem for every backend, unavailable ones included (a GPU machine runs them).
TEST(BackendConformanceProblems, TheWideSequenceHoldsASupportedProblemForEveryBackend) {
    const std::vector<Problem> sequence = wideProblemSequence();
    for (const Backend* backend : builtinBackends().all()) {
        const auto supported = std::find_if(sequence.begin(), sequence.end(), [&](const Problem& p) {
            return backend->unsupportedReasons(p.config, p.mode).empty();
        });
        EXPECT_NE(supported, sequence.end()) << backend->id();
    }
}

TEST_P(BackendConformance, RepeatedRunsReuseTheSessionAndStayFinite) {
    const Backend* backend = builtinBackends().find(GetParam());
    ASSERT_NE(backend, nullptr);
    if (const Availability a = backend->availability(); !a.available)
        GTEST_SKIP() << GetParam() << " unavailable: " << a.reason;
    Problem p;
    p.config.inputSize = 8;
    p.config.hiddenSize = 16;
    p.shape = {3, 5};
    p.mode = Mode::Training;
    auto session = backend->prepare(p);
    NullPhaseHook hook;
    double firstLoss = 0;
    for (int i = 0; i < 5; ++i) {
        session->run(hook);
        const auto out = session->outputs();
        if (i == 0) firstLoss = out.loss;
        for (float v : out.y.data)
            ASSERT_TRUE(std::isfinite(v));
    }
    // Five SGD steps on a fixed target must lower the loss.
    EXPECT_LT(session->outputs().loss, firstLoss);
}

INSTANTIATE_TEST_SUITE_P(Backends, BackendConformance, ::testing::ValuesIn(backendIds()),
                         [](const auto& info) {
                             std::string n = info.param;
                             for (char& ch : n)
                                 if (ch == '-') ch = '_';
                             return n;
                         });

} // namespace
} // namespace rnnprof

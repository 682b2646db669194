// assess(): the one verdict that prepare() enforces and the sweep runner records, checked in a
// fixed order (configuration, availability, eligibility, memory).
#include "support/fake_backend.h"

#include "engine/backend.h"
#include "engine/error.h"

#include <gtest/gtest.h>

namespace rnnprof {
namespace {

using test::FakeBackend;
using test::FakeBehaviour;
using test::named;

Problem smallProblem() {
    Problem p;
    p.config.inputSize = 4;
    p.config.hiddenSize = 4;
    p.shape = {2, 3};
    return p;
}

ErrorKind refusalOfPrepare(const Backend& backend, const Problem& problem) {
    try {
        (void)backend.prepare(problem);
    } catch (const Error& e) {
        return e.kind();
    }
    ADD_FAILURE() << "prepare() accepted the problem";
    return ErrorKind::BackendFailure;
}

TEST(Verdict, AReadyProblemCarriesTheEstimate) {
    FakeBehaviour b = named("fake");
    b.estimateBytes = 4096;
    const FakeBackend backend(b);
    const Verdict v = assess(backend, smallProblem());
    EXPECT_TRUE(v.ready());
    EXPECT_EQ(v.footprint.workspace, 4096u);
    EXPECT_NE(backend.prepare(smallProblem(), v), nullptr);
}

TEST(Verdict, AnInvalidConfigurationComesFirst) {
    FakeBehaviour b = named("fake");
    b.available = false; // also unavailable: the configuration is named first
    const FakeBackend backend(b);
    Problem p = smallProblem();
    p.config.hiddenSize = 0;
    const Verdict v = assess(backend, p);
    ASSERT_FALSE(v.ready());
    EXPECT_EQ(*v.refusal, ErrorKind::InvalidConfig);
    EXPECT_NE(v.reason.find("hidden_size"), std::string::npos) << v.reason;
    EXPECT_EQ(refusalOfPrepare(backend, p), ErrorKind::InvalidConfig);
}

TEST(Verdict, UnavailableBeforeIneligible) {
    FakeBehaviour b = named("fake");
    b.available = false;
    b.unavailableReason = "no fake device";
    b.unsupported = {"never eligible"};
    const FakeBackend backend(b);
    const Verdict v = assess(backend, smallProblem());
    EXPECT_EQ(*v.refusal, ErrorKind::DeviceUnavailable);
    EXPECT_EQ(v.reason, "no fake device");
    try {
        (void)backend.prepare(smallProblem());
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()), "fake unavailable: no fake device") << "prepare() names the backend";
    }
}

TEST(Verdict, IneligibleWithEveryReason) {
    FakeBehaviour b = named("fake");
    b.unsupported = {"fake requires A.", "fake requires B."};
    const FakeBackend backend(b);
    const Verdict v = assess(backend, smallProblem());
    EXPECT_EQ(*v.refusal, ErrorKind::Unsupported);
    EXPECT_EQ(v.reason, "fake requires A. fake requires B.");
    EXPECT_EQ(refusalOfPrepare(backend, smallProblem()), ErrorKind::Unsupported);
}

TEST(Verdict, TooLargeForTheHostKeepsItsEstimate) {
    FakeBehaviour b = named("fake");
    b.estimateBytes = std::uint64_t(1) << 62;
    const FakeBackend backend(b);
    const Verdict v = assess(backend, smallProblem());
    ASSERT_FALSE(v.ready());
    EXPECT_EQ(*v.refusal, ErrorKind::OutOfMemory);
    EXPECT_EQ(v.footprint.workspace, std::uint64_t(1) << 62);
    EXPECT_NE(v.reason.find("fake at batch 2, seq_len 3 needs"), std::string::npos) << v.reason;
}

TEST(Verdict, PrepareWithAGivenVerdictDoesNotAssessAgain) {
    const FakeBackend backend(named("fake"));
    Verdict refused;
    refused.refusal = ErrorKind::Unsupported;
    refused.reason = "said so by the caller";
    try {
        (void)backend.prepare(smallProblem(), refused);
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
        EXPECT_EQ(std::string(e.what()), "said so by the caller");
    }
}

} // namespace
} // namespace rnnprof

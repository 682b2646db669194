// A configuration whose buffers exceed the memory available is refused before anything is
// allocated, with the numbers: by prepare() of every CPU backend, and by the sweep runner, which
// records the refusal and goes on with the next point.
#include "oversized_config.h"

#include "engine/error.h"
#include "profiling/measure/process_memory.h"
#include "profiling/measure/runner.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

namespace rnnprof {
namespace {

using test::kOversizedShape;
using test::oversizedModel;
using test::oversizedProblem;
using test::whyItWouldFit;
using ::testing::HasSubstr;

const std::vector<std::string> kCpuBackends{"cpu-reference", "cpu-blas", "cpu-onednn"};

class PrepareRefusesOversizedBuffers : public ::testing::TestWithParam<std::string> {};

TEST_P(PrepareRefusesOversizedBuffers, BeforeAllocatingAndNamesNeededAndAvailableBytes) {
    const Backend* backend = builtinBackends().find(GetParam());
    ASSERT_NE(backend, nullptr);
    const Problem problem = oversizedProblem(Mode::Training);
    ASSERT_TRUE(validate(problem.config, problem.shape).empty()) << "the configuration itself must be valid";
    if (const auto why = whyItWouldFit(*backend, problem)) GTEST_SKIP() << *why;
    const std::uint64_t needed = backend->estimateMemory(problem).total();

    (void)resetPeakRss();
    const auto before = readProcessMemory();
    try {
        (void)backend->prepare(problem);
        FAIL() << GetParam() << " prepared a session that needs " << formatBytes(needed);
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::OutOfMemory) << e.what();
        EXPECT_THAT(e.what(),
                    HasSubstr(GetParam() + " at batch 65536, seq_len 127 needs " + formatBytes(needed)));
        EXPECT_THAT(e.what(), HasSubstr(" available"));
    }
    const auto after = readProcessMemory();
    if (before && after) {
        EXPECT_LT(after->peakBytes, before->rssBytes + (std::uint64_t(256) << 20))
            << "memory was allocated before the refusal";
    }
}

INSTANTIATE_TEST_SUITE_P(EveryCpuBackend, PrepareRefusesOversizedBuffers, ::testing::ValuesIn(kCpuBackends),
                         [](const auto& info) {
                             std::string name = info.param;
                             std::replace(name.begin(), name.end(), '-', '_');
                             return name;
                         });

// Under an address-space limit (ulimit -v, what batch systems set) the limit is what counts, not
// the machine's free memory: the refusal comes before allocating and names the limit. Checked in a
// child process, which sets the limit on itself only.
TEST(AddressSpaceLimit, IsWhatAProblemMustFitAndTheRefusalNamesIt) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    GTEST_SKIP() << "a sanitizer's shadow memory does not run under an address-space limit";
#else
    const Backend* backend = builtinBackends().find("cpu-reference");
    ASSERT_NE(backend, nullptr);
    Problem problem;
    problem.config.inputSize = 1024;
    problem.config.hiddenSize = 1024;
    problem.config.layers = 2;
    problem.shape = {256, 512};
    problem.mode = Mode::Training;
    const std::uint64_t needed = backend->estimateMemory(problem).total();
    ASSERT_GT(needed, std::uint64_t(1) << 30) << "the problem must need more than the limit leaves";
    const auto free = availableHostMemory();
    if (!free || *free < needed) GTEST_SKIP() << "this machine has not the memory to tell the limit from it";
    std::fflush(nullptr);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        // 0: refused naming the limit; 1: prepared; 2: another error; 3: the limit not seen.
        struct rlimit limit {};
        limit.rlim_cur = limit.rlim_max = rlim_t(std::uint64_t(1) << 62);
        (void)::getrlimit(RLIMIT_AS, &limit);
        std::uint64_t vmSize = 0;
        std::ifstream status("/proc/self/status");
        for (std::string key; status >> key;)
            if (key == "VmSize:" && status >> vmSize) break;
        limit.rlim_cur = rlim_t(vmSize * 1024 + needed / 2);
        if (::setrlimit(RLIMIT_AS, &limit) != 0) ::_exit(3);
        const auto headroom = addressSpaceHeadroom();
        if (!headroom || *headroom > needed / 2 || availableHostMemory() > headroom) ::_exit(3);
        try {
            (void)backend->prepare(problem);
            ::_exit(1);
        } catch (const Error& e) {
            const std::string what = e.what();
            ::_exit(e.kind() == ErrorKind::OutOfMemory && what.find("ulimit -v") != std::string::npos ? 0
                                                                                                      : 2);
        } catch (...) {
            ::_exit(2);
        }
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "1: prepared, 2: another error, 3: the limit was not seen";
#endif
}

TEST(FailingPoint, AShapeRefusedByTheMemoryEstimateIsRecordedAndTheSweepGoesOn) {
    SweepPlan plan;
    plan.config = oversizedModel();
    plan.batches = {1, kOversizedShape.batch, 2};
    plan.seqLens = {kOversizedShape.seqLen};
    plan.backends = kCpuBackends;
    plan.modes = {Mode::Training};
    plan.settings.warmup = 0;
    plan.settings.minRepeats = plan.settings.maxRepeats = 1;
    plan.settings.threads = 1;
    plan.settings.checkNumerics = false;
    for (const auto& id : kCpuBackends)
        if (const auto why = whyItWouldFit(*builtinBackends().find(id),
                                           problemFor(plan, {id, Mode::Training, kOversizedShape})))
            GTEST_SKIP() << *why;

    SweepRunner runner(builtinBackends(), plan);
    StopToken stop;
    const SweepResult result = runner.run(stop);
    EXPECT_TRUE(result.complete);
    ASSERT_EQ(result.points.size(), 9u);
    for (const PointResult& p : result.points) {
        if (p.shape.batch != kOversizedShape.batch) {
            EXPECT_EQ(p.status, PointStatus::Ok) << p.backend << ": " << p.reason;
            continue;
        }
        EXPECT_EQ(p.status, PointStatus::Refused) << p.backend;
        EXPECT_THAT(p.reason, HasSubstr("needs " + formatBytes(p.memory.total())));
        EXPECT_THAT(p.reason, HasSubstr("available: reduce batch, sequence length or hidden size"));
        EXPECT_GT(p.memory.total(), std::uint64_t(64) << 30) << "the estimate is kept with the point";
        EXPECT_EQ(p.measuredRuns, 0);
    }
}

TEST(FailingPoint, AnUnavailableGpuBackendIsRecordedWithItsReasonAndTheSweepGoesOn) {
    std::vector<std::string> gpuIds;
    for (const Backend* b : builtinBackends().all())
        if (b->isGpu() && !b->availability().available) gpuIds.push_back(std::string(b->id()));
    if (gpuIds.empty()) GTEST_SKIP() << "every GPU backend is available here";
    SweepPlan plan;
    plan.config.inputSize = 4;
    plan.config.hiddenSize = 4;
    plan.batches = {1};
    plan.seqLens = {3};
    plan.backends = gpuIds;
    plan.backends.push_back("cpu-reference");
    plan.modes = {Mode::Inference};
    plan.settings.warmup = 0;
    plan.settings.minRepeats = plan.settings.maxRepeats = 1;
    plan.settings.threads = 1;
    SweepRunner runner(builtinBackends(), plan);
    StopToken stop;
    const SweepResult result = runner.run(stop);
    EXPECT_TRUE(result.complete);
    ASSERT_EQ(result.points.size(), plan.backends.size());
    for (const PointResult& p : result.points) {
        if (p.backend == "cpu-reference") {
            EXPECT_EQ(p.status, PointStatus::Ok) << p.reason;
        } else {
            EXPECT_EQ(p.status, PointStatus::Unavailable) << p.backend;
            EXPECT_EQ(p.reason, builtinBackends().find(p.backend)->availability().reason);
            EXPECT_FALSE(p.reason.empty());
        }
    }
}

} // namespace
} // namespace rnnprof

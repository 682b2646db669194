// The Chrome trace: each point a named process, engine slices on thread 0, GPU work on
// "GPU stream N" threads, points one after another in time, slices nested as recorded.
#include "profiling/files/result_files.h"
#include "sample_results.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <sstream>

namespace rnnprof {
namespace {

using Json = nlohmann::json;

Json trace(const SweepResult& r) {
    return Json::parse(toChromeTrace(r));
}

std::vector<Json> events(const Json& doc, const std::string& ph) {
    std::vector<Json> out;
    for (const auto& e : doc["traceEvents"])
        if (e["ph"] == ph) out.push_back(e);
    return out;
}

std::string metadataName(const Json& doc, const char* kind, int pid, int tid) {
    for (const auto& e : events(doc, "M"))
        if (e["name"] == kind && e["pid"] == pid && e["tid"] == tid) return e["args"]["name"];
    return "";
}

TEST(ChromeTrace, EachTracedPointIsAProcessNamedByItsDescription) {
    const Json doc = trace(test::sampleResult());
    // Three of the five sample points carry a trace; the failed and ineligible ones do not.
    EXPECT_EQ(metadataName(doc, "process_name", 1, 0), "cpu-blas infer B=16 T=20");
    EXPECT_EQ(metadataName(doc, "process_name", 2, 0), "gpu-cudnn train B=64 T=20");
    EXPECT_EQ(metadataName(doc, "process_name", 3, 0), "cpu-blas train B=64 T=20");
    EXPECT_EQ(metadataName(doc, "process_name", 4, 0), "");
}

TEST(ChromeTrace, EverySliceIsACompleteEvent) {
    const SweepResult r = test::sampleResult();
    std::size_t slices = 0;
    for (const auto& p : r.points)
        slices += p.trace.size();
    const auto x = events(trace(r), "X");
    EXPECT_EQ(x.size(), slices);
    for (const auto& e : x) {
        EXPECT_TRUE(e["ts"].is_number());
        EXPECT_TRUE(e["dur"].is_number());
        EXPECT_TRUE(e["name"].is_string());
        EXPECT_TRUE(e["cat"].is_string());
    }
}

TEST(ChromeTrace, GpuWorkIsOnItsOwnStreamThreads) {
    const Json doc = trace(test::sampleResult());
    EXPECT_EQ(metadataName(doc, "thread_name", 2, 0), "engine thread");
    EXPECT_EQ(metadataName(doc, "thread_name", 2, 1), "GPU stream 0");
    EXPECT_EQ(metadataName(doc, "thread_name", 2, 2), "GPU stream 1");
    for (const auto& e : events(doc, "X")) {
        const int expected = e["cat"] == "kernel" ? 1 : e["cat"] == "memcpy" ? 2 : 0;
        EXPECT_EQ(e["tid"], expected) << e.dump();
    }
}

TEST(ChromeTrace, PointsFollowOneAnotherInTime) {
    const Json doc = trace(test::sampleResult());
    std::map<int, std::pair<double, double>> spans; // pid -> [first start, last end]
    for (const auto& e : events(doc, "X")) {
        const int pid = e["pid"];
        const double start = e["ts"], end = start + double(e["dur"]);
        auto [it, fresh] = spans.try_emplace(pid, start, end);
        if (!fresh) it->second = {std::min(it->second.first, start), std::max(it->second.second, end)};
    }
    ASSERT_EQ(spans.size(), 3u);
    EXPECT_DOUBLE_EQ(spans[1].first, 0.0);
    EXPECT_GT(spans[2].first, spans[1].second);
    EXPECT_GT(spans[3].first, spans[2].second);
}

TEST(ChromeTrace, StepsNestInsideTheirPhase) {
    SweepResult r;
    r.points = {test::measuredPoint("cpu-blas", Mode::Training, {4, 8}, 1.0)};
    const auto x = events(trace(r), "X");
    ASSERT_EQ(x.size(), 4u);
    // Sorted by start: the forward phase precedes and encloses its two steps.
    EXPECT_EQ(x[0]["name"], "forward");
    for (int i : {1, 2}) {
        EXPECT_EQ(x[std::size_t(i)]["cat"], "step");
        EXPECT_GE(double(x[std::size_t(i)]["ts"]), double(x[0]["ts"]));
        EXPECT_LE(double(x[std::size_t(i)]["ts"]) + double(x[std::size_t(i)]["dur"]),
                  double(x[0]["ts"]) + double(x[0]["dur"]));
    }
    EXPECT_EQ(x[3]["name"], "backward");
}

TEST(ChromeTrace, NonFiniteSlicesAreLeftOut) {
    SweepResult r;
    PointResult p = test::measuredPoint("cpu-blas", Mode::Inference, {4, 8}, 1.0);
    p.trace.push_back({"broken", "step", kNoValue, 3.0, 0});
    p.trace.push_back({"negative", "step", 1.0, -3.0, 0});
    r.points = {p};
    EXPECT_EQ(events(trace(r), "X").size(), 3u);
}

TEST(ChromeTrace, EmptySweepIsAValidTrace) {
    const Json doc = trace(SweepResult{});
    EXPECT_TRUE(doc["traceEvents"].is_array());
    EXPECT_TRUE(doc["traceEvents"].empty());
}

TEST(ChromeTrace, SavesAtomically) {
    test::TempDir dir;
    saveChromeTrace(dir.file("trace.json"), test::sampleResult());
    std::ifstream in(dir.file("trace.json"));
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), toChromeTrace(test::sampleResult()));
}

} // namespace
} // namespace rnnprof

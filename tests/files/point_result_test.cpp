// The result data model's own behaviour: status names, NaN-aware equality, timestamps.
#include "profiling/result.h"
#include "sample_results.h"

#include <gtest/gtest.h>

#include <regex>
#include <utility>
#include <vector>

namespace rnnprof {
namespace {

TEST(PointStatusNames, RoundTripForEveryStatus) {
    for (PointStatus s :
         {PointStatus::Ok, PointStatus::Ineligible, PointStatus::Unavailable, PointStatus::Refused,
          PointStatus::Failed, PointStatus::Cancelled, PointStatus::Predicted})
        EXPECT_EQ(parsePointStatus(toString(s)), s);
    EXPECT_EQ(toString(PointStatus::Ok), "ok");
    EXPECT_EQ(toString(PointStatus::Predicted), "predicted");
    EXPECT_EQ(toString(PointStatus::Cancelled), "cancelled");
}

TEST(PointStatusNames, UnknownNamesDoNotParse) {
    EXPECT_FALSE(parsePointStatus("OK").has_value());
    EXPECT_FALSE(parsePointStatus("").has_value());
    EXPECT_FALSE(parsePointStatus("skipped").has_value());
}

// The prediction record compares member by member, its open upper bound (NaN) equal to another.
TEST(PointResultEquality, EachMemberOfAPredictionMakesADifferenceAndAnOpenBandEqualsItself) {
    const PointResult a = test::predictedSamplePoint();
    ASSERT_TRUE(std::isnan(a.prediction->highMs));
    EXPECT_EQ(a, test::predictedSamplePoint());
    [[maybe_unused]] const auto& [lowMs, highMs, from, gpu, fittedPoints, fixedMs, stepMs, gflops,
                                  bandwidthGBs, looMedianError, looWithin30, unreliable, unreliableReason,
                                  check, band] = *a.prediction;
    using Change = void (*)(Prediction&);
    const std::vector<std::pair<const char*, Change>> changes{
        {"lowMs", [](Prediction& p) { p.lowMs += 1; }},
        {"highMs", [](Prediction& p) { p.highMs = 1; }},
        {"from", [](Prediction& p) { p.from += "x"; }},
        {"gpu", [](Prediction& p) { p.gpu += "x"; }},
        {"fittedPoints", [](Prediction& p) { p.fittedPoints += 1; }},
        {"fixedMs", [](Prediction& p) { p.fixedMs += 1; }},
        {"stepMs", [](Prediction& p) { p.stepMs += 1; }},
        {"gflops", [](Prediction& p) { p.gflops += 1; }},
        {"bandwidthGBs", [](Prediction& p) { p.bandwidthGBs += 1; }},
        {"looMedianError", [](Prediction& p) { p.looMedianError += 1; }},
        {"looWithin30", [](Prediction& p) { p.looWithin30 += 1; }},
        {"unreliable", [](Prediction& p) { p.unreliable = !p.unreliable; }},
        {"unreliableReason", [](Prediction& p) { p.unreliableReason = "outside the fit"; }},
        {"check", [](Prediction& p) { p.check += "x"; }},
        {"band", [](Prediction& p) { p.band += "x"; }},
    };
    for (const auto& [name, change] : changes) {
        PointResult b = a;
        change(*b.prediction);
        EXPECT_FALSE(a == b) << name;
    }
}

TEST(PointResultEquality, NotApplicablePhasesCompareEqual) {
    const PointResult a = test::measuredPoint("cpu-blas", Mode::Inference, {4, 20}, 1.0);
    ASSERT_TRUE(std::isnan(a.phaseMedianMs[1]));
    PointResult b = a;
    EXPECT_EQ(a, b);
    b.phaseMedianMs[1] = 0.0;
    EXPECT_NE(a, b);
}

TEST(PointResultEquality, EveryFieldCounts) {
    const PointResult a = test::gpuPoint();
    auto differs = [&a](auto change) {
        PointResult b = a;
        change(b);
        return !(a == b);
    };
    EXPECT_TRUE(differs([](PointResult& p) { p.backend = "x"; }));
    EXPECT_TRUE(differs([](PointResult& p) { p.shape.seqLen += 1; }));
    EXPECT_TRUE(differs([](PointResult& p) { p.iteration.p90 += 1; }));
    EXPECT_TRUE(differs([](PointResult& p) { p.steps[0].callsPerIteration = 9; }));
    EXPECT_TRUE(differs([](PointResult& p) { p.numerics.maxRelErr = 1; }));
    EXPECT_TRUE(differs([](PointResult& p) { p.trace.pop_back(); }));
    EXPECT_TRUE(differs([](PointResult& p) { p.gpu->kernels[0].count = 1; }));
    EXPECT_TRUE(differs([](PointResult& p) { p.gpu.reset(); }));
    EXPECT_TRUE(differs([](PointResult& p) { p.memory.workspace = 1; }));
    EXPECT_TRUE(differs([](PointResult& p) { p.measureSeconds = 2; }));
}

// One change per member of PointResult, and per member of the records it compares NaN-aware.
// The structured binding stops compiling when PointResult gains a member, so that the table
// cannot fall behind the struct.
TEST(PointResultEquality, EachMemberAloneMakesADifference) {
    const PointResult a = test::gpuPoint();
    [[maybe_unused]] const auto& [backend, mode, shape, status, reason, warmupRuns, measuredRuns, iteration,
                                  phaseMedianMs, steps, noisy, noiseThreshold, disturbed, disturbance,
                                  flopsPerIteration, sequencesPerSecond, tokensPerSecond, gflopsPerSecond,
                                  memory, peakRssGrowthBytes, numerics, notes, trace, gpu, measureSeconds,
                                  prediction, hostIndex] = a;
    using Change = void (*)(PointResult&);
    const std::vector<std::pair<const char*, Change>> changes{
        {"backend", [](PointResult& p) { p.backend += "x"; }},
        {"mode", [](PointResult& p) { p.mode = Mode::Inference; }},
        {"shape.batch", [](PointResult& p) { p.shape.batch += 1; }},
        {"shape.seqLen", [](PointResult& p) { p.shape.seqLen += 1; }},
        {"status", [](PointResult& p) { p.status = PointStatus::Cancelled; }},
        {"reason", [](PointResult& p) { p.reason = "stopped"; }},
        {"warmupRuns", [](PointResult& p) { p.warmupRuns += 1; }},
        {"measuredRuns", [](PointResult& p) { p.measuredRuns += 1; }},
        {"iteration.count", [](PointResult& p) { p.iteration.count += 1; }},
        {"iteration.median", [](PointResult& p) { p.iteration.median += 1; }},
        {"iteration.p10", [](PointResult& p) { p.iteration.p10 += 1; }},
        {"iteration.p90", [](PointResult& p) { p.iteration.p90 += 1; }},
        {"iteration.min", [](PointResult& p) { p.iteration.min += 1; }},
        {"iteration.max", [](PointResult& p) { p.iteration.max += 1; }},
        {"iteration.mean", [](PointResult& p) { p.iteration.mean += 1; }},
        {"iteration.stddev", [](PointResult& p) { p.iteration.stddev += 1; }},
        {"iteration.cv", [](PointResult& p) { p.iteration.cv += 1; }},
        {"phaseMedianMs[forward]", [](PointResult& p) { p.phaseMedianMs[0] += 1; }},
        {"phaseMedianMs[backward]", [](PointResult& p) { p.phaseMedianMs[1] += 1; }},
        {"phaseMedianMs[update]", [](PointResult& p) { p.phaseMedianMs[2] += 1; }},
        {"steps", [](PointResult& p) { p.steps[1].medianMs += 1; }},
        {"noisy", [](PointResult& p) { p.noisy = !p.noisy; }},
        {"noiseThreshold", [](PointResult& p) { p.noiseThreshold += 1; }},
        {"disturbed", [](PointResult& p) { p.disturbed = !p.disturbed; }},
        {"disturbance.runs", [](PointResult& p) { p.disturbance.runs += 1; }},
        {"disturbance.starvedRuns", [](PointResult& p) { p.disturbance.starvedRuns += 1; }},
        {"disturbance.medianWaitShare", [](PointResult& p) { p.disturbance.medianWaitShare = 0.5; }},
        {"disturbance.medianCpuShare", [](PointResult& p) { p.disturbance.medianCpuShare = 0.5; }},
        {"disturbance.involuntarySwitches", [](PointResult& p) { p.disturbance.involuntarySwitches += 1; }},
        {"disturbance.remeasured", [](PointResult& p) { p.disturbance.remeasured += 1; }},
        {"flopsPerIteration", [](PointResult& p) { p.flopsPerIteration += 1; }},
        {"sequencesPerSecond", [](PointResult& p) { p.sequencesPerSecond += 1; }},
        {"tokensPerSecond", [](PointResult& p) { p.tokensPerSecond += 1; }},
        {"gflopsPerSecond", [](PointResult& p) { p.gflopsPerSecond += 1; }},
        {"memory", [](PointResult& p) { p.memory.io += 1; }},
        {"peakRssGrowthBytes", [](PointResult& p) { p.peakRssGrowthBytes += 1; }},
        {"numerics.checked", [](PointResult& p) { p.numerics.checked = !p.numerics.checked; }},
        {"numerics.maxAbsErr", [](PointResult& p) { p.numerics.maxAbsErr += 1; }},
        {"numerics.maxRelErr", [](PointResult& p) { p.numerics.maxRelErr += 1; }},
        {"numerics.worstTensor", [](PointResult& p) { p.numerics.worstTensor = "h_n"; }},
        {"numerics.note", [](PointResult& p) { p.numerics.note += "."; }},
        {"notes", [](PointResult& p) { p.notes.push_back("threads: 4"); }},
        {"trace", [](PointResult& p) { p.trace[0].durationUs += 1; }},
        {"gpu", [](PointResult& p) { p.gpu->wallUs += 1; }},
        {"gpu absent", [](PointResult& p) { p.gpu.reset(); }},
        {"measureSeconds", [](PointResult& p) { p.measureSeconds += 1; }},
        {"prediction present",
         [](PointResult& p) { p.prediction = test::predictedSamplePoint().prediction; }},
        {"hostIndex", [](PointResult& p) { p.hostIndex = 1; }},
    };
    for (const auto& [name, change] : changes) {
        PointResult b = a;
        change(b);
        EXPECT_FALSE(a == b) << name;
        EXPECT_FALSE(b == a) << name;
    }
}

// A value that is not there (NaN; null in a file) equals another such value, and differs from
// every number, in each double that compares NaN-aware.
TEST(PointResultEquality, NotThereEqualsNotThereInEachComparedDouble) {
    const PointResult a = test::gpuPoint();
    using Field = double& (*)(PointResult&);
    const std::vector<std::pair<const char*, Field>> fields{
        {"iteration.median", [](PointResult& p) -> double& { return p.iteration.median; }},
        {"iteration.p10", [](PointResult& p) -> double& { return p.iteration.p10; }},
        {"iteration.p90", [](PointResult& p) -> double& { return p.iteration.p90; }},
        {"iteration.min", [](PointResult& p) -> double& { return p.iteration.min; }},
        {"iteration.max", [](PointResult& p) -> double& { return p.iteration.max; }},
        {"iteration.mean", [](PointResult& p) -> double& { return p.iteration.mean; }},
        {"iteration.stddev", [](PointResult& p) -> double& { return p.iteration.stddev; }},
        {"iteration.cv", [](PointResult& p) -> double& { return p.iteration.cv; }},
        {"phaseMedianMs[update]", [](PointResult& p) -> double& { return p.phaseMedianMs[2]; }},
        {"noiseThreshold", [](PointResult& p) -> double& { return p.noiseThreshold; }},
        {"sequencesPerSecond", [](PointResult& p) -> double& { return p.sequencesPerSecond; }},
        {"tokensPerSecond", [](PointResult& p) -> double& { return p.tokensPerSecond; }},
        {"gflopsPerSecond", [](PointResult& p) -> double& { return p.gflopsPerSecond; }},
        {"numerics.maxAbsErr", [](PointResult& p) -> double& { return p.numerics.maxAbsErr; }},
        {"numerics.maxRelErr", [](PointResult& p) -> double& { return p.numerics.maxRelErr; }},
        {"measureSeconds", [](PointResult& p) -> double& { return p.measureSeconds; }},
    };
    for (const auto& [name, field] : fields) {
        PointResult b = a, c = a;
        field(b) = kNoValue;
        field(c) = std::nan("");
        EXPECT_TRUE(b == c) << name;
        EXPECT_FALSE(a == b) << name;
    }
}

TEST(SweepResultEquality, EachDataMemberAloneMakesADifference) {
    const SweepResult a = test::sampleResult();
    [[maybe_unused]] const auto& [schemaVersion, createdAt, host, plan, points, complete, stoppedBy,
                                  recordedFastPath, label, shard, otherHosts, crossovers] = a;
    using Change = void (*)(SweepResult&);
    const std::vector<std::pair<const char*, Change>> changes{
        {"schemaVersion", [](SweepResult& r) { r.schemaVersion += 1; }},
        {"createdAt", [](SweepResult& r) { r.createdAt = "2026-11-22T00:00:00Z"; }},
        {"host", [](SweepResult& r) { r.host.cpuCores += 1; }},
        {"plan", [](SweepResult& r) { r.plan.settings.warmup += 1; }},
        {"stoppedBy", [](SweepResult& r) { r.stoppedBy = "SIGTERM"; }},
        {"points", [](SweepResult& r) { r.points[0].iteration.median += 1; }},
        {"complete", [](SweepResult& r) { r.complete = !r.complete; }},
        {"recordedFastPath",
         [](SweepResult& r) {
             r.recordedFastPath = FastPathTexts{"no: recorded", "yes"};
         }},
        {"shard",
         [](SweepResult& r) {
             r.shard = Shard{1, 2};
         }},
        {"otherHosts", [](SweepResult& r) { r.otherHosts.push_back(r.host); }},
        {"crossovers", [](SweepResult& r) { r.crossovers.push_back({}); }},
    };
    for (const auto& [name, change] : changes) {
        SweepResult b = a;
        change(b);
        EXPECT_FALSE(a == b) << name;
    }
}

// The verdicts compare by value: recorded ones equal to those of the model are the same data.
TEST(SweepResultEquality, RecordedVerdictsEqualToTheModelsAreTheSame) {
    const SweepResult a = test::sampleResult();
    SweepResult b = a;
    b.recordedFastPath = fastPathTexts(a.plan.config);
    EXPECT_EQ(a, b);
    b.plan.config.bias = false; // the recorded verdicts stay; the derived ones would change
    SweepResult c = b;
    c.recordedFastPath.reset();
    EXPECT_NE(b, c);
}

TEST(SweepResultEquality, TheLabelIsNotData) {
    SweepResult a = test::sampleResult();
    SweepResult b = a;
    b.label = "results.json (bench-01)";
    EXPECT_EQ(a, b);
    b.complete = !a.complete;
    EXPECT_NE(a, b);
}

TEST(Timestamp, IsIso8601Utc) {
    EXPECT_TRUE(std::regex_match(isoTimestampUtc(), std::regex(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)")));
}

} // namespace
} // namespace rnnprof

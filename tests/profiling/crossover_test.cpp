// Crossovers and speedups on synthetic results: where a challenger overtakes a baseline,
// interpolated on log-log axes, and every way there can be no crossover.
#include "profiling/analysis/crossover.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

namespace rnnprof {
namespace {

using ::testing::HasSubstr;

PointResult timed(const std::string& backend, int batch, int seqLen, double ms, Mode mode = Mode::Inference) {
    PointResult p;
    p.backend = backend;
    p.mode = mode;
    p.shape = {batch, seqLen};
    p.status = PointStatus::Ok;
    p.iteration.count = 5;
    p.iteration.median = ms;
    return p;
}

// baseline "cpu" and challenger "gpu" at one sequence length: (batch, cpu ms, gpu ms)
std::vector<PointResult> series(int seqLen, const std::vector<std::tuple<int, double, double>>& rows) {
    std::vector<PointResult> out;
    for (const auto& [batch, cpu, gpu] : rows) {
        out.push_back(timed("cpu", batch, seqLen, cpu));
        out.push_back(timed("gpu", batch, seqLen, gpu));
    }
    return out;
}

TEST(Crossover, InterpolatesBetweenTheBracketingBatchesOnLogScales) {
    // ratio gpu/cpu: 3 at B=2, 0.5 at B=8. log(ratio) is zero at t = ln 3 / ln 6 of the way from
    // log 2 to log 8: B = 2 * 4^t = 4.679...
    const auto c = findCrossovers(series(20, {{1, 0.5, 3.0}, {2, 1.0, 3.0}, {8, 4.0, 2.0}, {32, 16.0, 2.5}}),
                                  "cpu", "gpu", Mode::Inference);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].seqLen, 20);
    ASSERT_TRUE(c[0].batch.has_value());
    EXPECT_NEAR(*c[0].batch, 2.0 * std::pow(4.0, std::log(3.0) / std::log(6.0)), 1e-9);
    EXPECT_NEAR(*c[0].batch, 4.679, 1e-3);
    EXPECT_FALSE(c[0].fasterEverywhere);
    EXPECT_THAT(c[0].note, HasSubstr("faster from B\u22484.68"));
}

TEST(Crossover, ChallengerFasterEverywhere) {
    const auto c = findCrossovers(series(20, {{1, 2.0, 1.0}, {4, 4.0, 1.5}, {16, 9.0, 2.0}}), "cpu", "gpu",
                                  Mode::Inference);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_TRUE(c[0].fasterEverywhere);
    EXPECT_FALSE(c[0].batch.has_value());
    EXPECT_EQ(c[0].note, "faster at every batch measured (B=1..16)");
}

TEST(Crossover, ChallengerFasterOnlyAtSmallBatchesIsNotEverywhere) {
    const auto c = findCrossovers(series(20, {{1, 2.0, 1.0}, {4, 4.0, 5.0}}), "cpu", "gpu", Mode::Inference);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_FALSE(c[0].fasterEverywhere);
    EXPECT_FALSE(c[0].batch.has_value());
    EXPECT_THAT(c[0].note, HasSubstr("smallest batch (B=1)"));
}

TEST(Crossover, NeverFasterIsSaidWithTheRange) {
    const auto c = findCrossovers(series(20, {{1, 1.0, 5.0}, {16, 2.0, 5.5}, {256, 10.0, 11.0}}), "cpu",
                                  "gpu", Mode::Inference);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_FALSE(c[0].batch.has_value());
    EXPECT_FALSE(c[0].fasterEverywhere);
    EXPECT_EQ(c[0].note, "never faster (B=1..256)");
}

TEST(Crossover, EachSequenceLengthHasItsOwnCrossover) {
    auto points = series(100, {{1, 1.0, 4.0}, {4, 4.0, 4.0 * 0.5}});
    for (auto& p : series(20, {{1, 1.0, 2.0}, {2, 2.0, 1.0}}))
        points.push_back(p);
    const auto c = findCrossovers(points, "cpu", "gpu", Mode::Inference);
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(c[0].seqLen, 20); // ascending
    EXPECT_EQ(c[1].seqLen, 100);
    ASSERT_TRUE(c[0].batch && c[1].batch);
    EXPECT_NEAR(*c[0].batch, std::sqrt(2.0), 1e-9); // log ratios +ln2 and -ln2: halfway in log B
    // ratios 4 and 0.5: t = ln4 / ln8 = 2/3 of the way from log 1 to log 4.
    EXPECT_NEAR(*c[1].batch, std::pow(4.0, 2.0 / 3.0), 1e-9);
}

TEST(Crossover, MissingAndFailedPointsAreIgnored) {
    auto points = series(20, {{1, 1.0, 3.0}, {4, 4.0, 6.0}, {16, 16.0, 8.0}});
    // A failed challenger point that would have been faster at B=2, an inference-only baseline
    // point without a partner, training points and a third backend: none of them count.
    PointResult failed = timed("gpu", 2, 20, 0.1);
    failed.status = PointStatus::Failed;
    points.push_back(failed);
    points.push_back(timed("cpu", 2, 20, 2.0));
    points.push_back(timed("gpu", 4, 20, 0.01, Mode::Training));
    points.push_back(timed("cpu", 4, 20, 100.0, Mode::Training));
    points.push_back(timed("other", 4, 20, 0.001));
    const auto c = findCrossovers(points, "cpu", "gpu", Mode::Inference);
    ASSERT_EQ(c.size(), 1u);
    ASSERT_TRUE(c[0].batch.has_value());
    EXPECT_GT(*c[0].batch, 4.0);
    EXPECT_LT(*c[0].batch, 16.0);
}

TEST(Crossover, EqualTimesAreNotFaster) {
    const auto same =
        findCrossovers(series(20, {{1, 2.0, 2.0}, {8, 3.0, 3.0}}), "cpu", "gpu", Mode::Inference);
    ASSERT_EQ(same.size(), 1u);
    EXPECT_FALSE(same[0].batch.has_value());
    EXPECT_EQ(same[0].note, "never faster (B=1..8)");
    // Equal at B=4, faster at B=8: the times are equal exactly at B=4.
    const auto c = findCrossovers(series(20, {{1, 1.0, 3.0}, {4, 3.0, 3.0}, {8, 5.0, 3.0}}), "cpu", "gpu",
                                  Mode::Inference);
    ASSERT_TRUE(c[0].batch.has_value());
    EXPECT_DOUBLE_EQ(*c[0].batch, 4.0);
}

TEST(Crossover, NoCommonBatchSizeIsSaid) {
    std::vector<PointResult> points{timed("cpu", 1, 20, 1.0), timed("gpu", 4, 20, 1.0)};
    const auto c = findCrossovers(points, "cpu", "gpu", Mode::Inference);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_FALSE(c[0].batch.has_value());
    EXPECT_THAT(c[0].note, HasSubstr("no batch size measured for both"));
}

TEST(Crossover, NoPointsNoCrossovers) {
    EXPECT_TRUE(findCrossovers({}, "cpu", "gpu", Mode::Inference).empty());
}

// A point with the spread of its runs: median, p10 and p90.
PointResult spread(const std::string& backend, int batch, double p10, double median, double p90) {
    PointResult p = timed(backend, batch, 20, median);
    p.iteration.p10 = p10;
    p.iteration.p90 = p90;
    return p;
}

// Where f is zero between (a, fa) and (b, fb), linearly in log(batch): the rule's own oracle,
// written out once here from its definition.
double zeroInLogB(double a, double fa, double b, double fb) {
    return a * std::pow(b / a, fa / (fa - fb));
}

TEST(CrossoverInterval, RunsFromWhereTheOptimisticEdgeCrossesToWhereThePessimisticOneDoes) {
    // B=2: cpu 1.0 (0.9-1.1), gpu 3.0 (2.7-3.3); B=8: cpu 4.0 (3.6-4.4), gpu 2.0 (1.8-2.2).
    const std::vector<PointResult> points{spread("cpu", 2, 0.9, 1.0, 1.1), spread("gpu", 2, 2.7, 3.0, 3.3),
                                          spread("cpu", 8, 3.6, 4.0, 4.4), spread("gpu", 8, 1.8, 2.0, 2.2)};
    const auto c = findCrossovers(points, "cpu", "gpu", Mode::Inference);
    ASSERT_EQ(c.size(), 1u);
    ASSERT_EQ(c[0].crossings.size(), 1u);
    const Crossing& x = c[0].crossings[0];
    EXPECT_TRUE(x.challengerFaster);
    EXPECT_NEAR(x.batch, zeroInLogB(2, std::log(3.0), 8, std::log(0.5)), 1e-9);
    // The low edge: gpu p10 / cpu p90; the high edge: gpu p90 / cpu p10.
    ASSERT_TRUE(x.low && x.high);
    EXPECT_NEAR(*x.low, zeroInLogB(2, std::log(2.7 / 1.1), 8, std::log(1.8 / 4.4)), 1e-9);
    EXPECT_NEAR(*x.high, zeroInLogB(2, std::log(3.3 / 0.9), 8, std::log(2.2 / 3.6)), 1e-9);
    EXPECT_LT(*x.low, x.batch);
    EXPECT_GT(*x.high, x.batch);
    EXPECT_EQ(x.below, 2);
    EXPECT_EQ(x.above, 8);
    EXPECT_EQ(c[0].batch, x.batch);
    EXPECT_EQ(c[0].low, x.low);
    EXPECT_EQ(c[0].high, x.high);
    EXPECT_FALSE(c[0].flagged());
    EXPECT_THAT(c[0].note, HasSubstr("faster from " + crossingText(x, 2, 8)));
}

TEST(CrossoverInterval, EveryCrossingIsNamedNotJustTheFirst) {
    // speedups 0.1, 55, 0.8, 0.035 over B=1, 4, 16, 64: faster between 1 and 4, slower again
    // between 4 and 16.
    const auto c =
        findCrossovers(series(20, {{1, 1.0, 10.0}, {4, 55.0, 1.0}, {16, 0.8, 1.0}, {64, 0.035, 1.0}}), "cpu",
                       "gpu", Mode::Inference);
    ASSERT_EQ(c.size(), 1u);
    ASSERT_EQ(c[0].crossings.size(), 2u);
    EXPECT_TRUE(c[0].crossings[0].challengerFaster);
    EXPECT_FALSE(c[0].crossings[1].challengerFaster);
    EXPECT_NEAR(c[0].crossings[0].batch, zeroInLogB(1, std::log(10.0), 4, std::log(1.0 / 55.0)), 1e-9);
    EXPECT_NEAR(c[0].crossings[1].batch, zeroInLogB(4, std::log(1.0 / 55.0), 16, std::log(1.0 / 0.8)), 1e-9);
    EXPECT_EQ(c[0].crossings[1].below, 4);
    EXPECT_EQ(c[0].crossings[1].above, 16);
    EXPECT_THAT(c[0].note, HasSubstr("faster from B\u2248"));
    EXPECT_THAT(c[0].note, HasSubstr(", slower again from B\u2248"));
    ASSERT_TRUE(c[0].batch.has_value());
    EXPECT_DOUBLE_EQ(*c[0].batch, c[0].crossings[0].batch);
}

TEST(CrossoverInterval, AnEdgeThatNeverCrossesInTheRangeLeavesTheIntervalOpen) {
    // B=1: gpu 1.2 against cpu 1.0, but cpu's runs reach 2.0: the optimistic edge is already
    // below 1 at the first batch; B=4 the gpu is faster beyond doubt.
    const std::vector<PointResult> points{spread("cpu", 1, 0.5, 1.0, 2.0), spread("gpu", 1, 1.2, 1.2, 1.2),
                                          spread("cpu", 4, 4.0, 4.0, 4.0), spread("gpu", 4, 1.0, 1.0, 1.0)};
    const auto c = findCrossovers(points, "cpu", "gpu", Mode::Inference);
    ASSERT_EQ(c[0].crossings.size(), 1u);
    EXPECT_FALSE(c[0].crossings[0].low.has_value()) << "below the range";
    ASSERT_TRUE(c[0].crossings[0].high.has_value());
    EXPECT_THAT(crossingText(c[0].crossings[0], 1, 4), HasSubstr("(<1\u2013"));
    EXPECT_EQ(crossingText(Crossing{true, 3.0, 2.0, std::nullopt, 2, 4, {}}, 1, 4), "B\u22483 (2\u2013>4)");
}

TEST(CrossoverInterval, ACrossingBracketedByNoisyOrDisturbedPointsIsFlagged) {
    auto points = series(20, {{2, 1.0, 3.0}, {8, 4.0, 2.0}, {32, 16.0, 2.0}});
    points[0].disturbed = true; // cpu at B=2
    points[3].noisy = true;     // gpu at B=8
    const auto c = findCrossovers(points, "cpu", "gpu", Mode::Inference);
    ASSERT_EQ(c[0].crossings.size(), 1u);
    EXPECT_EQ(c[0].crossings[0].flags, (std::vector<std::string>{"B=2: cpu disturbed", "B=8: gpu noisy"}));
    EXPECT_TRUE(c[0].flagged());
    EXPECT_THAT(c[0].note, HasSubstr("[B=2: cpu disturbed; B=8: gpu noisy]"));
}

TEST(CrossoverInterval, NoCrossingStillSaysWhereTheSpreadReachesEqualTimeAndWhatWasDisturbed) {
    std::vector<PointResult> points{spread("cpu", 1, 1.0, 2.0, 2.0), spread("gpu", 1, 1.5, 1.5, 1.5),
                                    spread("cpu", 4, 8.0, 8.0, 8.0), spread("gpu", 4, 2.0, 2.0, 2.0)};
    points[2].disturbed = true;
    const auto c = findCrossovers(points, "cpu", "gpu", Mode::Inference);
    EXPECT_TRUE(c[0].fasterEverywhere);
    EXPECT_FALSE(c[0].neverFaster);
    EXPECT_EQ(c[0].note,
              "faster at every batch measured (B=1..4); the runs' spread reaches equal time at B=1 "
              "[B=4: cpu disturbed]");
    EXPECT_EQ(c[0].flags, (std::vector<std::string>{"B=4: cpu disturbed"}));
}

TEST(CrossoverInterval, APredictedSideBringsItsBand) {
    PointResult predicted = timed("gpu", 8, 20, 2.0);
    predicted.prediction.emplace();
    predicted.prediction->lowMs = 1.0;
    predicted.prediction->highMs = 3.0;
    const SideTime t = sideTimeOf(predicted, 7);
    EXPECT_EQ(t.point, 7);
    EXPECT_DOUBLE_EQ(t.lowMs, 1.0);
    EXPECT_DOUBLE_EQ(t.highMs, 3.0);
    const SideTime measured = sideTimeOf(spread("cpu", 8, 0.5, 1.0, 1.5), 0);
    EXPECT_DOUBLE_EQ(measured.lowMs, 0.5);
    EXPECT_DOUBLE_EQ(measured.highMs, 1.5);
}

TEST(Speedups, BaselineOverChallengerAtCommonBatches) {
    auto points = series(20, {{1, 1.0, 4.0}, {8, 6.0, 3.0}});
    points.push_back(timed("cpu", 64, 20, 50.0)); // no partner
    points.push_back(timed("gpu", 8, 100, 1.0));  // other sequence length
    const auto s = speedups(points, "cpu", "gpu", Mode::Inference, 20);
    ASSERT_EQ(s.size(), 2u);
    EXPECT_EQ(s[0].batch, 1);
    EXPECT_DOUBLE_EQ(s[0].speedup, 0.25);
    EXPECT_EQ(s[1].batch, 8);
    EXPECT_DOUBLE_EQ(s[1].speedup, 2.0);
    EXPECT_TRUE(speedups(points, "cpu", "gpu", Mode::Training, 20).empty());
}

// ---- Pairs across result files ----

// A result of `host` with the given points and model.
SweepResult resultOf(const std::string& host, std::vector<PointResult> points, RnnConfig config = {}) {
    SweepResult r;
    r.host.hostname = host;
    r.plan.config = config;
    r.points = std::move(points);
    return r;
}

TEST(ModelDifferences, TheSameModelHasNone) {
    EXPECT_TRUE(modelDifferences(RnnConfig{}, RnnConfig{}).empty());
}

TEST(ModelDifferences, TheSeedMayDifferItChangesValuesNotWork) {
    RnnConfig a, b;
    b.seed = 7;
    EXPECT_TRUE(modelDifferences(a, b).empty());
}

TEST(ModelDifferences, NamesEveryFieldThatChangesTheMathWithBothValues) {
    RnnConfig a, b;
    b.hiddenSize = 512;
    b.layers = 2;
    b.bidirectional = true;
    b.activation = Activation::Relu;
    b.dropout = 0.25;
    const auto d = modelDifferences(a, b);
    ASSERT_EQ(d.size(), 5u);
    EXPECT_EQ(d[0], (FieldDifference{"hidden_size", "256", "512"}));
    EXPECT_EQ(d[1], (FieldDifference{"layers", "1", "2"}));
    EXPECT_EQ(d[2], (FieldDifference{"bidirectional", "false", "true"}));
    EXPECT_EQ(d[3], (FieldDifference{"activation", "tanh", "relu"}));
    EXPECT_EQ(d[4], (FieldDifference{"dropout", "0", "0.25"}));
    EXPECT_EQ(describeDifferences(d),
              "hidden_size 256 vs 512, layers 1 vs 2, bidirectional false vs true, activation tanh vs relu, "
              "dropout 0 vs 0.25");
}

TEST(ModelDifferences, ResetAfterCountsForGrusOnly) {
    RnnConfig lstmA, lstmB;
    lstmB.resetAfter = false; // an LSTM has no reset gate
    EXPECT_TRUE(modelDifferences(lstmA, lstmB).empty());
    RnnConfig gruA = lstmA, gruB = lstmB;
    gruA.cell = gruB.cell = CellType::Gru;
    EXPECT_EQ(modelDifferences(gruA, gruB), (std::vector<FieldDifference>{{"reset_after", "true", "false"}}));
}

TEST(CrossFilePair, SameModelPairsPointsByModeBatchAndSequenceLengthAcrossFiles) {
    // laptop: cpu 1 ms per sample; server: gpu about 4 ms + 0.5 ms per sample.
    const SweepResult laptop = resultOf(
        "laptop", {timed("cpu-onednn", 1, 20, 1.0), timed("cpu-onednn", 4, 20, 4.0),
                   timed("cpu-onednn", 16, 20, 16.0), timed("cpu-onednn", 4, 20, 4.0, Mode::Training)});
    const SweepResult server = resultOf(
        "server", {timed("gpu-cudnn", 1, 20, 4.5), timed("gpu-cudnn", 4, 20, 6.0),
                   timed("gpu-cudnn", 16, 20, 12.0), timed("gpu-cudnn", 4, 20, 1.0, Mode::Training)});
    const PairMatch m = matchPair(laptop, "cpu-onednn", server, "gpu-cudnn");
    ASSERT_TRUE(m.sameModel());
    EXPECT_TRUE(m.notes.empty());
    ASSERT_EQ(m.points.size(), 4u); // 3 inference shapes, then the training one
    EXPECT_EQ(m.points[0].mode, Mode::Inference);
    EXPECT_EQ(m.points[0].batch, 1);
    EXPECT_DOUBLE_EQ(m.points[0].speedup(), 1.0 / 4.5);
    EXPECT_EQ(m.points[0].baseline.point, 0);
    EXPECT_EQ(m.points[0].challenger.point, 0);
    EXPECT_EQ(m.points[2].batch, 16);
    EXPECT_DOUBLE_EQ(m.points[2].speedup(), 16.0 / 12.0);
    EXPECT_EQ(m.points[3].mode, Mode::Training);
    EXPECT_DOUBLE_EQ(m.points[3].speedup(), 4.0);
    // log(6/4) at B=4 and log(12/16) at B=16: zero at t = ln1.5 / (ln1.5 + ln(4/3)) of the way.
    const auto c = findCrossovers(m.points, Mode::Inference);
    ASSERT_EQ(c.size(), 1u);
    ASSERT_TRUE(c[0].batch.has_value());
    const double t = std::log(1.5) / (std::log(1.5) + std::log(4.0 / 3.0));
    EXPECT_NEAR(*c[0].batch, 4.0 * std::pow(4.0, t), 1e-9);
}

TEST(CrossFilePair, DifferentModelsPairNothingAndTheNoteNamesTheFields) {
    RnnConfig other;
    other.hiddenSize = 512;
    other.cell = CellType::Gru;
    const SweepResult laptop = resultOf("laptop", {timed("cpu-blas", 1, 20, 1.0)});
    const SweepResult server = resultOf("server", {timed("gpu-cudnn", 1, 20, 0.5)}, other);
    const PairMatch m = matchPair(laptop, "cpu-blas", server, "gpu-cudnn");
    EXPECT_FALSE(m.sameModel());
    EXPECT_TRUE(m.points.empty());
    ASSERT_EQ(m.notes.size(), 1u);
    // reset_after is the same (true) on both sides, so only two fields differ.
    EXPECT_EQ(m.notes[0], "not compared: the two results ran different models (cell lstm vs gru, "
                          "hidden_size 256 vs 512)");
}

TEST(CrossFilePair, MissingPointsAreCountedNotInvented) {
    // The challenger failed at B=4 and never ran B=16: only B=1 pairs.
    PointResult failed = timed("gpu-cudnn", 4, 20, 0.1);
    failed.status = PointStatus::Failed;
    const SweepResult laptop =
        resultOf("laptop", {timed("cpu-blas", 1, 20, 1.0), timed("cpu-blas", 4, 20, 4.0),
                            timed("cpu-blas", 16, 20, 16.0)});
    const SweepResult server = resultOf("server", {timed("gpu-cudnn", 1, 20, 2.0), failed});
    const PairMatch m = matchPair(laptop, "cpu-blas", server, "gpu-cudnn");
    ASSERT_EQ(m.points.size(), 1u);
    EXPECT_EQ(m.points[0].batch, 1);
    EXPECT_EQ(m.shapesOnlyBaseline, 2);
    EXPECT_EQ(m.shapesOnlyChallenger, 0);
    ASSERT_EQ(m.notes.size(), 1u);
    EXPECT_EQ(m.notes[0], "2 point(s) without a partner: measured by the baseline only");
}

TEST(CrossFilePair, DifferentSequenceLengthSetsAreNamedAndOnlyCommonOnesPair) {
    const SweepResult laptop =
        resultOf("laptop", {timed("cpu-blas", 1, 20, 1.0), timed("cpu-blas", 1, 50, 2.5)});
    const SweepResult server =
        resultOf("server", {timed("gpu-cudnn", 1, 20, 3.0), timed("gpu-cudnn", 1, 100, 4.0),
                            timed("gpu-cudnn", 8, 200, 5.0)});
    const PairMatch m = matchPair(laptop, "cpu-blas", server, "gpu-cudnn");
    ASSERT_EQ(m.points.size(), 1u);
    EXPECT_EQ(m.points[0].seqLen, 20);
    EXPECT_EQ(m.seqLensOnlyBaseline, (std::vector<int>{50}));
    EXPECT_EQ(m.seqLensOnlyChallenger, (std::vector<int>{100, 200}));
    EXPECT_EQ(m.shapesOnlyBaseline, 0); // the unpaired points are at the sequence lengths named above
    EXPECT_EQ(m.shapesOnlyChallenger, 0);
    EXPECT_EQ(m.notes,
              (std::vector<std::string>{"sequence lengths only the baseline measured: T=50",
                                        "sequence lengths only the challenger measured: T=100, 200"}));
}

TEST(CrossFilePair, FastestPerSidePicksTheBestBackendAtEachPointAndNamesIt) {
    // CPU side: cpu-blas wins at B=1, cpu-onednn at B=64. GPU side: gpu-generic at B=1, gpu-cudnn at B=64.
    // GPU backends in the laptop file and CPU backends in the server file are not part of the sides.
    const SweepResult laptop =
        resultOf("laptop", {timed("cpu-blas", 1, 20, 0.2), timed("cpu-onednn", 1, 20, 0.3),
                            timed("cpu-blas", 64, 20, 9.0), timed("cpu-onednn", 64, 20, 6.0),
                            timed("gpu-cudnn", 1, 20, 0.001)});
    const SweepResult server =
        resultOf("server", {timed("gpu-generic", 1, 20, 0.5), timed("gpu-cudnn", 1, 20, 0.8),
                            timed("gpu-generic", 64, 20, 2.0), timed("gpu-cudnn", 64, 20, 1.5),
                            timed("cpu-blas", 64, 20, 0.001)});
    const PairMatch m = matchPair(laptop, std::string(kFastestCpu), server, std::string(kFastestGpu));
    ASSERT_EQ(m.points.size(), 2u);
    EXPECT_EQ(m.points[0].baseline.backend, "cpu-blas");
    EXPECT_EQ(m.points[0].challenger.backend, "gpu-generic");
    EXPECT_EQ(m.points[0].baseline.point, 0);
    EXPECT_EQ(m.points[0].challenger.point, 0);
    EXPECT_DOUBLE_EQ(m.points[0].speedup(), 0.2 / 0.5);
    EXPECT_EQ(m.points[1].baseline.backend, "cpu-onednn");
    EXPECT_EQ(m.points[1].challenger.backend, "gpu-cudnn");
    EXPECT_EQ(m.points[1].baseline.point, 3);
    EXPECT_EQ(m.points[1].challenger.point, 3);
    EXPECT_DOUBLE_EQ(m.points[1].speedup(), 6.0 / 1.5);
}

TEST(CrossFilePair, SideChoicesAreTheMeasuredBackendsThenTheFastestOfEachKind) {
    PointResult unavailable = timed("gpu-generic", 1, 20, 0.0);
    unavailable.status = PointStatus::Unavailable;
    const SweepResult laptop =
        resultOf("laptop", {timed("cpu-onednn", 1, 20, 1.0), timed("cpu-blas", 1, 20, 1.0), unavailable});
    EXPECT_EQ(sideChoices(laptop), (std::vector<std::string>{"cpu-blas", "cpu-onednn", "fastest-cpu"}));
    const SweepResult server =
        resultOf("server", {timed("gpu-cudnn", 1, 20, 1.0), timed("cpu-blas", 1, 20, 1.0)});
    EXPECT_EQ(sideChoices(server),
              (std::vector<std::string>{"cpu-blas", "gpu-cudnn", "fastest-cpu", "fastest-gpu"}));
}

TEST(CrossFilePair, TheReportNamesBothHostsTheCrossoverAndTheWinners) {
    SweepResult laptop = resultOf("laptop", {timed("cpu-blas", 1, 20, 1.0), timed("cpu-blas", 16, 20, 16.0)});
    laptop.host.cpuModel = "Test CPU";
    laptop.host.cpuCores = 2;
    SweepResult server =
        resultOf("server", {timed("gpu-cudnn", 1, 20, 4.0), timed("gpu-cudnn", 16, 20, 4.0)});
    server.host.gpu.available = true;
    server.host.gpu.devices.push_back({});
    server.host.gpu.devices.back().name = "NVIDIA H100 80GB HBM3";
    const std::string text = pairReportText(laptop, kFastestCpu, server, kFastestGpu);
    EXPECT_THAT(text, HasSubstr("fastest-gpu on server (NVIDIA H100 80GB HBM3) over fastest-cpu on laptop "
                                "(Test CPU, 2 cores)"));
    // log ratios +ln4 at B=1 and -ln4 at B=16: halfway in log B, B = 4.
    EXPECT_THAT(text, HasSubstr("infer T=20: faster from B\u22484 (4\u20134)"));
    EXPECT_THAT(text, HasSubstr("cpu-blas"));
    EXPECT_THAT(text, HasSubstr("gpu-cudnn"));
}

TEST(CrossFilePair, EveryCudnnAlgorithmSeriesCountsAsGpu) {
    EXPECT_TRUE(isGpuBackendId("gpu-cudnn"));
    EXPECT_TRUE(isGpuBackendId("gpu-cudnn[persist_static]"));
    EXPECT_TRUE(isGpuBackendId("gpu-cudnn[best]"));
    EXPECT_FALSE(isGpuBackendId("cpu-blas"));
    EXPECT_FALSE(isGpuBackendId("cpu-onednn"));
}

} // namespace
} // namespace rnnprof

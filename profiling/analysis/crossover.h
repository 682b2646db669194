#pragma once
// Where one backend overtakes another, with how sure that is. Per sequence length, every batch size
// both sides measured gives the ratio of their median times and its band from the spread of their
// runs (challenger p10 / baseline p90 to challenger p90 / baseline p10; a prediction's band where a
// side is predicted). Every sign change of log(ratio) is a crossing, interpolated linearly in
// log(batch) between the two measured batches that bracket it; its interval runs from where the
// band's optimistic edge crosses to where its pessimistic edge does. A crossing whose bracketing
// points are noisy or disturbed (starvation.h) is flagged.
#include "profiling/result.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace rnnprof {

struct Crossing {
    bool challengerFaster = true; // above it the challenger is faster; false: slower (again)
    double batch = 0.0;           // central estimate: where the medians' ratio is 1
    std::optional<double> low;    // the earliest the runs' spread allows; nullopt: below the range
    std::optional<double> high;   // the latest; nullopt: above the range
    int below = 0;                // the measured batch sizes bracketing `batch`
    int above = 0;
    std::vector<std::string> flags; // "B=4: cpu-blas noisy", "not resolved from the crossing at B≈12"
};

struct Crossover {
    int seqLen = 0;
    // The first crossing where the challenger becomes faster: central estimate and interval.
    std::optional<double> batch;
    std::optional<double> low;
    std::optional<double> high;
    std::vector<Crossing> crossings; // every sign change, ascending
    bool fasterEverywhere = false;   // challenger faster at every batch measured
    bool neverFaster = false;        // at none
    int firstBatch = 0;              // the range both measured
    int lastBatch = 0;
    std::vector<std::string> flags; // every crossing's flags; disturbed points where none crossed
    std::string
        note; // "faster from B≈4.7 (3.1–9), slower again from B≈12 (10–15)", "never faster (B=1..256)"
    [[nodiscard]] bool flagged() const { return !flags.empty(); }
};

// "B≈4.7 (3.1–9)", "B≈1.5 (<1–2.2)": a crossing's central estimate and interval, open ends as
// "<first" / ">last".
[[nodiscard]] std::string crossingText(const Crossing& c, int firstBatch, int lastBatch);
// The first crossing where the challenger becomes faster, as crossingText(); empty where none.
[[nodiscard]] std::string crossoverText(const Crossover& c);

// Uses ok points of `mode` only; a sequence length with fewer than one common batch size gets a
// note saying so.
[[nodiscard]] std::vector<Crossover> findCrossovers(const std::vector<PointResult>& points,
                                                    const std::string& baseline,
                                                    const std::string& challenger, Mode mode);

// speedup = baseline median / challenger median per common batch size at `seqLen`.
struct SpeedupPoint {
    int batch = 0;
    double speedup = 0.0;
};
[[nodiscard]] std::vector<SpeedupPoint> speedups(const std::vector<PointResult>& points,
                                                 const std::string& baseline, const std::string& challenger,
                                                 Mode mode, int seqLen);

// ---- Pairs across result files: "cpu-onednn on my laptop vs gpu-cudnn on a GPU server" ----
// A side of a pair is a result and a backend of it, or one of these two: per point, the fastest ok
// point of the result's CPU backends (GPU backends), naming the backend that won.
inline constexpr std::string_view kFastestCpu = "fastest-cpu";
inline constexpr std::string_view kFastestGpu = "fastest-gpu";

// A GPU backend: the registry's isGpu() for a built-in id, else an id starting with "gpu-".
[[nodiscard]] bool isGpuBackendId(std::string_view id);

// Rule 1, the same model: two results can be compared only when they ran the same computation.
// Every RnnConfig field that changes the math must be equal: cell, input and hidden size, layers,
// directions, bias, activation, recurrent activation, recurrent dropout, dropout, and for GRUs
// reset_after (an LSTM has no reset gate, so it is not compared there). The seed may differ: it
// picks the values of weights, inputs and masks, not one operation, so times do not depend on it.
struct FieldDifference {
    std::string field; // as in files and flags: "hidden_size"
    std::string baseline;
    std::string challenger;
    bool operator==(const FieldDifference&) const = default;
};
[[nodiscard]] std::vector<FieldDifference> modelDifferences(const RnnConfig& baseline,
                                                            const RnnConfig& challenger);
// "hidden_size 256 vs 512, layers 1 vs 2"
[[nodiscard]] std::string describeDifferences(const std::vector<FieldDifference>& differences);

// Rule 2, what one side measured: per (mode, sequence length, batch) its ok time. For a backend id
// the first ok point of it; for kFastestCpu / kFastestGpu the fastest ok point among the result's
// CPU / GPU backends at that shape, with the backend that won.
struct SideTime {
    double ms = 0.0;
    int point = -1; // index into the result's points
    std::string backend;
    double lowMs = kNoValue;  // the runs' p10 (a prediction: its band's low end); NaN: unknown
    double highMs = kNoValue; // the runs' p90 (a prediction: its band's high end)
    bool noisy = false;
    bool disturbed = false;
};
// A side's time from one point (index `index` of its result): median, band and flags.
[[nodiscard]] SideTime sideTimeOf(const PointResult& point, int index);
using ShapeKey = std::tuple<Mode, int, int>; // mode, seq_len, batch
[[nodiscard]] std::map<ShapeKey, SideTime> sideTimes(const SweepResult& result, std::string_view side);
// The backends `side` may name for `result`: its backends with at least one ok or predicted point,
// then fastest-cpu / fastest-gpu when it has such a CPU / GPU point.
[[nodiscard]] std::vector<std::string> sideChoices(const SweepResult& result);

// Rule 3, matching: points are paired by mode, batch and sequence length, and only when the two
// results ran the same model (else `differences` names the fields and nothing is paired).
struct MatchedPoint {
    Mode mode = Mode::Inference;
    int seqLen = 0;
    int batch = 0;
    SideTime baseline;
    SideTime challenger;
    [[nodiscard]] double speedup() const { return baseline.ms / challenger.ms; } // > 1: challenger faster
};
struct PairMatch {
    std::vector<FieldDifference> differences; // not empty: different models, `points` is empty
    std::vector<MatchedPoint> points;         // ascending by mode, sequence length, batch
    std::vector<int> seqLensOnlyBaseline;     // sequence lengths only one side measured
    std::vector<int> seqLensOnlyChallenger;
    int shapesOnlyBaseline = 0; // (mode, T, B) measured by one side only, at common sequence lengths
    int shapesOnlyChallenger = 0;
    std::vector<std::string> notes; // one sentence per problem above, for charts and the terminal
    [[nodiscard]] bool sameModel() const { return differences.empty(); }
};
[[nodiscard]] PairMatch matchPair(const SweepResult& baseline, std::string_view baselineSide,
                                  const SweepResult& challenger, std::string_view challengerSide);

// Rule 5, a measured side against a predicted one: the measured result's ok times
// matched with the predicted result's predicted times (status predicted, which nothing else takes)
// by the same rules, for a predicted speedup and crossover. The models must be the same, as above:
// a prediction is made for the measured result's model (predictResult).
[[nodiscard]] std::map<ShapeKey, SideTime> predictedSideTimes(const SweepResult& predicted,
                                                              std::string_view side);
[[nodiscard]] PairMatch matchPredicted(const SweepResult& measured, std::string_view measuredSide,
                                       const SweepResult& predicted, std::string_view predictedSide);
// Every point of the result is predicted (what predictResult and `rnnprof predict` write).
[[nodiscard]] bool isPredictedResult(const SweepResult& result);

// Whether the band of the ratio at a matched point (the runs' p10-p90 of both sides) reaches equal
// time: the sign of the difference is not known there.
[[nodiscard]] bool ratioStraddlesOne(const MatchedPoint& point);

// Rule 4, crossovers of matched points: the same rules as above, per sequence length.
[[nodiscard]] std::vector<Crossover> findCrossovers(const std::vector<MatchedPoint>& points, Mode mode);

// Every crossover of matched points (each mode and sequence length) as files record it, the sides
// named as given.
[[nodiscard]] std::vector<CrossoverRecord> crossoverRecords(const std::vector<MatchedPoint>& points,
                                                            const std::string& baseline,
                                                            const std::string& challenger);

// The machine of a result in a few words, for notes naming both hosts: "gpu-box (NVIDIA H100 80GB
// HBM3)", "laptop (Intel(R) Core(TM) i7, 8 cores)".
[[nodiscard]] std::string hostBrief(const HostInfo& host);

// The crossover of a pair as text for the terminal (`rnnprof sweep --compare`): both sides with
// their hosts, the model check, per mode and sequence length the crossover and the speedups.
[[nodiscard]] std::string pairReportText(const SweepResult& baseline, std::string_view baselineSide,
                                         const SweepResult& challenger, std::string_view challengerSide);

} // namespace rnnprof

#pragma once
// The results of a sweep: plain values, the single source of truth for charts, the results table,
// CSV/JSON/trace export and the headless command. Nothing downstream re-measures or re-derives.
#include "engine/backend.h"
#include "engine/config.h"
#include "engine/enum_names.h"
#include "engine/framework_fast_path.h"
#include "profiling/measure/host_info.h"
#include "profiling/measure/starvation.h"
#include "profiling/measure/statistics.h"
#include "profiling/plan.h"
#include "profiling/shard.h"

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace rnnprof {

// Predicted: not measured, but a time from a cost model fitted on another result's points
// (profiling/analysis/cost_model.h). Not ok(): nothing treats it as a measurement; charts draw
// it as a separate, labelled series.
enum class PointStatus { Ok, Ineligible, Unavailable, Refused, Failed, Cancelled, Predicted };
inline constexpr Spellings<PointStatus, 7> kPointStatusSpellings{{{PointStatus::Ok, "ok"},
                                                                  {PointStatus::Ineligible, "ineligible"},
                                                                  {PointStatus::Unavailable, "unavailable"},
                                                                  {PointStatus::Refused, "refused"},
                                                                  {PointStatus::Failed, "failed"},
                                                                  {PointStatus::Cancelled, "cancelled"},
                                                                  {PointStatus::Predicted, "predicted"}}};
[[nodiscard]] std::string_view toString(PointStatus s); // empty for a value outside the enum
[[nodiscard]] std::optional<PointStatus> parsePointStatus(std::string_view s);

// A named sub-step a backend marked ("input GEMM", "recurrent steps", ...): its median total time
// per iteration and how often it was entered per iteration.
struct StepStat {
    std::string name;
    Phase phase = Phase::Forward;
    double medianMs = 0.0;
    int callsPerIteration = 0;
    bool operator==(const StepStat&) const = default;
};

// One slice of the Chrome trace of a point: a phase, a sub-step, a GPU kernel or a memcpy, with
// times relative to the start of the traced iteration.
struct TraceSlice {
    std::string name;
    std::string category; // "phase" | "step" | "kernel" | "memcpy" | "memset"
    double startUs = 0.0;
    double durationUs = 0.0;
    int track = 0; // 0: engine thread (CPU); 1 + stream id: GPU streams
    bool operator==(const TraceSlice&) const = default;
};

// Aggregated GPU kernels of one phase, from CUPTI.
struct KernelStat {
    std::string name; // demangled
    Phase phase = Phase::Forward;
    int count = 0; // launches per measured iteration (averaged)
    double totalUs = 0.0;
    double meanUs = 0.0;
    double minUs = 0.0;
    double maxUs = 0.0;
    double share = 0.0; // of all GPU kernel time of the point, 0..1
    bool operator==(const KernelStat&) const = default;
};

struct MemcpyStat {
    std::string direction; // "HtoD" | "DtoH" | "DtoD" | ...
    std::uint64_t bytes = 0;
    double totalUs = 0.0;
    int count = 0;
    bool operator==(const MemcpyStat&) const = default;
};

// What CUPTI saw for a point, or why it could not look, and the device buffers libraries sized.
struct GpuProfile {
    bool traced = false;
    std::string unavailableReason;     // "kernel trace unavailable: <reason>" when !traced
    std::vector<std::string> warnings; // about the trace, e.g. a CUPTI release with known bugs
    std::string mathType; // what the session told its libraries: "strict FP32 (CUDNN_FMA_MATH)", ...
    std::vector<KernelStat> kernels;
    std::vector<MemcpyStat> memcpys;
    double gpuBusyUs = 0.0;                    // per iteration, union of kernel/memcpy intervals
    double wallUs = 0.0;                       // per iteration
    std::array<double, kPhaseCount> eventMs{}; // CUDA-event time per phase (median), 0 = n/a
    std::array<std::uint64_t, kPhaseCount> peakDeviceBytes{}; // from CUPTI MEMORY2 records
    // The session's library buffers (MemoryFootprint::detail), 0 where it has none. Each is also
    // counted in its category of PointResult::memory: the reserve space in activations, the rest
    // in workspace. (Files before these fields had workspace_bytes = memory.workspace and
    // reserve_bytes = memory.activations; readers accept and drop those keys.)
    std::uint64_t cudnnWorkspaceBytes = 0;  // cudnnGetRNNTempSpaceSizes for this shape and mode
    std::uint64_t cudnnReserveBytes = 0;    // training: what cuDNN keeps for backward
    std::uint64_t dropoutStateBytes = 0;    // cuDNN's RNG states for dropout between layers
    std::uint64_t cublasWorkspaceBytes = 0; // the workspace given to cuBLAS (gpu-generic)
    std::uint64_t droppedRecords = 0;
    std::uint64_t unattributedRecords = 0;
    double tracedMedianMs = 0.0;   // collector overhead: median with tracing ...
    double untracedMedianMs = 0.0; // ... and without
    bool operator==(const GpuProfile&) const = default;
};

struct Numerics {
    bool checked = false;
    double maxAbsErr = 0.0;
    double maxRelErr = 0.0;  // max |x - ref| / max |ref|, the worst over all compared tensors
    std::string worstTensor; // which tensor had the largest relative error
    std::string note;        // e.g. "checked on batch 4, seq_len 8 (the full shape exceeds the check limit)"
    bool operator==(const Numerics&) const = default;
};

inline constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

// What a predicted point carries besides its time (iteration.median): the band the fit's residuals
// give, where the fit came from and how well it did, so that a prediction written to a file can
// be checked against a later measurement without the file it came from.
struct Prediction {
    double lowMs = kNoValue;  // the band: a time is expected in [lowMs, highMs]
    double highMs = kNoValue; // NaN (null in files) when the fit's residuals give no upper bound
    std::string from;         // the file fitted, as its name
    std::string gpu;          // the GPU of that file: "NVIDIA H100 80GB HBM3"
    int fittedPoints = 0;
    double fixedMs = 0.0;             // the fitted model (cost_model.h): c,
    double stepMs = 0.0;              // the launch cost per recurrent step at this point's batch,
    double gflops = 0.0;              // R
    double bandwidthGBs = 0.0;        // and BW (0: unbounded and unused)
    double looMedianError = kNoValue; // leave-one-out |predicted - measured| / measured, median
    double looWithin30 = kNoValue;    // share of those within +-30 %
    bool unreliable = false;          // unreliable() of the leave-one-out errors, or outside the fit
    // Why, in words, when the point lies where the fit cannot reach ("cannot extrapolate in T from
    // one sequence length (T=20)"); empty when only the check's errors make it unreliable.
    std::string unreliableReason;
    // Which points the three above were measured on (cost_model.h, predictionOf): "leave-one-out"
    // (a model the files ran), "leave-one-model-out" (another model; the files ran two or more) or
    // "leave-one-out; another model, cross-shape error unchecked" (another model, the files ran one).
    std::string check;
    // Where the band comes from: "10-90 % of the 53 left-out-model errors, widened x1.69 for the
    // distance to the nearest measured model".
    std::string band;
};
// "predicted from h100-quick-start.json (NVIDIA H100 80GB HBM3) — not measured": the one label of
// predicted points and series, in files, tables, charts and the terminal.
[[nodiscard]] std::string predictedFromText(const Prediction& prediction);
// "UNRELIABLE: cannot extrapolate in T from one sequence length (T=20)", "UNRELIABLE: wrong by more
// than ±30 % on more than a fifth of the points"; empty for a reliable prediction.
[[nodiscard]] std::string unreliableText(const Prediction& prediction);

struct PointResult {
    std::string backend;
    Mode mode = Mode::Inference;
    Shape shape;
    PointStatus status = PointStatus::Ok;
    std::string reason; // why not ok; empty when ok

    int warmupRuns = 0;
    int measuredRuns = 0;
    SampleStats iteration; // ms per iteration
    // Median ms of each phase per iteration; NaN where the phase does not apply (inference).
    std::array<double, kPhaseCount> phaseMedianMs{kNoValue, kNoValue, kNoValue};
    std::vector<StepStat> steps;
    bool noisy = false;
    // The threshold of isNoisy() the point was judged by (files before it: of the CV, 0.10).
    double noiseThreshold = kDefaultNoiseThreshold;
    // Most runs were starved of CPU by other processes (starvation.h): the time says more about the
    // machine than about the backend. Kept after the sweep's re-measurement when still so.
    bool disturbed = false;
    Disturbance disturbance; // what the runs' counters showed; runs == 0 where none were recorded

    std::uint64_t flopsPerIteration = 0;
    double sequencesPerSecond = 0.0;
    double tokensPerSecond = 0.0;
    double gflopsPerSecond = 0.0;

    MemoryFootprint memory;
    std::uint64_t peakRssGrowthBytes = 0; // process peak RSS during the point minus before it

    Numerics numerics;
    std::vector<std::string> notes; // the session's facts (GEMM provider, threads, math type)
    std::vector<TraceSlice> trace;  // one measured iteration
    std::optional<GpuProfile> gpu;
    double measureSeconds = 0.0;          // wall time spent on this point
    std::optional<Prediction> prediction; // status predicted only
    // Which host measured the point: 0 the result's `host`, i >= 1 its otherHosts[i - 1]. Only a
    // merged result (rnnprof merge) has others; files leave the key out for 0.
    int hostIndex = 0;

    [[nodiscard]] bool ok() const { return status == PointStatus::Ok; }
    // Ok, or cancelled after measuredRuns > 0 runs (a stop kept them): `iteration` and the figures
    // derived from it hold those runs. Files and tables show them; charts, crossovers and
    // predictions take ok() points only, measured as the plan asked.
    [[nodiscard]] bool measured() const {
        return ok() || (status == PointStatus::Cancelled && measuredRuns > 0);
    }
    [[nodiscard]] bool predicted() const { return status == PointStatus::Predicted; }
    // Every member counts (result.cpp binds them all, so a new one cannot be left out). NaN, "not
    // there", equals NaN in the doubles of the point, its phases, `iteration` and `numerics`: a
    // file stores it as null and reads it back as NaN, and the round trip must compare equal.
    bool operator==(const PointResult&) const;
};

// Would Keras and PyTorch run the sweep's model on cuDNN (engine/framework_fast_path.h), as the
// result files write it: "yes", or "no: " and one sentence per broken rule. One model per sweep,
// so one verdict per result, in the header of the JSON file and on every CSV row.
struct FastPathTexts {
    std::string keras;   // "keras_cudnn"
    std::string pytorch; // "pytorch_cudnn"
    bool operator==(const FastPathTexts&) const = default;
};
[[nodiscard]] FastPathTexts fastPathTexts(const RnnConfig& config);
// {"Keras: <keras>", "PyTorch: <pytorch>"}: how the summary, the command line and the GUI show them.
[[nodiscard]] std::vector<std::string> fastPathLines(const FastPathTexts& texts);

// A crossover as files record it (crossover.h finds it): the pair, where the challenger becomes
// faster with its interval (NaN: none, or an open end), the verdict in words and what makes it
// doubtful; for a search (crossover_search.h) how many batch sizes it measured of its grid.
struct CrossoverRecord {
    std::string baseline; // a side: "cpu-blas", "fastest-cpu", "h100-quick-start.json:fastest-gpu"
    std::string challenger;
    Mode mode = Mode::Inference;
    int seqLen = 0;
    double batch = kNoValue;
    double low = kNoValue;
    double high = kNoValue;
    std::string verdict; // Crossover::note
    std::vector<std::string> flags;
    int measuredBatches = 0; // a search: batch sizes measured ...
    int gridBatches = 0;     // ... of the grid a sweep would have measured; 0 for a sweep
    bool operator==(const CrossoverRecord&) const;
};

struct SweepResult {
    static constexpr int kSchemaVersion = 1;
    int schemaVersion = kSchemaVersion;
    std::string createdAt; // ISO 8601 UTC
    HostInfo host;
    SweepPlan plan;
    std::vector<PointResult> points;
    bool complete = false; // false when stopped early or recovered from a journal
    std::string stoppedBy; // what stopped it early ("SIGTERM", "Stop in the window"); "" otherwise
    // The verdicts as a results file or journal recorded them. Empty for a sweep measured here and
    // for files written before the verdicts existed: fastPath() then derives them from
    // plan.config, the only thing they depend on.
    std::optional<FastPathTexts> recordedFastPath;
    std::string label; // for overlays: set when loaded (file name and host), not saved
    // `rnnprof sweep --shard I/N`: the part of the plan this result measured (shard.h); the plan
    // stays the whole plan, so that `rnnprof merge` can check the shards belong together.
    std::optional<Shard> shard;
    // A merged result's further hosts, in the order PointResult::hostIndex counts them.
    std::vector<HostInfo> otherHosts;
    // Crossovers found for this result (rnnprof crossover); empty for a plain sweep.
    std::vector<CrossoverRecord> crossovers;

    // The recorded verdicts, or those of plan.config.
    [[nodiscard]] FastPathTexts fastPath() const;
    // Every member but `label`, as PointResult's; the verdicts by fastPath(), so a result and the
    // same result read back from its file (where they are recorded) compare equal.
    bool operator==(const SweepResult&) const;
};

// The host that measured `point`, a point of `result` (PointResult::hostIndex); the result's own
// host for an index out of range.
[[nodiscard]] const HostInfo& hostOf(const SweepResult& result, const PointResult& point);
// How many of `result`'s measured points are disturbed (other processes took their CPU).
[[nodiscard]] int disturbedPointCount(const SweepResult& result);

// "2026-11-21T21:34:10Z"
[[nodiscard]] std::string isoTimestampUtc();

} // namespace rnnprof

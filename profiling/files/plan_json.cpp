#include "profiling/files/plan_json.h"

#include "profiling/files/json_fields.h"
#include "profiling/int_list.h"

#include <string_view>
#include <type_traits>

namespace rnnprof::jsonio {

// The sections of a plan document; planKeyPath() names them too.
constexpr const char* kModelKey = "model";
constexpr const char* kSweepKey = "sweep";
constexpr const char* kMeasureKey = "measure";
constexpr const char* kPresetKey = "preset";

// The records of a plan, in file order (json_fields.h). Named, not in an anonymous namespace:
// FieldWriter and FieldReader find them by argument-dependent lookup.

template <class Io>
void fields(Io& io, Ref<Io, RnnConfig> c) {
    io("cell", c.cell, kCellSpellings);
    io("input_size", c.inputSize);
    io("hidden_size", c.hiddenSize);
    io("layers", c.layers);
    io("bidirectional", c.bidirectional);
    io("bias", c.bias);
    io("activation", c.activation, kActivationSpellings);
    // Written for leaky_relu only, so that other models' files stay as they were.
    if (!std::is_same_v<Io, FieldWriter> || c.activation == Activation::LeakyRelu)
        io("negative_slope", c.negativeSlope);
    io("recurrent_activation", c.recurrentActivation, kRecurrentActivationSpellings);
    io("recurrent_dropout", c.recurrentDropout);
    io("dropout", c.dropout);
    io("reset_after", c.resetAfter);
    io("seed", c.seed);
}

template <class Io>
void fields(Io& io, Ref<Io, MeasureSettings> m) {
    io("warmup", m.warmup);
    io("min_repeats", m.minRepeats);
    io("max_repeats", m.maxRepeats);
    io("time_budget_ms", m.timeBudgetMs);
    io("threads", m.threads);
    io("learning_rate", m.learningRate);
    io("allow_tf32", m.allowTf32);
    io("gemm", m.gemm, kGemmSpellings);
    io("check_numerics", m.checkNumerics);
    io("numerics_max_work", m.numericsMaxWork);
    io("noise_threshold", m.noiseThreshold);
    io("remeasure_disturbed", m.remeasureDisturbed);
    io("gpu_trace", m.gpuTrace);
    io("cudnn_algos", m.cudnnAlgos, kCudnnAlgoSpellings);
    io("cuda_graph", m.cudaGraph);
}

namespace {

Json intsToJson(const std::vector<int>& values) {
    return Json(values);
}

// "batch": [1, 4, 16], or the list grammar of the GUI and command line as text: "batch": "1..256".
template <int Max>
void readIntList(const Json& v, const std::string& path, Problems& problems, std::vector<int>& out) {
    if (!v.is_string()) {
        // The same range and count as the text form: a file may not hold what the command line
        // refuses. The count first, before a huge array is copied.
        if (v.is_array() && v.size() > std::size_t(kMaxListValues)) {
            problems.add(path, "holds " + std::to_string(v.size()) + " values, at most " +
                                   std::to_string(kMaxListValues) + " are allowed");
            return;
        }
        std::vector<int> values;
        if (!read(v, path, problems, values)) return;
        bool ok = true;
        for (std::size_t i = 0; i < values.size(); ++i)
            if (values[i] < 1 || values[i] > Max) {
                problems.add(indexPath(path, i), "must be between 1 and " + std::to_string(Max) + " (got " +
                                                     std::to_string(values[i]) + ")");
                ok = false;
            }
        if (ok) out = std::move(values);
        return;
    }
    IntListParse parsed = parseIntList(v.get_ref<const std::string&>(), Max);
    if (parsed.ok())
        out = std::move(parsed.values);
    else
        problems.add(path, parsed.error);
}

} // namespace

template <class Io>
void fields(Io& io, Ref<Io, SweepPlan> plan) {
    // A preset's title and description live in Preset, not in the plan: known, not kept.
    io.ignored("title");
    io.ignored("description");
    // The preset is read before the sections and written after them, only when there is one.
    if constexpr (Io::kReading) io(kPresetKey, plan.preset);
    io(kModelKey, plan.config);
    io.object(kSweepKey, [&](auto& sweep) {
        sweep.via("batch", plan.batches, intsToJson, readIntList<Limits::maxBatch>);
        sweep.via("seq_len", plan.seqLens, intsToJson, readIntList<Limits::maxSeqLen>);
        sweep("backends", plan.backends);
        sweep("modes", plan.modes, kModeSpellings);
    });
    io(kMeasureKey, plan.settings);
    if constexpr (!Io::kReading)
        if (!plan.preset.empty()) io(kPresetKey, plan.preset);
}

Json planToJsonValue(const SweepPlan& plan) {
    FieldWriter w;
    fields(w, plan);
    return w.take();
}

void readPlan(const Json& value, const std::string& path, Problems& problems, SweepPlan& plan) {
    FieldReader r(value, path, problems, true);
    fields(r, plan);
    r.finish();
}

namespace {

void collectDifferences(const Json& a, const Json& b, const std::string& path,
                        std::vector<std::string>& out) {
    if (a.is_object() && b.is_object()) {
        for (const auto& [key, value] : a.items())
            collectDifferences(value, b.contains(key) ? b.at(key) : Json(),
                               path + (path.empty() ? "" : ".") + key, out);
        for (const auto& [key, value] : b.items())
            if (!a.contains(key))
                collectDifferences(Json(), value, path + (path.empty() ? "" : ".") + key, out);
        return;
    }
    if (a != b) out.push_back(path + " " + a.dump() + " vs " + b.dump());
}

} // namespace

std::vector<std::string> planDifferences(const SweepPlan& a, const SweepPlan& b) {
    std::vector<std::string> out;
    collectDifferences(planToJsonValue(a), planToJsonValue(b), "", out);
    return out;
}

std::string planKeyPath(const std::string& field) {
    // validate() calls the size of the grid "points": the sweep section as a whole.
    if (field == "points") return kSweepKey;
    static const std::vector<std::string> paths = [] {
        KeyLister keys;
        fields(keys, SweepPlan{});
        return keys.paths();
    }();
    for (const std::string& path : paths)
        if (path.ends_with("." + field)) return path;
    return std::string(kModelKey) + "." + field;
}

} // namespace rnnprof::jsonio

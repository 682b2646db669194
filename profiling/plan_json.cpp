#include "profiling/plan_json.h"

#include "profiling/int_list.h"

#include <array>
#include <string_view>

namespace rnnprof::jsonio {
namespace {

Json modelToJson(const RnnConfig& c) {
    return Json{{"cell", toString(c.cell)},
                {"input_size", c.inputSize},
                {"hidden_size", c.hiddenSize},
                {"layers", c.layers},
                {"bidirectional", c.bidirectional},
                {"bias", c.bias},
                {"activation", toString(c.activation)},
                {"recurrent_activation", toString(c.recurrentActivation)},
                {"recurrent_dropout", c.recurrentDropout},
                {"dropout", c.dropout},
                {"reset_after", c.resetAfter},
                {"seed", c.seed}};
}

Json sweepToJson(const SweepPlan& p) {
    Json modes = Json::array();
    for (Mode m : p.modes)
        modes.push_back(toString(m));
    return Json{{"batch", p.batches}, {"seq_len", p.seqLens}, {"backends", p.backends}, {"modes", modes}};
}

Json measureToJson(const MeasureSettings& m) {
    return Json{{"warmup", m.warmup},
                {"min_repeats", m.minRepeats},
                {"max_repeats", m.maxRepeats},
                {"time_budget_ms", m.timeBudgetMs},
                {"threads", m.threads},
                {"learning_rate", m.learningRate},
                {"allow_tf32", m.allowTf32},
                {"gemm", toString(m.gemm)},
                {"check_numerics", m.checkNumerics},
                {"numerics_max_work", m.numericsMaxWork},
                {"noise_threshold", m.noiseThreshold},
                {"gpu_trace", m.gpuTrace}};
}

void readModel(ObjectReader r, RnnConfig& c) {
    r.getEnum("cell", c.cell, parseCell, spellingList(kCellSpellings));
    r.get("input_size", c.inputSize);
    r.get("hidden_size", c.hiddenSize);
    r.get("layers", c.layers);
    r.get("bidirectional", c.bidirectional);
    r.get("bias", c.bias);
    r.getEnum("activation", c.activation, parseActivation, spellingList(kActivationSpellings));
    r.getEnum("recurrent_activation", c.recurrentActivation, parseRecurrentActivation,
              spellingList(kRecurrentActivationSpellings));
    r.get("recurrent_dropout", c.recurrentDropout);
    r.get("dropout", c.dropout);
    r.get("reset_after", c.resetAfter);
    r.get("seed", c.seed);
    r.finish();
}

void readModes(ObjectReader& r, std::vector<Mode>& out) {
    const Json* v = r.array("modes");
    if (!v) return;
    std::vector<Mode> modes(v->size());
    bool ok = true;
    for (std::size_t i = 0; i < v->size(); ++i)
        ok = readEnum((*v)[i], indexPath(r.pathOf("modes"), i), r.problems(), modes[i], parseMode,
                      spellingList(kModeSpellings)) &&
             ok;
    if (ok) out = std::move(modes);
}

// "batch": [1, 4, 16], or the list grammar of the GUI and command line as text: "batch": "1..256".
void readIntList(ObjectReader& r, const char* key, int max, std::vector<int>& out) {
    const Json* v = r.find(key);
    if (!v) return;
    if (!v->is_string()) {
        read(*v, r.pathOf(key), r.problems(), out);
        return;
    }
    IntListParse parsed = parseIntList(v->get_ref<const std::string&>(), max);
    if (parsed.ok())
        out = std::move(parsed.values);
    else
        r.problems().add(r.pathOf(key), parsed.error);
}

void readSweep(ObjectReader r, SweepPlan& p) {
    readIntList(r, "batch", Limits::maxBatch, p.batches);
    readIntList(r, "seq_len", Limits::maxSeqLen, p.seqLens);
    r.get("backends", p.backends);
    readModes(r, p.modes);
    r.finish();
}

void readMeasure(ObjectReader r, MeasureSettings& m) {
    r.get("warmup", m.warmup);
    r.get("min_repeats", m.minRepeats);
    r.get("max_repeats", m.maxRepeats);
    r.get("time_budget_ms", m.timeBudgetMs);
    r.get("threads", m.threads);
    r.get("learning_rate", m.learningRate);
    r.get("allow_tf32", m.allowTf32);
    r.getEnum("gemm", m.gemm, parseGemm, spellingList(kGemmSpellings));
    r.get("check_numerics", m.checkNumerics);
    r.get("numerics_max_work", m.numericsMaxWork);
    r.get("noise_threshold", m.noiseThreshold);
    r.get("gpu_trace", m.gpuTrace);
    r.finish();
}

} // namespace

Json planToJsonValue(const SweepPlan& plan) {
    Json j{{"model", modelToJson(plan.config)},
           {"sweep", sweepToJson(plan)},
           {"measure", measureToJson(plan.settings)}};
    if (!plan.preset.empty()) j["preset"] = plan.preset;
    return j;
}

void readPlan(const Json& value, const std::string& path, Problems& problems, SweepPlan& plan) {
    ObjectReader r(value, path, problems, true);
    std::string ignored;
    r.get("title", ignored); // a preset's title and description live in Preset, not in the plan
    r.get("description", ignored);
    r.get("preset", plan.preset);
    if (const Json* v = r.object("model"))
        readModel(ObjectReader(*v, r.pathOf("model"), problems, true), plan.config);
    if (const Json* v = r.object("sweep"))
        readSweep(ObjectReader(*v, r.pathOf("sweep"), problems, true), plan);
    if (const Json* v = r.object("measure"))
        readMeasure(ObjectReader(*v, r.pathOf("measure"), problems, true), plan.settings);
    r.finish();
}

std::string planKeyPath(const std::string& field) {
    static constexpr std::array<std::string_view, 5> kSweep{"batch", "seq_len", "backends", "modes",
                                                            "points"};
    static constexpr std::array<std::string_view, 9> kMeasure{
        "warmup",          "min_repeats",       "max_repeats", "time_budget_ms", "threads", "learning_rate",
        "noise_threshold", "numerics_max_work", "gemm"};
    for (auto k : kSweep)
        if (field == k) return field == "points" ? "sweep" : "sweep." + field;
    for (auto k : kMeasure)
        if (field == k) return "measure." + field;
    return "model." + field;
}

} // namespace rnnprof::jsonio

#include "profiling/plan.h"

#include "engine/cpu/cpu_libraries.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

namespace rnnprof {
namespace {

// Every issue of the plan's own settings uses the config file's key (and flag) name as its field.
class IssueList {
public:
    void add(const std::string& field, const std::string& message) { m_issues.push_back({field, message}); }
    void intRange(const char* field, long long value, long long lo, long long hi, const char* hint = "") {
        if (value >= lo && value <= hi) return;
        std::ostringstream s;
        s << field << " must be between " << lo << " and " << hi << " (got " << value << ")" << hint;
        add(field, s.str());
    }
    // lo < value <= hi
    void openClosed(const char* field, double value, double lo, double hi) {
        if (std::isfinite(value) && value > lo && value <= hi) return;
        std::ostringstream s;
        s.precision(10);
        s << field << " must be greater than " << lo << " and at most " << hi << " (got " << value << ")";
        add(field, s.str());
    }
    void closed(const char* field, double value, double lo, double hi) {
        if (std::isfinite(value) && value >= lo && value <= hi) return;
        std::ostringstream s;
        s.precision(10);
        s << field << " must be between " << lo << " and " << hi << " (got " << value << ")";
        add(field, s.str());
    }
    std::vector<FieldIssue> take() { return std::move(m_issues); }

private:
    std::vector<FieldIssue> m_issues;
};

template <class T>
std::string joined(const std::vector<T>& values) {
    std::ostringstream s;
    for (std::size_t i = 0; i < values.size(); ++i)
        s << (i ? ", " : "") << values[i];
    return s.str();
}

template <class T>
void checkGrid(IssueList& out, const char* field, const std::vector<T>& values, const char* what) {
    if (values.empty()) {
        out.add(field, std::string(field) + " is empty: give at least one " + what);
        return;
    }
    std::set<T> seen;
    std::vector<T> duplicates;
    for (const T& v : values)
        if (!seen.insert(v).second) duplicates.push_back(v);
    if (!duplicates.empty())
        out.add(field, std::string(field) + " lists " + joined(duplicates) + " more than once");
}

void checkSizes(IssueList& out, const char* field, const std::vector<int>& values, int hi) {
    checkGrid(out, field, values, "value");
    for (int v : values)
        out.intRange(field, v, 1, hi);
}

void checkBackends(IssueList& out, const SweepPlan& plan, const std::vector<std::string>& known) {
    checkGrid(out, "backends", plan.backends, "backend id");
    for (const auto& id : plan.backends)
        if (std::find(known.begin(), known.end(), id) == known.end())
            out.add("backends", "unknown backend '" + id + "': known backends are " + joined(known));
}

void checkModes(IssueList& out, const SweepPlan& plan) {
    std::vector<std::string> names;
    for (Mode m : plan.modes)
        names.emplace_back(toString(m));
    checkGrid(out, "modes", names, "mode (infer or train)");
}

void checkSettings(IssueList& out, const MeasureSettings& m) {
    std::vector<std::string> algos;
    for (CudnnAlgo a : m.cudnnAlgos)
        algos.emplace_back(toString(a));
    const std::string algo = "cuDNN algorithm (" + spellingList(kCudnnAlgoSpellings) + ")";
    checkGrid(out, "cudnn_algos", algos, algo.c_str());
    out.intRange("warmup", m.warmup, 0, 1000);
    out.intRange("min_repeats", m.minRepeats, 1, 100000);
    out.intRange("max_repeats", m.maxRepeats, 1, 100000);
    if (m.minRepeats > m.maxRepeats)
        out.add("min_repeats", "min_repeats (" + std::to_string(m.minRepeats) +
                                   ") must not exceed max_repeats (" + std::to_string(m.maxRepeats) + ")");
    out.closed("time_budget_ms", m.timeBudgetMs, 0, 3600000);
    out.intRange("threads", m.threads, 0, availableCpuCores(),
                 ": 0 uses every core, more would oversubscribe the CPU");
    out.openClosed("learning_rate", m.learningRate, 0, 10);
    out.openClosed("noise_threshold", m.noiseThreshold, 0, 10);
    out.intRange("remeasure_disturbed", m.remeasureDisturbed, 0, 10);
    if (!(m.numericsMaxWork >= 0)) { // also NaN
        std::ostringstream s;
        s.precision(10);
        s << "numerics_max_work must be 0 or more (got " << m.numericsMaxWork << ")";
        out.add("numerics_max_work", s.str());
    }
}

// The largest point decides whether any buffer of the grid exceeds the engine's limits.
void checkLargestShape(IssueList& out, const SweepPlan& plan) {
    if (plan.batches.empty() || plan.seqLens.empty()) return;
    const Shape largest{*std::max_element(plan.batches.begin(), plan.batches.end()),
                        *std::max_element(plan.seqLens.begin(), plan.seqLens.end())};
    if (largest.batch < 1 || largest.batch > Limits::maxBatch || largest.seqLen < 1 ||
        largest.seqLen > Limits::maxSeqLen)
        return; // already reported
    for (auto& issue : rnnprof::validate(plan.config, largest))
        if (issue.field == "batch") out.add(issue.field, issue.message);
}

} // namespace

std::vector<FieldIssue> validate(const SweepPlan& plan, const std::vector<std::string>& knownBackends) {
    IssueList out;
    for (auto& issue : rnnprof::validate(plan.config))
        out.add(issue.field, issue.message);
    checkSizes(out, "batch", plan.batches, Limits::maxBatch);
    checkSizes(out, "seq_len", plan.seqLens, Limits::maxSeqLen);
    checkBackends(out, plan, knownBackends);
    checkModes(out, plan);
    checkSettings(out, plan.settings);
    checkLargestShape(out, plan);
    if (const std::string problem = planPointCountProblem(plan); !problem.empty()) out.add("points", problem);
    return out.take();
}

std::size_t planPointCount(const SweepPlan& plan) {
    std::size_t runs = 0; // per (mode, shape): one per backend, gpu-cudnn one per algorithm
    for (const auto& backend : plan.backends)
        runs += runsPerCudnnAlgo(backend) ? plan.settings.cudnnAlgos.size() : 1;
    return plan.batches.size() * plan.seqLens.size() * plan.modes.size() * runs;
}

std::string planPointCountProblem(const SweepPlan& plan) {
    const std::size_t count = planPointCount(plan);
    if (count <= kMaxPlanPoints) return {};
    return "the grid has " + std::to_string(count) + " points, at most " + std::to_string(kMaxPlanPoints) +
           " are allowed (fewer batch sizes, sequence lengths, backends, modes or cuDNN algorithms)";
}

std::vector<PointSpec> points(const SweepPlan& plan) {
    std::vector<PointSpec> out;
    out.reserve(plan.modes.size() * plan.seqLens.size() * plan.batches.size() * plan.backends.size());
    for (Mode mode : plan.modes)
        for (int seqLen : plan.seqLens)
            for (int batch : plan.batches)
                for (const auto& backend : plan.backends) {
                    if (!runsPerCudnnAlgo(backend)) {
                        out.push_back({backend, mode, Shape{batch, seqLen}});
                        continue;
                    }
                    for (CudnnAlgo algo : plan.settings.cudnnAlgos)
                        out.push_back({backend, mode, Shape{batch, seqLen}, algo});
                }
    return out;
}

bool runsPerCudnnAlgo(std::string_view backend) {
    return backend == "gpu-cudnn";
}

std::string_view registryIdOf(std::string_view seriesId) {
    return seriesId.substr(0, seriesId.find('['));
}

std::string seriesId(const PointSpec& point) {
    if (!runsPerCudnnAlgo(point.backend) || point.cudnnAlgo == CudnnAlgo::Standard) return point.backend;
    return point.backend + "[" + std::string(toString(point.cudnnAlgo)) + "]";
}

Problem problemFor(const SweepPlan& plan, const PointSpec& point) {
    Problem p;
    p.config = plan.config;
    p.shape = point.shape;
    p.mode = point.mode;
    p.options.threads = plan.settings.threads;
    p.options.learningRate = plan.settings.learningRate;
    p.options.allowTf32 = plan.settings.allowTf32;
    p.options.gemm = plan.settings.gemm;
    p.options.cudnnAlgo = point.cudnnAlgo;
    p.options.cudaGraph = plan.settings.cudaGraph;
    return p;
}

std::string describe(const PointSpec& point) {
    return seriesId(point) + " " + std::string(toString(point.mode)) +
           " B=" + std::to_string(point.shape.batch) + " T=" + std::to_string(point.shape.seqLen);
}

} // namespace rnnprof

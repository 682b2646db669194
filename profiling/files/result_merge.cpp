#include "profiling/files/result_merge.h"

#include "profiling/files/plan_json.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <tuple>

namespace rnnprof {
namespace {

// What identifies a point within one run: its series, mode and shape.
using PointKey = std::tuple<std::string, Mode, int, int>;

PointKey keyOf(const PointResult& p) {
    return {p.backend, p.mode, p.shape.batch, p.shape.seqLen};
}

std::string describeKey(const PointKey& k) {
    return describe(PointSpec{std::get<0>(k), std::get<1>(k), Shape{std::get<2>(k), std::get<3>(k)}});
}

// Every point a whole run of `plan` holds, in the order the runner writes them: the grid, and after
// gpu-cudnn's last algorithm at a (mode, shape) the derived gpu-cudnn[best] when it ran two or more.
std::vector<PointKey> planKeys(const SweepPlan& plan) {
    std::vector<PointKey> keys;
    const auto& algos = plan.settings.cudnnAlgos;
    for (const PointSpec& spec : points(plan)) {
        keys.emplace_back(seriesId(spec), spec.mode, spec.shape.batch, spec.shape.seqLen);
        if (algos.size() >= 2 && runsPerCudnnAlgo(spec.backend) && spec.cudnnAlgo == algos.back())
            keys.emplace_back(std::string(kCudnnBestSeries), spec.mode, spec.shape.batch, spec.shape.seqLen);
    }
    return keys;
}

std::string joinedNames(const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i)
        out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    return out;
}

// At most five, then how many more: a missing shard would otherwise list hundreds.
std::string firstFew(const std::vector<std::string>& items) {
    constexpr std::size_t kShown = 5;
    std::string out;
    for (std::size_t i = 0; i < items.size() && i < kShown; ++i)
        out += (i ? ", " : "") + items[i];
    if (items.size() > kShown) out += " and " + std::to_string(items.size() - kShown) + " more";
    return out;
}

// One kind of machine's points: which inputs contributed and which point came from where.
struct Run {
    std::string machine;
    std::vector<std::size_t> inputs;                              // in input order
    std::map<PointKey, std::vector<std::size_t>> pointInputs;     // key -> inputs holding it
    std::map<PointKey, std::pair<std::size_t, std::size_t>> from; // key -> (input, point index)
};

void checkSameRecord(const std::vector<NamedResult>& inputs, std::vector<std::string>& problems) {
    const SweepResult& first = *inputs.front().result;
    for (std::size_t i = 1; i < inputs.size(); ++i) {
        const SweepResult& r = *inputs[i].result;
        if (r.schemaVersion != first.schemaVersion)
            problems.push_back(inputs[i].name + " has schema " + std::to_string(r.schemaVersion) + ", " +
                               inputs.front().name + " schema " + std::to_string(first.schemaVersion) +
                               ": files of one schema only");
        if (const auto differences = jsonio::planDifferences(first.plan, r.plan); !differences.empty()) {
            std::string list;
            for (const auto& d : differences)
                list += (list.empty() ? "" : "; ") + d;
            problems.push_back(inputs[i].name + " ran another plan than " + inputs.front().name + " (" +
                               inputs.front().name + " vs " + inputs[i].name + ": " + list +
                               "); only results of one plan are merged");
        }
    }
}

std::vector<Run> collectRuns(const std::vector<NamedResult>& inputs) {
    std::vector<Run> runs;
    auto runOf = [&](const std::string& machine) -> Run& {
        for (Run& r : runs)
            if (r.machine == machine) return r;
        return runs.emplace_back(Run{machine, {}, {}, {}});
    };
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const SweepResult& r = *inputs[i].result;
        if (r.points.empty()) runOf(machineName(r.host)).inputs.push_back(i);
        for (std::size_t p = 0; p < r.points.size(); ++p) {
            const PointResult& point = r.points[p];
            Run& run = runOf(machineName(hostOf(r, point)));
            if (run.inputs.empty() || run.inputs.back() != i) run.inputs.push_back(i);
            if (point.status == PointStatus::Cancelled) continue; // not measured: missing
            run.pointInputs[keyOf(point)].push_back(i);
            run.from.emplace(keyOf(point), std::make_pair(i, p));
        }
    }
    return runs;
}

// The shards or whole results of one run; false when they do not make one run.
bool checkRunInputs(const Run& run, const std::vector<NamedResult>& inputs,
                    std::vector<std::string>& problems) {
    std::vector<std::string> whole, sharded;
    for (std::size_t i : run.inputs)
        (inputs[i].result->shard ? sharded : whole).push_back(inputs[i].name);
    const std::size_t before = problems.size();
    const std::string on = " (measured on " + run.machine + ")";
    if (!whole.empty() && !sharded.empty())
        problems.push_back(joinedNames(sharded) + " hold shards of a split sweep and " + joinedNames(whole) +
                           " a whole one" + on +
                           ": give either every shard or one whole result per kind of machine");
    else if (whole.size() > 1)
        problems.push_back(joinedNames(whole) + " each measured the whole plan on " + run.machine +
                           ": charts could not tell their points apart; give one result per kind of "
                           "machine");
    if (sharded.empty() || !whole.empty()) return problems.size() == before;

    const int count = inputs[run.inputs.front()].result->shard->count;
    std::map<int, std::vector<std::string>> byIndex;
    for (std::size_t i : run.inputs) {
        const Shard& s = *inputs[i].result->shard;
        if (s.count != count)
            problems.push_back(inputs[i].name + " is shard " + shardText(s) + " but " +
                               inputs[run.inputs.front()].name + " is shard " +
                               shardText(*inputs[run.inputs.front()].result->shard) + on +
                               ": shards of one split only");
        byIndex[s.index].push_back(inputs[i].name);
    }
    if (problems.size() != before) return false;
    std::vector<std::string> missing;
    for (int index = 1; index <= count; ++index) {
        const auto it = byIndex.find(index);
        if (it == byIndex.end())
            missing.push_back(shardText(Shard{index, count}));
        else if (it->second.size() > 1)
            problems.push_back("shard " + shardText(Shard{index, count}) + " is given more than once (" +
                               joinedNames(it->second) + ")" + on);
    }
    if (!missing.empty())
        problems.push_back("shard" + std::string(missing.size() > 1 ? "s " : " ") + firstFew(missing) +
                           (missing.size() > 1 ? " are" : " is") + " missing" + on);
    return problems.size() == before;
}

void checkRunPoints(const Run& run, const std::vector<PointKey>& expected,
                    const std::vector<NamedResult>& inputs, std::vector<std::string>& problems) {
    const std::string on = " (measured on " + run.machine + ")";
    const std::set<PointKey> planned(expected.begin(), expected.end());
    std::vector<std::string> missing;
    for (const PointKey& key : expected)
        if (!run.pointInputs.count(key)) missing.push_back(describeKey(key));
    if (!missing.empty())
        problems.push_back(std::to_string(missing.size()) + " point" + (missing.size() > 1 ? "s" : "") +
                           " of the plan " + (missing.size() > 1 ? "are" : "is") + " missing" + on + ": " +
                           firstFew(missing));
    for (const auto& [key, holders] : run.pointInputs) {
        std::vector<std::string> names;
        for (std::size_t i : holders)
            names.push_back(inputs[i].name);
        if (!planned.count(key))
            problems.push_back(joinedNames(names) + " hold" + (names.size() > 1 ? "" : "s") + " " +
                               describeKey(key) + ", which is not a point of the plan");
        else if (holders.size() > 1)
            problems.push_back(describeKey(key) + " is given more than once" + on + ": in " +
                               (holders.front() == holders.back()
                                    ? names.front() + " " + std::to_string(holders.size()) + " times"
                                    : joinedNames(names)));
    }
}

// mergeResults() with the points taken by `take` (input, index): copied, or moved out of inputs
// the caller no longer needs.
using TakePoint = std::function<PointResult(std::size_t input, std::size_t index)>;

SweepResult merge(const std::vector<NamedResult>& inputs, std::vector<std::string>& problems,
                  const TakePoint& take) {
    const std::size_t before = problems.size();
    if (inputs.empty()) {
        problems.push_back("nothing to merge: give the result files");
        return {};
    }
    checkSameRecord(inputs, problems);
    if (problems.size() != before) return {}; // points of different plans cannot be compared
    const std::vector<PointKey> expected = planKeys(inputs.front().result->plan);
    const std::vector<Run> runs = collectRuns(inputs);
    for (const Run& run : runs)
        if (checkRunInputs(run, inputs, problems)) checkRunPoints(run, expected, inputs, problems);
    if (problems.size() != before) return {};

    const SweepResult& first = *inputs.front().result;
    SweepResult merged;
    merged.schemaVersion = first.schemaVersion;
    merged.host = first.host;
    merged.plan = first.plan;
    merged.recordedFastPath = first.recordedFastPath;
    merged.createdAt = first.createdAt;
    merged.complete = true;
    for (const NamedResult& in : inputs) {
        if (!in.result->createdAt.empty() &&
            (merged.createdAt.empty() || in.result->createdAt < merged.createdAt))
            merged.createdAt = in.result->createdAt; // ISO 8601 UTC sorts as text
        merged.complete = merged.complete && in.result->complete;
    }
    for (const Run& run : runs)
        for (const PointKey& key : expected) {
            const auto [input, index] = run.from.at(key);
            const SweepResult& source = *inputs[input].result;
            PointResult point = take(input, index);
            const HostInfo& host = hostOf(source, point);
            point.hostIndex = 0;
            if (!(host == merged.host)) {
                auto it = std::find(merged.otherHosts.begin(), merged.otherHosts.end(), host);
                if (it == merged.otherHosts.end()) it = merged.otherHosts.insert(it, host);
                point.hostIndex = int(it - merged.otherHosts.begin()) + 1;
            }
            merged.points.push_back(std::move(point));
        }
    return merged;
}

} // namespace

SweepResult mergeResults(const std::vector<NamedResult>& inputs, std::vector<std::string>& problems) {
    return merge(inputs, problems,
                 [&](std::size_t input, std::size_t index) { return inputs[input].result->points[index]; });
}

SweepResult mergeResults(std::vector<SweepResult>& loaded, const std::vector<std::string>& names,
                         std::vector<std::string>& problems) {
    std::vector<NamedResult> inputs;
    for (std::size_t i = 0; i < loaded.size(); ++i)
        inputs.push_back({&loaded[i], i < names.size() ? names[i] : std::string()});
    return merge(inputs, problems, [&](std::size_t input, std::size_t index) {
        return std::move(loaded[input].points[index]);
    });
}

} // namespace rnnprof

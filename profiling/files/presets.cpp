#include "profiling/files/presets.h"

#include "engine/error.h"
#include "profiling/files/plan_json.h"
#include "profiling/files/presets_embedded.h"

#include <algorithm>

namespace rnnprof {
namespace {

constexpr std::string_view kDefaultPreset = "quick-start";

struct ParsedPlan {
    SweepPlan plan;
    std::string title;
    std::string description;
};

// Structure first, then the plan's ranges; every problem of the document in one error. Backend
// ids are checked by the caller against the backends of this build (validate()).
ParsedPlan parsePlanDocument(std::string_view text, const std::string& source) {
    const jsonio::Json doc = jsonio::parse(text, source);
    jsonio::Problems problems;
    ParsedPlan out;
    jsonio::readPlan(doc, "", problems, out.plan);
    if (doc.is_object()) {
        jsonio::ObjectReader r(doc, "", problems, false);
        r.get("title", out.title);
        r.get("description", out.description);
    }
    for (const auto& issue : validate(out.plan, out.plan.backends))
        problems.add(jsonio::planKeyPath(issue.field), issue.message);
    problems.throwIfAny(source);
    return out;
}

Preset loadPreset(const detail::EmbeddedPreset& embedded) {
    const std::string name(embedded.name);
    ParsedPlan parsed = parsePlanDocument(embedded.json, "preset " + name);
    if (parsed.title.empty() || parsed.description.empty())
        throw Error(ErrorKind::InvalidInput, "preset " + name + ": a preset needs a title and a description");
    parsed.plan.preset = name;
    return Preset{name, parsed.title, parsed.description, std::move(parsed.plan)};
}

} // namespace

const std::vector<Preset>& builtinPresets() {
    static const std::vector<Preset> presets = [] {
        std::vector<Preset> out;
        for (const auto& embedded : detail::embeddedPresets())
            out.push_back(loadPreset(embedded));
        // The default first, then by name: the order of menus and `--list-presets`.
        std::sort(out.begin(), out.end(), [](const Preset& a, const Preset& b) {
            const bool aDefault = a.name == kDefaultPreset, bDefault = b.name == kDefaultPreset;
            return aDefault != bDefault ? aDefault : a.name < b.name;
        });
        return out;
    }();
    return presets;
}

const Preset* findPreset(std::string_view name) {
    for (const auto& p : builtinPresets())
        if (p.name == name) return &p;
    return nullptr;
}

std::string defaultPresetName() {
    return std::string(kDefaultPreset);
}

SweepPlan planFromJson(std::string_view text, const std::string& source) {
    return parsePlanDocument(text, source).plan;
}

std::string planToJson(const SweepPlan& plan) {
    return jsonio::planToJsonValue(plan).dump(2) + "\n";
}

} // namespace rnnprof

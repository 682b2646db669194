// libFuzzer target: planFromJson() (presets and `--config FILE.json`) over arbitrary text.
// Properties: refused with rnnprof::Error naming the problems, or a valid plan whose JSON reads
// back as the same plan; the points of an accepted plan stay within the documented grid limit.
#include "engine/backend.h"
#include "fuzz_support.h"
#include "profiling/files/presets.h"

using namespace rnnprof;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::expectOnlyRnnprofErrors([&] {
        const SweepPlan plan = planFromJson(fuzz::asText(data, size), "fuzz-config.json");
        fuzz::require(validate(plan, plan.backends).empty(), "planFromJson accepted an invalid plan");
        const std::size_t count =
            plan.batches.size() * plan.seqLens.size() * plan.backends.size() * plan.modes.size();
        fuzz::require(count >= 1 && count <= 100000, "an accepted plan has no points or more than 100000");
        const std::string json = planToJson(plan);
        SweepPlan again;
        try {
            again = planFromJson(json, "round trip");
        } catch (const Error& e) {
            fuzz::propertyFailed(std::string("an accepted plan does not parse after writing: ") + e.what());
        }
        fuzz::require(planToJson(again) == json, "write/read/write changed the plan's JSON");
        (void)validate(plan, builtinBackends().ids());
    });
    return 0;
}

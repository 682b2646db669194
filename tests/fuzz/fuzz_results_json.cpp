// libFuzzer target: resultFromJson() over arbitrary text, then everything that reads a loaded
// result (JSON, CSV and Chrome trace writers, the summary table). Properties: malformed files are
// refused with rnnprof::Error; an accepted file survives save/load unchanged (the JSON written
// from it reads back and writes the same text again).
#include "fuzz_support.h"
#include "profiling/analysis/summary_text.h"
#include "profiling/files/result_files.h"

using namespace rnnprof;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::expectOnlyRnnprofErrors([&] {
        const SweepResult result = resultFromJson(fuzz::asText(data, size), "fuzz.json");
        const std::string json = toJson(result);
        SweepResult again;
        try {
            again = resultFromJson(json, "round trip");
        } catch (const Error& e) {
            fuzz::propertyFailed(std::string("a loaded result does not load after saving: ") + e.what());
        }
        fuzz::require(toJson(again) == json, "save/load/save changed the JSON text");
        (void)toCsv(result);
        (void)toChromeTrace(result);
        (void)summaryTable(result);
    });
    return 0;
}

// libFuzzer target: resultFromJson() over arbitrary text, then everything that reads a loaded
// result (JSON, CSV and Chrome trace writers, the summary table). Properties: malformed files are
// refused with rnnprof::Error; an accepted file survives save/load unchanged (the JSON written
// from it reads back and writes the same text again), and its outline (the header read with every
// point dropped as it is parsed) is the same header and counts every point.
#include "fuzz_support.h"
#include "profiling/analysis/summary_text.h"
#include "profiling/files/json_reader.h"
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
        // The outline's JSON part (resultOutlineFromText() sends a journal's text elsewhere).
        std::size_t points = 0;
        SweepResult header;
        try {
            header = resultFromJson(
                jsonio::parseWithoutPoints(fuzz::asText(data, size), "fuzz.json", points).dump(),
                "fuzz.json");
        } catch (const Error& e) {
            fuzz::propertyFailed(std::string("a loaded result has no outline: ") + e.what());
        }
        SweepResult expected = result;
        expected.points.clear();
        fuzz::require(header == expected, "the outline's header is not the file's");
        fuzz::require(points == result.points.size(), "the outline miscounted the points");
        (void)toCsv(result);
        (void)toChromeTrace(result);
        (void)summaryTable(result);
    });
    return 0;
}

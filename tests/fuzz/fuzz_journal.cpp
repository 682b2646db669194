// libFuzzer target: journalFromText() over arbitrary text (a journal is JSON Lines: a header,
// then one point per line, the last line possibly torn). Properties: refused with rnnprof::Error
// or read completely; what is read saves as a results file that loads again.
#include "fuzz_support.h"
#include "profiling/analysis/summary_text.h"
#include "profiling/files/result_files.h"

using namespace rnnprof;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::expectOnlyRnnprofErrors([&] {
        const SweepResult result = journalFromText(fuzz::asText(data, size), "fuzz.journal");
        fuzz::require(!result.complete, "a journal read as a complete result");
        const std::string json = toJson(result);
        try {
            fuzz::require(toJson(resultFromJson(json, "round trip")) == json,
                          "a recovered journal changed in save/load");
        } catch (const Error& e) {
            fuzz::propertyFailed(std::string("a recovered journal does not load after saving: ") + e.what());
        }
        (void)toCsv(result);
        (void)toChromeTrace(result);
        (void)summaryTable(result);
    });
    return 0;
}

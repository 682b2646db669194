// The host record's load samples (profiling/measure/host_load.h) in results.json: written under their
// names, read back equal, validated like every recorded number, and absent from older files,
// which still load.
#include "engine/error.h"
#include "profiling/files/result_files.h"
#include "sample_results.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace rnnprof {
namespace {

using ::testing::HasSubstr;
using Json = nlohmann::json;

SweepResult resultWithLoad() {
    SweepResult r = test::sampleResult();
    r.host.loadBefore = HostLoad{0.4, 0.1, 0.1, {}};
    r.host.loadDuring = HostLoad{3.2, 1.05, 1.0, {{"stress-ng", 4242, 0.99}, {"Xorg", 800, 0.06}}};
    return r;
}

TEST(HostLoadJson, LoadSamplesRoundTripUnderTheirNames) {
    const SweepResult r = resultWithLoad();
    const std::string text = toJson(r);
    const Json doc = Json::parse(text);
    EXPECT_EQ(doc["host"]["load_during"]["other_busy_cores"], 1.05);
    EXPECT_EQ(doc["host"]["load_during"]["busiest"][0]["name"], "stress-ng");
    EXPECT_EQ(doc["host"]["load_before"]["load_average_1min"], 0.4);
    const SweepResult back = resultFromJson(text, "busy.json");
    EXPECT_EQ(back.host, r.host);
}

TEST(HostLoadJson, OlderFilesWithoutLoadSamplesLoad) {
    Json doc = Json::parse(toJson(resultWithLoad()));
    doc["host"].erase("load_before");
    doc["host"].erase("load_during");
    const SweepResult back = resultFromJson(doc.dump(), "old.json");
    EXPECT_FALSE(back.host.loadBefore.has_value());
    EXPECT_FALSE(back.host.loadDuring.has_value());
    // A result measured where /proc was unreadable writes null, and reads back the same.
    EXPECT_FALSE(resultFromJson(toJson(test::sampleResult()), "r").host.loadDuring.has_value());
}

TEST(HostLoadJson, ImpossibleLoadValuesNameTheirKey) {
    Json doc = Json::parse(toJson(resultWithLoad()));
    doc["host"]["load_during"]["other_busy_cores"] = -2.0;
    try {
        (void)resultFromJson(doc.dump(), "bad.json");
        ADD_FAILURE() << "a negative share loaded";
    } catch (const Error& e) {
        EXPECT_THAT(e.what(), HasSubstr("host.load_during.other_busy_cores"));
    }
    doc["host"]["load_during"]["other_busy_cores"] = 1e300;
    EXPECT_THROW((void)resultFromJson(doc.dump(), "bad.json"), Error);
    doc["host"]["load_during"]["other_busy_cores"] = 1.0;
    doc["host"]["load_during"]["busiest"][0]["name"] = std::string(5000, 'x');
    EXPECT_THROW((void)resultFromJson(doc.dump(), "bad.json"), Error);
}

} // namespace
} // namespace rnnprof

// The result-file fields of sharded and merged sweeps: "shard" in the header of a shard's file,
// "other_hosts" and each point's "host_index" in a merged file. A whole sweep of one host is
// written as before, and files without them load as whole, single-host results.
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

SweepResult mergedSample() {
    SweepResult r = test::sampleResult();
    HostInfo other = r.host;
    other.hostname = "node02";
    r.otherHosts = {other};
    r.points.back().hostIndex = 1;
    return r;
}

std::string loadProblem(const Json& doc) {
    try {
        (void)resultFromJson(doc.dump(), "merged.json");
    } catch (const Error& e) {
        return e.what();
    }
    ADD_FAILURE() << "expected an error";
    return "";
}

TEST(ShardFields, AWholeSingleHostSweepIsWrittenAsBefore) {
    const Json doc = Json::parse(toJson(test::sampleResult()));
    EXPECT_FALSE(doc.contains("shard"));
    EXPECT_FALSE(doc.contains("other_hosts"));
    for (const Json& p : doc["points"])
        EXPECT_FALSE(p.contains("host_index"));
    const SweepResult back = resultFromJson(doc.dump(), "r.json");
    EXPECT_FALSE(back.shard);
    EXPECT_TRUE(back.otherHosts.empty());
}

TEST(ShardFields, AShardsFileRecordsItsShardAndTheWholePlan) {
    SweepResult r = test::sampleResult();
    r.shard = Shard{2, 4};
    const Json doc = Json::parse(toJson(r));
    EXPECT_EQ(doc["shard"], (Json{{"index", 2}, {"count", 4}}));
    EXPECT_EQ(doc["plan"]["sweep"]["batch"],
              Json::parse(toJson(test::sampleResult()))["plan"]["sweep"]["batch"]);
    EXPECT_EQ(resultFromJson(doc.dump(), "r.json"), r);
}

TEST(ShardFields, AMergedFileKeepsEachPointsHost) {
    const SweepResult r = mergedSample();
    const Json doc = Json::parse(toJson(r));
    EXPECT_EQ(doc["other_hosts"][0]["hostname"], "node02");
    EXPECT_EQ(doc["points"].back()["host_index"], 1);
    EXPECT_FALSE(doc["points"][0].contains("host_index"));
    const SweepResult back = resultFromJson(doc.dump(), "merged.json");
    EXPECT_EQ(back, r);
    EXPECT_EQ(hostOf(back, back.points.back()).hostname, "node02");
    EXPECT_EQ(hostOf(back, back.points.front()).hostname, r.host.hostname);
}

TEST(ShardFields, AHostIndexBeyondTheListIsRefusedWithItsPath) {
    Json doc = Json::parse(toJson(mergedSample()));
    doc["points"][0]["host_index"] = 2;
    EXPECT_THAT(loadProblem(doc),
                HasSubstr("points[0].host_index: names host 2, the file lists 1 other hosts"));
}

TEST(ShardFields, AShardThatNamesNoShardIsRefused) {
    SweepResult r = test::sampleResult();
    r.shard = Shard{1, 4};
    Json doc = Json::parse(toJson(r));
    doc["shard"]["index"] = 5;
    EXPECT_THAT(loadProblem(doc), HasSubstr("shard 5/4 names no shard"));
}

TEST(ShardFields, AJournalHeaderRecordsTheShard) {
    test::TempDir dir;
    SweepResult header = test::sampleResult();
    header.points.clear();
    header.shard = Shard{3, 4};
    {
        Journal journal(dir.path("r.json.journal"), header);
        journal.append(test::sampleResult().points.front());
    }
    const SweepResult back = loadResultFile(dir.path("r.json.journal"));
    EXPECT_EQ(back.shard, (Shard{3, 4}));
    EXPECT_EQ(back.points.size(), 1u);
}

} // namespace
} // namespace rnnprof

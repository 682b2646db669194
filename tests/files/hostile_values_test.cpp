// Result files and journals edited by hand, cut short or crafted: every number is
// null or within the bounds a measurement keeps, every text is bounded, every backend id is one a
// sweep writes, every batch and sequence length one a plan may hold. Each refusal names the key
// path, what was found and what is allowed; nothing absurd reaches the charts.
#include "engine/error.h"
#include "profiling/files/file_name_part.h"
#include "profiling/files/json_reader.h"
#include "profiling/files/recorded_limits.h"
#include "profiling/files/result_files.h"
#include "sample_results.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>

namespace rnnprof {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using Json = nlohmann::json;

Json sampleDocument() {
    return Json::parse(toJson(test::sampleResult()));
}

// The message resultFromJson throws for `doc`, or "" (a test failure) when it loads.
std::string loadError(const std::string& text) {
    try {
        (void)resultFromJson(text, "results.json");
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::InvalidInput) << e.what();
        return e.what();
    }
    ADD_FAILURE() << "expected an error";
    return "";
}

std::string loadError(const Json& doc) {
    return loadError(doc.dump());
}

// `doc` as a journal: the header line, then one line per point.
std::string asJournal(const Json& doc) {
    Json header = doc;
    header.erase("points");
    header["format"] = "rnnprof-journal";
    std::string text = header.dump() + "\n";
    for (const Json& p : doc["points"])
        text += p.dump() + "\n";
    return text;
}

std::string journalError(const Json& doc) {
    try {
        (void)journalFromText(asJournal(doc), "r.json.journal");
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::InvalidInput) << e.what();
        return e.what();
    }
    ADD_FAILURE() << "expected an error";
    return "";
}

TEST(HostileValues, ANumberBeyondTheRecordedBoundIsRefusedWithItsPathAndTheBound) {
    // 1.1e308 crashed rnnprof plot and the desktop app: the log axis range overflowed to inf.
    Json doc = sampleDocument();
    doc["points"][0]["iteration_ms"]["median"] = 1.1e308;
    doc["points"][2]["sequences_per_s"] = 1.1e308;
    const std::string message = loadError(doc);
    EXPECT_THAT(message,
                HasSubstr("points[0].iteration_ms.median: must be null or a number from 0 to 1e+15"));
    EXPECT_THAT(message, HasSubstr("(got 1.1e+308)"));
    EXPECT_THAT(message, HasSubstr("points[2].sequences_per_s: must be null"));
    EXPECT_THAT(journalError(doc), HasSubstr("r.json.journal line 2: iteration_ms.median: must be null"));
}

TEST(HostileValues, TheBoundItselfLoadsAndJustAboveItDoesNot) {
    Json doc = sampleDocument();
    doc["points"][0]["iteration_ms"]["median"] = kMaxRecordedValue;
    EXPECT_EQ(resultFromJson(doc.dump(), "r.json").points[0].iteration.median, kMaxRecordedValue);
    doc["points"][0]["iteration_ms"]["median"] = std::nextafter(kMaxRecordedValue, 1e300);
    EXPECT_THAT(loadError(doc), HasSubstr("points[0].iteration_ms.median"));
}

TEST(HostileValues, NegativeNumbersAndCountsAreRefusedButNullStaysNoValue) {
    Json doc = sampleDocument();
    doc["points"][0]["iteration_ms"]["p10"] = -1.0;
    doc["points"][0]["measured_runs"] = -3;
    doc["points"][1]["gpu"]["kernels"][0]["share"] = -0.5;
    const std::string message = loadError(doc);
    EXPECT_THAT(message, HasSubstr("points[0].iteration_ms.p10: must be null or a number from 0"));
    EXPECT_THAT(message, HasSubstr("points[0].measured_runs: must be 0 or more (got -3)"));
    EXPECT_THAT(message, HasSubstr("points[1].gpu.kernels[0].share: must be null"));

    Json nulls = sampleDocument();
    nulls["points"][0]["iteration_ms"]["median"] = nullptr;
    EXPECT_TRUE(std::isnan(resultFromJson(nulls.dump(), "r.json").points[0].iteration.median));
}

TEST(HostileValues, AnOverflowingNumberIsRefused) {
    std::string text = sampleDocument().dump();
    const std::string key = "\"sequences_per_s\":";
    const auto at = text.find(key);
    ASSERT_NE(at, std::string::npos);
    text.insert(at + key.size(), "1e400,\"was\":"); // JSON has no infinity; 1e400 overflows a double
    (void)loadError(text);
}

TEST(HostileValues, ATraceSliceMayStartBeforeTheIterationButNotAbsurdlySo) {
    Json doc = sampleDocument();
    ASSERT_FALSE(doc["points"][1]["trace"].empty());
    doc["points"][1]["trace"][0]["start_us"] = -12.5; // a GPU record before the phase began
    EXPECT_EQ(resultFromJson(doc.dump(), "r.json").points[1].trace[0].startUs, -12.5);
    doc["points"][1]["trace"][0]["start_us"] = -1e300;
    EXPECT_THAT(loadError(doc),
                HasSubstr("points[1].trace[0].start_us: must be null or a number from -1e+15"));
}

TEST(HostileValues, UnknownBackendIdsAreRefusedNamingTheKnownOnes) {
    Json doc = sampleDocument();
    doc["points"][0]["backend"] = "x/../../ESCAPED";
    doc["points"][2]["backend"] = "gpu-cudnn[warp_speed]";
    const std::string message = loadError(doc);
    EXPECT_THAT(message, HasSubstr("points[0].backend: unknown backend 'x/../../ESCAPED': known are "));
    EXPECT_THAT(message, HasSubstr("cpu-blas"));
    EXPECT_THAT(message, HasSubstr("or gpu-cudnn[ALGO] with ALGO one of "));
    EXPECT_THAT(message, HasSubstr("points[2].backend: unknown backend 'gpu-cudnn[warp_speed]'"));
    EXPECT_THAT(journalError(doc), HasSubstr("unknown backend 'x/../../ESCAPED'"));

    Json plan = sampleDocument();
    plan["plan"]["sweep"]["backends"][1] = "../../etc";
    EXPECT_THAT(loadError(plan), HasSubstr("plan.sweep.backends[1]: unknown backend '../../etc'"));
}

TEST(HostileValues, EveryBackendSpellingASweepWritesLoads) {
    for (const char* id : {"cpu-reference", "cpu-blas", "cpu-onednn", "gpu-generic", "gpu-cudnn",
                           "gpu-cudnn[persist_static]", "gpu-cudnn[persist_dynamic]", "gpu-cudnn[best]"})
        EXPECT_TRUE(isKnownSeriesId(id)) << id;
    for (const char* id : {"", "cpu-blas[persist_static]", "gpu-cudnn[", "gpu-cudnn[]", "gpu-cudnn[best",
                           "gpu-cudnn[best]x", "GPU-CUDNN", "cpu-blas/../x"})
        EXPECT_FALSE(isKnownSeriesId(id)) << id;
    Json doc = sampleDocument();
    doc["points"][0]["backend"] = "gpu-cudnn[persist_static]";
    EXPECT_EQ(resultFromJson(doc.dump(), "r.json").points[0].backend, "gpu-cudnn[persist_static]");
}

TEST(HostileValues, LongTextsAreRefusedAndTheMessageStaysShort) {
    // Legend labels: QtCharts elides in quadratic time (20 kB took 650 MB, 1 MB 23.7 GB).
    Json doc = sampleDocument();
    doc["points"][0]["backend"] = std::string(1 << 20, 'b');
    doc["host"]["hostname"] = std::string(20000, 'h');
    doc["points"][1]["gpu"]["kernels"][0]["name"] = std::string(kMaxRecordedText + 1, 'k');
    const std::string message = loadError(doc);
    EXPECT_THAT(message, HasSubstr("points[0].backend: text of 1048576 bytes, at most 4096 are allowed"));
    EXPECT_THAT(message, HasSubstr("host.hostname: text of 20000 bytes"));
    EXPECT_THAT(message, HasSubstr("points[1].gpu.kernels[0].name: text of 4097 bytes"));
    EXPECT_LT(message.size(), 4000u) << "a hostile value is quoted by its start only";

    Json host = sampleDocument();
    host["host"]["hostname"] = std::string(kMaxHostNameLength + 1, 'h');
    EXPECT_THAT(loadError(host),
                HasSubstr("host.hostname: a host name of 256 bytes, at most 255 are allowed"));
    host["host"]["hostname"] = std::string(kMaxHostNameLength, 'h');
    EXPECT_NO_THROW((void)resultFromJson(host.dump(), "r.json"));
}

TEST(HostileValues, BatchSizesAndSequenceLengthsKeepThePlanLimits) {
    Json doc = sampleDocument();
    doc["points"][0]["batch"] = -5;
    doc["points"][1]["batch"] = 0;
    doc["points"][2]["seq_len"] = 65536;
    doc["plan"]["sweep"]["batch"] = {16, -5};
    const std::string message = loadError(doc);
    EXPECT_THAT(message, HasSubstr("points[0].batch: must be 0 or more (got -5)"));
    EXPECT_THAT(message, HasSubstr("points[1].batch: must be between 1 and 65536 (got 0)"));
    EXPECT_THAT(message, HasSubstr("points[2].seq_len: must be between 1 and 65535 (got 65536)"));
    EXPECT_THAT(message, HasSubstr("plan.sweep.batch[1]: must be between 1 and 65536 (got -5)"));
}

TEST(HostileValues, AnUnknownKeyInTheRecordedPlanIsRefusedNamingTheAllowedOnes) {
    // The plan is read as strictly as a config file: a misspelt setting is not silently dropped.
    Json doc = sampleDocument();
    doc["plan"]["measure"]["warmupp"] = 5;
    doc["plan"]["model"]["hiden_size"] = 64;
    const std::string message = loadError(doc);
    EXPECT_THAT(message, HasSubstr("plan.measure.warmupp: unknown key (allowed here: "));
    EXPECT_THAT(message, HasSubstr("warmup"));
    EXPECT_THAT(message, HasSubstr("plan.model.hiden_size: unknown key (allowed here: "));
    Json preset = sampleDocument();
    preset["plan"]["preset"] = Json{{"name", "x"}};
    EXPECT_THAT(loadError(preset), HasSubstr("plan.preset: expected a string, got object"));
}

TEST(HostileValues, PredictionFieldsKeepTheRecordedBounds) {
    // Predicted points draw their band on the same log axes as measured ones.
    Json doc = sampleDocument();
    Json& prediction = doc["points"][5]["prediction"];
    ASSERT_TRUE(prediction.is_object());
    prediction["low_ms"] = 1.1e308;
    prediction["high_ms"] = -2.0;
    prediction["step_ms"] = 1.1e308;
    prediction["fitted_points"] = -1;
    prediction["from"] = std::string(kMaxRecordedText + 1, 'f');
    const std::string message = loadError(doc);
    EXPECT_THAT(message, HasSubstr("points[5].prediction.low_ms: must be null or a number from 0 to 1e+15 "
                                   "(got 1.1e+308)"));
    EXPECT_THAT(message, HasSubstr("points[5].prediction.high_ms: must be null or a number from 0"));
    EXPECT_THAT(message, HasSubstr("points[5].prediction.step_ms: must be null"));
    EXPECT_THAT(message, HasSubstr("points[5].prediction.fitted_points: must be 0 or more (got -1)"));
    EXPECT_THAT(message, HasSubstr("points[5].prediction.from: text of 4097 bytes"));
    EXPECT_THAT(journalError(doc), HasSubstr("r.json.journal line 7: prediction.low_ms: must be null"));

    Json open = sampleDocument();
    open["points"][5]["prediction"]["high_ms"] = nullptr; // no upper bound: allowed
    EXPECT_EQ(resultFromJson(open.dump(), "r.json"), test::sampleResult());
}

// `object` padded with unknown keys "pad0", "pad1", ... until it holds `keys` keys.
void padKeys(Json& object, std::size_t keys) {
    for (std::size_t i = 0; object.size() < keys; ++i)
        object["pad" + std::to_string(i)] = i;
}

TEST(HostileValues, AnObjectWithTooManyKeysIsRefusedNamingItsPathAndTheCap) {
    // 300,000 keys (5.5 MB) took 81 s before the cap: each key was looked up among those before it.
    Json doc = sampleDocument();
    padKeys(doc["points"][1]["memory"], 300000);
    EXPECT_THAT(loadError(doc),
                HasSubstr("results.json: points[1].memory has more than 256 keys, the most one "
                          "object may hold"));
    EXPECT_THAT(journalError(doc), HasSubstr("r.json.journal line 3: memory has more than 256 keys"));

    Json top = sampleDocument();
    padKeys(top, jsonio::kMaxJsonObjectKeys + 1);
    EXPECT_THAT(loadError(top), HasSubstr("results.json: the top-level object has more than 256 keys"));
}

// nlohmann::json keeps the last of two equal keys without a word: a file that says "median" twice
// for one point is ambiguous, and refused naming the key's path, at any depth.
TEST(HostileValues, AKeyGivenTwiceInOneObjectIsRefusedNamingItsPath) {
    std::string text = sampleDocument().dump();
    const std::string median = "\"median\":";
    const auto at = text.find(median, text.find("\"points\""));
    ASSERT_NE(at, std::string::npos);
    text.insert(at, median + "1.0,");
    try {
        (void)resultFromJson(text, "results.json");
        ADD_FAILURE() << "loaded";
    } catch (const Error& e) {
        EXPECT_THAT(e.what(),
                    HasSubstr("results.json: points[0].iteration_ms.median is given twice in one object"));
    }
    EXPECT_THROW(
        (void)resultFromJson(R"({"format": "rnnprof-results", "format": "rnnprof-results"})", "r.json"),
        Error);
    EXPECT_NO_THROW(
        (void)jsonio::parse(R"({"a": {"k": 1}, "b": {"k": 2}, "c": [{"k": 1}, {"k": 2}]})", "x.json"))
        << "equal keys of different objects";
}

TEST(HostileValues, AnObjectOfExactlyTheKeyCapLoadsItsUnknownKeysIgnored) {
    Json doc = sampleDocument();
    padKeys(doc, jsonio::kMaxJsonObjectKeys);
    padKeys(doc["points"][0]["iteration_ms"], jsonio::kMaxJsonObjectKeys);
    EXPECT_EQ(resultFromJson(doc.dump(), "r.json"), test::sampleResult());
}

TEST(HostileValues, TheSampleResultAndItsJournalStillLoad) {
    const SweepResult r = test::sampleResult();
    EXPECT_EQ(resultFromJson(toJson(r), "r.json"), r);
    EXPECT_EQ(journalFromText(asJournal(Json::parse(toJson(r))), "r.json.journal").points, r.points);
}

TEST(FileNamePart, KeepsSafeCharactersAndReplacesTheRest) {
    EXPECT_EQ(fileNamePart("cpu-onednn"), "cpu-onednn");
    EXPECT_EQ(fileNamePart("gpu-cudnn[persist_static]"), "gpu-cudnn_persist_static_");
    EXPECT_EQ(fileNamePart("x/../../ESCAPED"), "x_.._.._ESCAPED");
    EXPECT_EQ(fileNamePart(".."), "_.");
    EXPECT_EQ(fileNamePart(""), "_");
    EXPECT_EQ(fileNamePart("a b\nc\xc3\xa9"), "a_b_c__");
    EXPECT_EQ(fileNamePart(std::string(240, 'x')).size(), kMaxFileNamePart);
    for (const std::string& hostile :
         {std::string("/etc/passwd"), std::string("..\\..\\x"), std::string(1000, '/')})
        EXPECT_THAT(fileNamePart(hostile), Not(HasSubstr("/"))) << hostile;
}

} // namespace
} // namespace rnnprof

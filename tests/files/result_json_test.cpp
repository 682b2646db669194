// results.json: a lossless round trip of every field, NaN as null, and clear errors (naming the
// key path) for newer, malformed or truncated files, never a crash.
#include "engine/error.h"
#include "profiling/files/json_reader.h"
#include "profiling/files/result_files.h"
#include "sample_results.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <malloc.h>

#include <filesystem>
#include <fstream>

namespace rnnprof {
namespace {

using ::testing::HasSubstr;
using Json = nlohmann::json;

// The message of the Error(InvalidInput) resultFromJson throws for `text`.
std::string loadError(const std::string& text, const std::string& source = "results.json") {
    try {
        (void)resultFromJson(text, source);
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::InvalidInput) << e.what();
        return e.what();
    }
    ADD_FAILURE() << "expected an error";
    return "";
}

Json sampleDocument() {
    return Json::parse(toJson(test::sampleResult()));
}

TEST(ResultJson, RoundTripIsLossless) {
    const SweepResult r = test::sampleResult();
    const SweepResult back = resultFromJson(toJson(r), "results.json");
    EXPECT_EQ(back, r);
    EXPECT_EQ(back.points.size(), r.points.size());
    EXPECT_EQ(back.host, r.host); // every HostInfo field, GPU versions included
    EXPECT_EQ(back.plan, r.plan);
}

TEST(ResultJson, EmptyAndIncompleteSweepsRoundTrip) {
    SweepResult r;
    r.createdAt = isoTimestampUtc();
    r.host.gpu.reason = "no NVIDIA driver";
    r.complete = false;
    EXPECT_EQ(resultFromJson(toJson(r), "r"), r);
    EXPECT_FALSE(Json::parse(toJson(r)).contains("stopped_by")) << "written only when a stop has a reason";
    r.stoppedBy = "SIGTERM";
    EXPECT_EQ(Json::parse(toJson(r))["stopped_by"], "SIGTERM");
    EXPECT_EQ(resultFromJson(toJson(r), "r"), r);
}

TEST(ResultJson, RecordsSchemaHostAndPlan) {
    const Json doc = sampleDocument();
    EXPECT_EQ(doc["format"], "rnnprof-results");
    EXPECT_EQ(doc["schema_version"], SweepResult::kSchemaVersion);
    EXPECT_EQ(doc["created_at"], "2026-11-21T21:34:10Z");
    EXPECT_EQ(doc["host"]["gpu"]["cudnn_version"], "9.19.0");
    EXPECT_EQ(doc["host"]["gpu"]["devices"][0]["name"], "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(doc["plan"]["model"]["cell"], "gru");
    EXPECT_EQ(doc["plan"]["sweep"]["backends"][1], "gpu-cudnn");
    EXPECT_EQ(doc["points"].size(), 6u);
    EXPECT_EQ(doc["points"][1]["gpu"]["kernels"][0]["name"], "void lstm_fwd<float>(int)");
}

TEST(ResultJson, NotApplicableValuesAreWrittenAsNullAndReadBackAsNaN) {
    const Json doc = sampleDocument();
    EXPECT_TRUE(doc["points"][0]["phase_median_ms"]["backward"].is_null());
    SweepResult r = test::sampleResult();
    r.points[0].iteration.cv = std::numeric_limits<double>::infinity();
    const SweepResult back = resultFromJson(toJson(r), "r");
    EXPECT_TRUE(std::isnan(back.points[0].phaseMedianMs[1]));
    EXPECT_TRUE(std::isnan(back.points[0].iteration.cv));
}

TEST(ResultJson, APredictedPointIsWrittenWithStatusPredictedAndItsBandAndReadBack) {
    const Json doc = sampleDocument();
    const Json& p = doc["points"][5];
    EXPECT_EQ(p["status"], "predicted");
    EXPECT_EQ(p["iteration_ms"]["median"], 0.42);
    EXPECT_EQ(p["prediction"]["low_ms"], 0.35);
    EXPECT_TRUE(p["prediction"]["high_ms"].is_null());
    EXPECT_EQ(p["prediction"]["from"], "h100-quick-start.json");
    EXPECT_EQ(p["prediction"]["gpu"], "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(p["prediction"]["fitted_points"], 14);
    EXPECT_EQ(p["prediction"]["check"], "leave-one-out");
    EXPECT_TRUE(doc["points"][0]["prediction"].is_null()) << "measured points have no prediction record";
    const SweepResult back = resultFromJson(doc.dump(), "r");
    ASSERT_EQ(back.points.size(), 6u);
    EXPECT_TRUE(back.points[5].predicted());
    EXPECT_FALSE(back.points[5].ok()) << "a prediction is never a measurement";
    ASSERT_TRUE(back.points[5].prediction.has_value());
    EXPECT_TRUE(std::isnan(back.points[5].prediction->highMs));
    EXPECT_EQ(back.points[5], test::predictedSamplePoint());
}

// The header records whether Keras and PyTorch would run the sweep's model on cuDNN; the model
// here, a GRU with recurrent dropout, is off both fast paths.
TEST(ResultJson, RecordsTheFrameworkVerdictsOfTheModel) {
    SweepResult r = test::sampleResult();
    r.plan.config.recurrentDropout = 0.2;
    const Json doc = Json::parse(toJson(r));
    EXPECT_EQ(doc["keras_cudnn"],
              "no: recurrent_dropout=0.2 (Keras needs 0 for cuDNN and falls back to the generic kernel)");
    EXPECT_EQ(doc["pytorch_cudnn"],
              "no: recurrent_dropout=0.2 (nn.GRU has no recurrent dropout: its dropout acts between layers)");
    EXPECT_EQ(sampleDocument()["keras_cudnn"], "yes"); // the sample's default GRU
    EXPECT_EQ(sampleDocument()["pytorch_cudnn"], "yes");

    const SweepResult back = resultFromJson(doc.dump(), "r");
    ASSERT_TRUE(back.recordedFastPath.has_value());
    EXPECT_EQ(back.recordedFastPath->keras, doc["keras_cudnn"]);
    EXPECT_EQ(back.recordedFastPath->pytorch, doc["pytorch_cudnn"]);
    EXPECT_EQ(back, r);
}

// Files written before the verdicts existed have neither key: they load, and the verdicts are
// those of their model.
TEST(ResultJson, AFileWithoutTheVerdictsGetsThoseOfItsModel) {
    SweepResult r = test::sampleResult();
    r.plan.config.bias = false;
    Json doc = Json::parse(toJson(r));
    doc.erase("keras_cudnn");
    doc.erase("pytorch_cudnn");
    const SweepResult back = resultFromJson(doc.dump(), "old.json");
    EXPECT_FALSE(back.recordedFastPath.has_value());
    EXPECT_EQ(back.fastPath().keras,
              "no: bias=false (Keras needs use_bias=True for cuDNN and falls back to the generic kernel)");
    EXPECT_EQ(back.fastPath().pytorch, "yes");
    EXPECT_EQ(back, r);
    EXPECT_EQ(Json::parse(toJson(back))["keras_cudnn"], back.fastPath().keras); // saved again: written
}

// A recorded verdict is what the file says, even where this build would word it differently; a
// missing one of the two is that of the model.
TEST(ResultJson, RecordedVerdictsAreReadAsWritten) {
    Json doc = sampleDocument();
    doc["keras_cudnn"] = "no: an older wording";
    doc.erase("pytorch_cudnn");
    const SweepResult back = resultFromJson(doc.dump(), "r");
    EXPECT_EQ(back.fastPath().keras, "no: an older wording");
    EXPECT_EQ(back.fastPath().pytorch, "yes");
    EXPECT_NE(back, test::sampleResult());
    EXPECT_EQ(resultFromJson(toJson(back), "r"), back);
}

TEST(ResultJson, VerdictsOfTheWrongTypeNameTheirKey) {
    Json doc = sampleDocument();
    doc["keras_cudnn"] = true;
    EXPECT_THAT(loadError(doc.dump()), HasSubstr("keras_cudnn: expected a string, got boolean"));
}

TEST(ResultJson, TheLabelIsNotSaved) {
    SweepResult r = test::sampleResult();
    r.label = "laptop";
    EXPECT_EQ(toJson(r).find("laptop"), std::string::npos);
}

TEST(ResultJson, SavesAtomicallyAndLoadsWithALabel) {
    test::TempDir dir;
    const std::string path = dir.file("results.json");
    saveResultJson(path, test::sampleResult());
    const SweepResult back = loadResultFile(path);
    EXPECT_EQ(back, test::sampleResult());
    EXPECT_EQ(back.label, "results.json (bench-01)");
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 1) << "no temporary left";
}

TEST(ResultJson, UnwritableOrMissingPathsAreIoErrors) {
    try {
        saveResultJson("/nonexistent-dir/results.json", test::sampleResult());
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Io);
        EXPECT_THAT(e.what(), HasSubstr("/nonexistent-dir/results.json"));
    }
    try {
        (void)loadResultFile("/nonexistent-dir/results.json");
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Io);
    }
}

TEST(ResultJson, NewerSchemaIsRefusedWithBothVersions) {
    Json doc = sampleDocument();
    doc["schema_version"] = 7;
    doc["points"][0]["something_new"] = {1, 2};
    EXPECT_EQ(loadError(doc.dump()),
              "results.json was written by a newer rnnprof (schema 7, this build reads up to 1)");
}

TEST(ResultJson, MalformedJsonSaysSo) {
    EXPECT_THAT(loadError("{\"schema_version\": 1,,}"), HasSubstr("results.json: not valid JSON"));
    EXPECT_THAT(loadError(""), HasSubstr("not valid JSON"));
    EXPECT_THAT(loadError("[]"), HasSubstr("expected an object, got array"));
}

TEST(ResultJson, WrongTypesNameTheKeyPath) {
    Json doc = sampleDocument();
    doc["points"][2]["batch"] = "64";
    doc["host"]["cpu_cores"] = -2.5;
    doc["points"][1]["gpu"]["kernels"][1]["count"] = "many";
    const std::string message = loadError(doc.dump());
    EXPECT_THAT(message, HasSubstr("points[2].batch: expected an integer, got string"));
    EXPECT_THAT(message, HasSubstr("host.cpu_cores: expected an integer, got number"));
    EXPECT_THAT(message, HasSubstr("points[1].gpu.kernels[1].count: expected an integer, got string"));
}

TEST(ResultJson, MissingRequiredKeysNameTheKeyPath) {
    Json doc = sampleDocument();
    doc["points"][3].erase("status");
    doc.erase("host");
    const std::string message = loadError(doc.dump());
    EXPECT_THAT(message, HasSubstr("points[3].status: missing required key"));
    EXPECT_THAT(message, HasSubstr("host: missing required key"));
    Json noPoints = sampleDocument();
    noPoints.erase("points");
    EXPECT_THAT(loadError(noPoints.dump()), HasSubstr("points: missing required key"));
    Json noSchema = sampleDocument();
    noSchema.erase("schema_version");
    EXPECT_THAT(loadError(noSchema.dump()), HasSubstr("schema_version: missing required key"));
}

TEST(ResultJson, BadEnumsNameTheAllowedValues) {
    Json doc = sampleDocument();
    doc["points"][0]["status"] = "skipped";
    doc["points"][0]["steps"][0]["phase"] = "sideways";
    doc["plan"]["model"]["cell"] = "transformer";
    const std::string message = loadError(doc.dump());
    EXPECT_THAT(message, HasSubstr("points[0].status: 'skipped' is not one of ok, ineligible"));
    EXPECT_THAT(message, HasSubstr("points[0].steps[0].phase: 'sideways' is not one of forward"));
    EXPECT_THAT(message, HasSubstr("plan.model.cell: 'transformer'"));
}

TEST(ResultJson, OtherFormatsAreRefused) {
    Json doc = sampleDocument();
    doc["format"] = "chrome-trace";
    EXPECT_THAT(loadError(doc.dump()), HasSubstr("format: expected \"rnnprof-results\""));
    EXPECT_THAT(loadError(toChromeTrace(test::sampleResult())), HasSubstr("missing required key"));
}

TEST(ResultJson, EveryTruncationIsACleanError) {
    const std::string text = toJson(test::sampleResult());
    for (std::size_t cut = 0; cut + 2 < text.size(); cut += 37) {
        try {
            (void)resultFromJson(std::string_view(text).substr(0, cut), "cut.json");
            ADD_FAILURE() << "a file cut at byte " << cut << " loaded";
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
        }
    }
}

TEST(ResultJson, GpuLibraryBuffersAndTheNamedPartsOfMemoryAreWrittenUnderTheirNames) {
    const Json doc = sampleDocument();
    const Json& gpu = doc["points"][1]["gpu"];
    EXPECT_EQ(gpu["cudnn_workspace_bytes"], 8 << 20);
    EXPECT_EQ(gpu["cudnn_reserve_bytes"], 12 << 20);
    EXPECT_EQ(gpu["dropout_state_bytes"], 3 << 20);
    EXPECT_EQ(gpu["cublas_workspace_bytes"], 0);
    EXPECT_EQ(gpu["math_type"], "strict FP32 (CUDNN_FMA_MATH)");
    EXPECT_EQ(gpu["warnings"][0], "CUPTI API version 130000 (CUDA 13.0 GA) lacks the fixes of 13.0 Update 1");
    EXPECT_FALSE(gpu.contains("workspace_bytes")) << "the old key is no longer written";
    EXPECT_FALSE(gpu.contains("reserve_bytes"));
    const Json& detail = doc["points"][1]["memory_bytes"]["detail"];
    ASSERT_EQ(detail.size(), 4u);
    EXPECT_EQ(detail[0],
              Json({{"name", "cuDNN reserve space"}, {"category", "activations"}, {"bytes", 12 << 20}}));
    EXPECT_EQ(detail[3]["name"], "loss partial sums");
    EXPECT_EQ(doc["points"][0]["memory_bytes"]["detail"], Json::array());
}

// Files written before the library buffers were split had gpu.workspace_bytes (the point's whole
// workspace category) and gpu.reserve_bytes (its activations), both also in memory_bytes: they load,
// the keys are dropped, and the split fields stay 0 (not known for them).
TEST(ResultJson, OlderFilesWithWorkspaceAndReserveBytesLoad) {
    Json doc = sampleDocument();
    Json& gpu = doc["points"][1]["gpu"];
    for (const char* key : {"cudnn_workspace_bytes", "cudnn_reserve_bytes", "dropout_state_bytes",
                            "cublas_workspace_bytes", "warnings"})
        gpu.erase(key);
    gpu["workspace_bytes"] = 65536;
    gpu["reserve_bytes"] = 32768;
    doc["points"][1]["memory_bytes"].erase("detail");
    const SweepResult back = resultFromJson(doc.dump(), "old.json");
    ASSERT_TRUE(back.points[1].gpu.has_value());
    const GpuProfile& g = *back.points[1].gpu;
    EXPECT_EQ(g.cudnnWorkspaceBytes, 0u);
    EXPECT_EQ(g.cudnnReserveBytes, 0u);
    EXPECT_EQ(g.dropoutStateBytes, 0u);
    EXPECT_TRUE(g.warnings.empty());
    EXPECT_EQ(g.mathType, "strict FP32 (CUDNN_FMA_MATH)");
    EXPECT_TRUE(back.points[1].memory.detail.empty());
    EXPECT_EQ(back.points[1].memory.workspace, test::sampleResult().points[1].memory.workspace);
    const Json again = Json::parse(toJson(back));
    EXPECT_FALSE(again["points"][1]["gpu"].contains("workspace_bytes"));
    // Whatever an old value held, it is not a problem.
    gpu["workspace_bytes"] = nullptr;
    gpu["reserve_bytes"] = "n/a";
    EXPECT_NO_THROW((void)resultFromJson(doc.dump(), "old.json"));
}

TEST(ResultJson, UnknownKeysInRecordsAreIgnored) {
    Json doc = sampleDocument();
    doc["points"][0]["extra"] = "from a later build";
    doc["host"]["gpu"]["mig"] = false;
    EXPECT_EQ(resultFromJson(doc.dump(), "r"), test::sampleResult());
}

} // namespace
} // namespace rnnprof

namespace rnnprof {
namespace {

// The outline of a file (its header and how many points it holds) is the file as loaded, without
// its points, for a results file and for a journal (whose torn last line is no point).
TEST(ResultOutline, IsTheHeaderAndThePointCountOfAFileOrJournal) {
    test::TempDir dir;
    const SweepResult r = test::sampleResult();
    saveResultJson(dir.file("r.json"), r);
    const ResultOutline file = loadResultOutline(dir.file("r.json"));
    SweepResult header = loadResultFile(dir.file("r.json"));
    header.points.clear();
    EXPECT_EQ(file.header, header);
    EXPECT_EQ(file.points, r.points.size());

    {
        SweepResult journalHeader = r;
        journalHeader.points.clear();
        Journal journal(dir.file("r2.json.journal"), journalHeader);
        for (std::size_t i = 0; i < 3; ++i)
            journal.append(r.points[i]);
    }
    std::ofstream(dir.file("r2.json.journal"), std::ios::app) << R"({"backend": "cpu-bl)"; // torn
    const ResultOutline journal = loadResultOutline(dir.file("r2.json.journal"));
    EXPECT_EQ(journal.header.plan, r.plan);
    EXPECT_EQ(journal.points, 3u);
}

// A point the outline does not read cannot fail it: it is counted, not decoded.
TEST(ResultOutline, CountsPointsWithoutDecodingThem) {
    Json doc = Json::parse(toJson(test::sampleResult()));
    doc["points"][0]["iteration_ms"] = "not a number";
    test::TempDir dir;
    std::ofstream(dir.file("r.json")) << doc.dump();
    EXPECT_THROW((void)loadResultFile(dir.file("r.json")), Error);
    EXPECT_EQ(loadResultOutline(dir.file("r.json")).points, test::sampleResult().points.size());
}

// A file larger than one read of the loader (FileChars::kChunkBytes) loads point for point as the
// result that was saved: the parser reads it a chunk at a time, never as one text.
TEST(ResultJson, AFileOfManyReadChunksLoadsAsSaved) {
    SweepResult r = test::sampleResult();
    const std::vector<PointResult> sample = r.points;
    for (int copy = 1; toJson(r).size() < 2 * FileChars::kChunkBytes + 1000; ++copy)
        for (PointResult p : sample) {
            p.shape.batch += copy;
            r.points.push_back(std::move(p));
        }
    test::TempDir dir;
    saveResultJson(dir.file("r.json"), r);
    SweepResult loaded = loadResultFile(dir.file("r.json"));
    loaded.label.clear();
    EXPECT_EQ(loaded.points.size(), r.points.size());
    EXPECT_TRUE(loaded == r);
}

// Each point is handed over as it is read, in file order, and then left out of the document;
// "points" that is not an array hands over nothing and is reported.
TEST(ResultJson, PointsAreHandedOverOneAtATimeAndLeftOutOfTheDocument) {
    const Json doc = sampleDocument();
    std::vector<std::size_t> indices;
    std::vector<Json> seen;
    const jsonio::Json header =
        jsonio::parseEachPoint(doc.dump(), "r.json", [&](std::size_t i, const jsonio::Json& p) {
            indices.push_back(i);
            seen.push_back(Json::parse(p.dump()));
        });
    ASSERT_EQ(seen.size(), doc["points"].size());
    for (std::size_t i = 0; i < seen.size(); ++i) {
        EXPECT_EQ(indices[i], i);
        EXPECT_EQ(seen[i], doc["points"][i]);
    }
    EXPECT_TRUE(header.at("points").is_array());
    EXPECT_TRUE(header.at("points").empty());
    EXPECT_EQ(header.at("host"), jsonio::Json::parse(doc.at("host").dump()));

    Json notAnArray = doc;
    notAnArray["points"] = Json{{"a", Json::object()}, {"b", 1}};
    std::size_t handed = 0;
    (void)jsonio::parseEachPoint(notAnArray.dump(), "r.json",
                                 [&](std::size_t, const jsonio::Json&) { ++handed; });
    EXPECT_EQ(handed, 0u);
    EXPECT_THAT(loadError(notAnArray.dump()), HasSubstr("points: expected an array, got object"));
}

// What a loaded result holds stays in proportion to its file: every point (here with its steps,
// trace slices, kernels and notes) costs less heap than twice its bytes in the file.
TEST(ResultJson, ALoadedPointHoldsLessThanTwiceItsBytesInTheFile) {
    SweepResult r = test::sampleResult();
    const std::vector<PointResult> sample = r.points;
    for (int copy = 1; copy < 200; ++copy)
        for (PointResult p : sample) {
            p.shape.batch += copy;
            r.points.push_back(std::move(p));
        }
    test::TempDir dir;
    saveResultJson(dir.file("r.json"), r);
    const auto fileBytes = std::filesystem::file_size(dir.file("r.json"));
    const auto heap = [] {
        const struct mallinfo2 m = ::mallinfo2();
        return m.uordblks + m.hblkhd; // bytes in use, small blocks and mapped ones
    };
    const std::size_t before = heap();
    const SweepResult loaded = loadResultFile(dir.file("r.json"));
    const std::size_t held = heap() - before;
    EXPECT_EQ(loaded.points.size(), r.points.size());
    EXPECT_LT(double(held), 2.0 * double(fileBytes)) << held << " bytes held for a file of " << fileBytes;
}

// The file is written a point at a time, laid out exactly as nlohmann's dump of the whole document
// (indent 1) lays it out: readers and diffs see the format they always saw.
TEST(ResultJson, IsLaidOutAsTheWholeDocumentsDump) {
    SweepResult empty = test::sampleResult();
    empty.points.clear();
    for (const SweepResult& r : {test::sampleResult(), empty}) {
        const std::string text = toJson(r);
        const nlohmann::ordered_json doc = nlohmann::ordered_json::parse(text);
        EXPECT_EQ(text, doc.dump(1) + "\n");
    }
}

} // namespace
} // namespace rnnprof

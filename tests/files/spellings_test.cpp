// The spellings of enums in files: every value is written as its documented name and reads back,
// aliases are read but never written, and a bad spelling's message lists exactly the written ones.
#include "engine/error.h"
#include "profiling/files/presets.h"
#include "profiling/files/result_files.h"
#include "sample_results.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <functional>

namespace rnnprof {
namespace {

using ::testing::HasSubstr;
using Json = nlohmann::json;

std::string errorOf(const std::function<void()>& load) {
    try {
        load();
    } catch (const Error& e) {
        return e.what();
    }
    ADD_FAILURE() << "expected an error";
    return "";
}

std::string resultsError(const Json& doc) {
    return errorOf([&] { (void)resultFromJson(doc.dump(), "r.json"); });
}

std::string planError(const Json& doc) {
    return errorOf([&] { (void)planFromJson(doc.dump(), "p.json"); });
}

TEST(Spellings, EveryValueHasItsDocumentedName) {
    EXPECT_EQ(toString(CellType::Lstm), "lstm");
    EXPECT_EQ(toString(CellType::Gru), "gru");
    EXPECT_EQ(toString(Activation::Tanh), "tanh");
    EXPECT_EQ(toString(Activation::Relu), "relu");
    EXPECT_EQ(toString(RecurrentActivation::Sigmoid), "sigmoid");
    EXPECT_EQ(toString(RecurrentActivation::HardSigmoid), "hard_sigmoid");
    EXPECT_EQ(toString(Mode::Inference), "infer");
    EXPECT_EQ(toString(Mode::Training), "train");
    EXPECT_EQ(toString(GemmProvider::OneDnn), "onednn");
    EXPECT_EQ(toString(GemmProvider::OpenBlas), "openblas");
    for (GemmProvider g : {GemmProvider::OneDnn, GemmProvider::OpenBlas})
        EXPECT_EQ(parseGemm(toString(g)), g);
    EXPECT_EQ(parseGemm("OpenBLAS"), std::nullopt);
}

TEST(Spellings, AValueOutsideItsEnumHasNoName) {
    EXPECT_EQ(toString(static_cast<CellType>(7)), "");
    EXPECT_EQ(toString(static_cast<PointStatus>(-1)), "");
    EXPECT_EQ(toString(static_cast<GemmProvider>(2)), "");
}

TEST(Spellings, ModeAliasesAreReadButTheShortNameIsWritten) {
    Json doc = Json::parse(toJson(test::sampleResult()));
    doc["points"][0]["mode"] = "training";
    doc["plan"]["sweep"]["modes"] = {"inference", "train"};
    const SweepResult r = resultFromJson(doc.dump(), "r.json");
    EXPECT_EQ(r.points[0].mode, Mode::Training);
    EXPECT_EQ(r.plan.modes, (std::vector<Mode>{Mode::Inference, Mode::Training}));
    const Json again = Json::parse(toJson(r));
    EXPECT_EQ(again["points"][0]["mode"], "train");
    EXPECT_EQ(again["plan"]["sweep"]["modes"], Json({"infer", "train"}));
}

TEST(Spellings, ResultFileMessagesListEveryWrittenName) {
    Json doc = Json::parse(toJson(test::sampleResult()));
    doc["points"][0]["mode"] = "eval";
    doc["points"][1]["status"] = "skipped";
    doc["points"][1]["gpu"]["kernels"][0]["phase"] = "both";
    const std::string message = resultsError(doc);
    EXPECT_THAT(message, HasSubstr("points[0].mode: 'eval' is not one of infer, train;"));
    EXPECT_THAT(message, HasSubstr("points[1].status: 'skipped' is not one of ok, ineligible, unavailable, "
                                   "refused, failed, cancelled, predicted;"));
    EXPECT_THAT(message, HasSubstr("points[1].gpu.kernels[0].phase: 'both' is not one of forward, backward, "
                                   "update"));
}

TEST(Spellings, PlanMessagesListEveryWrittenName) {
    Json doc = Json::parse(planToJson(SweepPlan{}));
    doc["model"]["activation"] = "gelu";
    doc["model"]["recurrent_activation"] = "hard-sigmoid";
    doc["measure"]["gemm"] = "mkl";
    doc["sweep"]["modes"] = {"infer", "inference", "eval"};
    const std::string message = planError(doc);
    EXPECT_THAT(message, HasSubstr("model.activation: 'gelu' is not one of tanh, relu, leaky_relu;"));
    EXPECT_THAT(message, HasSubstr("model.recurrent_activation: 'hard-sigmoid' is not one of sigmoid, "
                                   "hard_sigmoid, hard_sigmoid_keras3;"));
    EXPECT_THAT(message, HasSubstr("measure.gemm: 'mkl' is not one of onednn, openblas"));
    EXPECT_THAT(message, HasSubstr("sweep.modes[2]: 'eval' is not one of infer, train;"));
}

} // namespace
} // namespace rnnprof

// Every size and count a user can enter has an upper bound (docs/reliability.md "Limits"): exactly at the
// bound it is accepted, one past it is refused with a message naming the field or flag, the
// allowed range and the value given. The bounds keep every buffer index inside 32-bit signed
// range and every memory estimate free of overflow.
#include "oversized_config.h"
#include "support/temp_dir.h"

#include "cli/eval_command.h"
#include "cli/sweep_options.h"
#include "engine/cpu/cpu_libraries.h"
#include "engine/error.h"
#include "engine/npy.h"
#include "profiling/files/presets.h"
#include "profiling/plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <climits>
#include <cstring>

namespace rnnprof {
namespace {

using test::oversizedModel;
using test::TempDir;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

std::vector<std::string> messagesFor(const std::vector<FieldIssue>& issues, const std::string& field) {
    std::vector<std::string> out;
    for (const auto& i : issues)
        if (i.field == field) out.push_back(i.message);
    return out;
}

RnnConfig small() {
    RnnConfig c;
    c.inputSize = 8;
    c.hiddenSize = 8;
    return c;
}

// ---- the model and the shape (engine/config.h Limits) ----

struct IntBound {
    const char* field;
    int RnnConfig::*member;
    int max;
};

class ModelSizeBound : public ::testing::TestWithParam<IntBound> {};

TEST_P(ModelSizeBound, IsAcceptedAtTheLimitAndRefusedOnePast) {
    const IntBound b = GetParam();
    RnnConfig c = small();
    c.*b.member = b.max;
    EXPECT_THAT(messagesFor(validate(c), b.field), IsEmpty());
    c.*b.member = b.max + 1;
    EXPECT_THAT(messagesFor(validate(c), b.field),
                Contains(std::string(b.field) + " must be between 1 and " + std::to_string(b.max) + " (got " +
                         std::to_string(b.max + 1) + ")"));
}

INSTANTIATE_TEST_SUITE_P(Limits, ModelSizeBound,
                         ::testing::Values(IntBound{"input_size", &RnnConfig::inputSize, 16384},
                                           IntBound{"hidden_size", &RnnConfig::hiddenSize, 8192},
                                           IntBound{"layers", &RnnConfig::layers, 16}),
                         [](const auto& info) { return std::string(info.param.field); });

TEST(Limits, TheDocumentedModelBoundsAreTheEnginesLimits) {
    EXPECT_EQ(Limits::maxInputSize, 16384);
    EXPECT_EQ(Limits::maxHiddenSize, 8192);
    EXPECT_EQ(Limits::maxLayers, 16);
    EXPECT_EQ(Limits::maxBatch, 65536);
    EXPECT_EQ(Limits::maxSeqLen, 65535);
    EXPECT_EQ(Limits::maxDropout, 0.95);
    EXPECT_EQ(Limits::maxBufferElements, std::int64_t(INT_MAX));
}

TEST(Limits, DropoutIsAProbabilityOfAtMost095) {
    RnnConfig c = small();
    c.dropout = c.recurrentDropout = 0.95;
    EXPECT_THAT(validate(c), IsEmpty());
    c.dropout = 0.9500001;
    EXPECT_THAT(messagesFor(validate(c), "dropout"),
                Contains("dropout must be a probability between 0 and 0.95 (got 0.95)"));
}

TEST(Limits, BatchAndSequenceLengthAreAcceptedAtTheLimitAndRefusedOnePast) {
    const RnnConfig c = small();
    EXPECT_THAT(validate(c, {65536, 1}), IsEmpty());
    EXPECT_THAT(messagesFor(validate(c, {65537, 1}), "batch"),
                Contains("batch must be between 1 and 65536 (got 65537)"));
    EXPECT_THAT(validate(c, {1, 65535}), IsEmpty());
    EXPECT_THAT(messagesFor(validate(c, {1, 65536}), "seq_len"),
                Contains("seq_len must be between 1 and 65535 (got 65536)"));
}

TEST(Limits, NoBufferHoldsMoreThan2To31Minus1Elements) {
    // Bidirectional LSTM of 16 units: the widest buffer has 256 elements per (step, sample).
    const RnnConfig c = oversizedModel();
    const Shape atLimit{65536, 127}, onePast{65536, 128};
    EXPECT_EQ(largestBufferElements(c, atLimit), std::int64_t(65536) * 127 * 256);
    EXPECT_THAT(validate(c, atLimit), IsEmpty());
    EXPECT_EQ(largestBufferElements(c, onePast), std::int64_t(1) << 31);
    EXPECT_THAT(messagesFor(validate(c, onePast), "batch"),
                Contains("batch x seq_len x width is too large: the largest buffer would hold 2147483648 "
                         "elements, at most 2147483647 are allowed (reduce batch, seq_len or hidden_size)"));
}

TEST(Limits, AllParametersOfAModelFitOneIndexableBuffer) {
    RnnConfig c;
    c.inputSize = 16384;
    c.hiddenSize = 8192;
    c.bidirectional = true;
    c.layers = 1;
    EXPECT_THAT(validate(c), IsEmpty()); // 1.6e9 parameters
    c.layers = 2;
    EXPECT_EQ(parameterCount(c), 3221487616);
    EXPECT_THAT(
        messagesFor(validate(c), "hidden_size"),
        Contains(HasSubstr("the model is too large: its parameters would hold 3221487616 elements, at "
                           "most 2147483647 are allowed")));
}

TEST(Limits, MemoryEstimatesAtTheLimitsDoNotOverflowAndGrowWithTheShape) {
    // The largest valid shape of the widest valid models: every estimate must be at least the
    // bytes of the parameters and grow with batch and sequence length (no wrap-around).
    RnnConfig wide;
    wide.inputSize = 16384;
    wide.hiddenSize = 8192;
    wide.bidirectional = true;
    for (const RnnConfig& c : {oversizedModel(), wide}) {
        for (const Backend* b : builtinBackends().all()) {
            if (b->isGpu()) continue;
            for (Mode mode : {Mode::Inference, Mode::Training}) {
                Problem p;
                p.config = c;
                p.mode = mode;
                p.shape = {1, 1};
                const std::uint64_t smallest = b->estimateMemory(p).total();
                p.shape = {65536, 1};
                while (!validate(c, p.shape).empty())
                    p.shape.batch /= 2;
                const std::uint64_t wider = b->estimateMemory(p).total();
                p.shape.seqLen = 2;
                if (!validate(c, p.shape).empty()) p.shape.batch /= 2;
                const std::uint64_t longer = b->estimateMemory(p).total();
                SCOPED_TRACE(std::string(b->id()) + " " + describe(c) + " " + std::string(toString(mode)));
                EXPECT_GE(smallest, std::uint64_t(parameterCount(c)) * sizeof(float));
                EXPECT_GT(wider, smallest);
                EXPECT_GT(longer, smallest);
                EXPECT_LT(wider, std::uint64_t(1) << 50) << "an estimate of over a PiB means an overflow";
            }
        }
    }
}

// ---- the sweep plan (profiling/plan.h validate) ----

SweepPlan smallPlan() {
    SweepPlan plan;
    plan.config = small();
    plan.batches = {1};
    plan.seqLens = {1};
    plan.backends = {"cpu-reference"};
    return plan;
}

std::vector<FieldIssue> issuesOf(const SweepPlan& plan) {
    return validate(plan, builtinBackends().ids());
}

TEST(Limits, MeasurementSettingsAreAcceptedAtTheLimitAndRefusedOnePast) {
    SweepPlan p = smallPlan();
    p.settings.warmup = 1000;
    p.settings.minRepeats = p.settings.maxRepeats = 100000;
    p.settings.timeBudgetMs = 3600000;
    p.settings.threads = availableCpuCores();
    p.settings.learningRate = 10;
    p.settings.noiseThreshold = 10;
    EXPECT_THAT(issuesOf(p), IsEmpty());

    p.settings.warmup = 1001;
    p.settings.minRepeats = p.settings.maxRepeats = 100001;
    p.settings.timeBudgetMs = 3600000.5;
    p.settings.threads = availableCpuCores() + 1;
    p.settings.learningRate = 10.000001;
    p.settings.noiseThreshold = 10.5;
    const auto issues = issuesOf(p);
    EXPECT_THAT(messagesFor(issues, "warmup"), Contains("warmup must be between 0 and 1000 (got 1001)"));
    EXPECT_THAT(messagesFor(issues, "min_repeats"),
                Contains("min_repeats must be between 1 and 100000 (got 100001)"));
    EXPECT_THAT(messagesFor(issues, "max_repeats"),
                Contains("max_repeats must be between 1 and 100000 (got 100001)"));
    EXPECT_THAT(messagesFor(issues, "time_budget_ms"),
                Contains("time_budget_ms must be between 0 and 3600000 (got 3600000.5)"));
    EXPECT_THAT(messagesFor(issues, "threads"),
                Contains(HasSubstr("threads must be between 0 and " + std::to_string(availableCpuCores()))));
    EXPECT_THAT(messagesFor(issues, "learning_rate"),
                Contains("learning_rate must be greater than 0 and at most 10 (got 10.000001)"));
    EXPECT_THAT(messagesFor(issues, "noise_threshold"),
                Contains("noise_threshold must be greater than 0 and at most 10 (got 10.5)"));
}

TEST(Limits, ASweepHasAtMost100000Points) {
    SweepPlan p = smallPlan();
    p.batches.clear();
    for (int b = 1; b <= 100; ++b)
        p.batches.push_back(b);
    p.seqLens.clear();
    for (int t = 1; t <= 1000; ++t)
        p.seqLens.push_back(t);
    EXPECT_THAT(issuesOf(p), IsEmpty()) << "100 x 1000 x 1 x 1 = 100000 points";
    p.seqLens.clear();
    for (int t = 1; t <= 9091; ++t)
        p.seqLens.push_back(t);
    p.batches.resize(11);
    EXPECT_THAT(
        messagesFor(issuesOf(p), "points"),
        Contains("the grid has 100001 points, at most 100000 are allowed (fewer batch sizes, sequence "
                 "lengths, backends, modes or cuDNN algorithms)"));
}

TEST(Limits, AConfigFileIsCheckedAgainstTheSameBoundsWithTheKeyPath) {
    EXPECT_NO_THROW((void)planFromJson(
        R"({"model": {"input_size": 16384, "hidden_size": 8192}, "sweep": {"batch": [1], "seq_len": [1]}})",
        "at.json"));
    for (const char* atLimit : {R"({"model": {"layers": 16}, "sweep": {"batch": [65536], "seq_len": [1]}})",
                                R"({"sweep": {"batch": [1], "seq_len": [65535]},
                                    "measure": {"warmup": 1000, "max_repeats": 100000, "time_budget_ms": 3600000}})"})
        EXPECT_NO_THROW((void)planFromJson(atLimit, "at.json")) << atLimit;
    try {
        (void)planFromJson(
            R"({"model": {"hidden_size": 8193, "layers": 2147483648}, "measure": {"warmup": 1001}})",
            "past.json");
        FAIL() << "a config past the limits was accepted";
    } catch (const Error& e) {
        EXPECT_THAT(e.what(),
                    HasSubstr("model.hidden_size: hidden_size must be between 1 and 8192 (got 8193)"));
        EXPECT_THAT(e.what(), HasSubstr("model.layers: integer 2147483648 is out of range"));
        EXPECT_THAT(e.what(), HasSubstr("measure.warmup: warmup must be between 0 and 1000 (got 1001)"));
    }
}

// ---- .npy files (engine/npy.h) ----

std::string npyHeaderOnly(const std::string& shape) {
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
    header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
    header.push_back('\n');
    std::string out("\x93NUMPY\x01\x00", 8);
    out.push_back(char(header.size() & 0xff));
    out.push_back(char(header.size() >> 8));
    return out + header;
}

std::string npyError(const std::string& bytes) {
    try {
        (void)parseNpy(bytes, "x.npy");
    } catch (const Error& e) {
        return e.what();
    }
    return "accepted";
}

TEST(Limits, NpyArraysHoldAtMost2To31ElementsCheckedBeforeReadingData) {
    // At the limit the header is accepted and the missing data is what is reported.
    EXPECT_THAT(npyError(npyHeaderOnly("(65536, 32768)")),
                HasSubstr("truncated: shape [65536, 32768] needs"));
    EXPECT_THAT(npyError(npyHeaderOnly("(2147483648,)")), HasSubstr("truncated"));
    EXPECT_THAT(npyError(npyHeaderOnly("(65536, 32769)")),
                HasSubstr("array is too large (more than 2^31 elements)"));
    EXPECT_THAT(npyError(npyHeaderOnly("(2147483649,)")), HasSubstr("array is too large"));
    EXPECT_THAT(npyError(npyHeaderOnly("(99999999999999999999,)")),
                HasSubstr("shape dimension is too large"));
}

TEST(Limits, NpyArraysHaveAtMost32Dimensions) {
    std::string ones32 = "(", ones33;
    for (int i = 0; i < 32; ++i)
        ones32 += "1, ";
    ones33 = ones32 + "1)";
    ones32 += ")";
    const std::string value("\0\0\x80\x3f", 4); // 1.0f
    const NpyArray arr = parseNpy(npyHeaderOnly(ones32) + value, "x.npy");
    EXPECT_EQ(arr.shape.size(), 32u);
    EXPECT_THAT(npyError(npyHeaderOnly(ones33) + value), HasSubstr("shape has more than 32 dimensions"));
}

// ---- command-line lists and flags (gui/commands) ----

TEST(Limits, BatchAndSequenceListsAreBoundedLikeTheShape) {
    std::vector<std::string> problems;
    EXPECT_EQ(cli::parseIntList("--batch", "65536", Limits::maxBatch, problems), std::vector<int>{65536});
    EXPECT_EQ(cli::parseIntList("--batch", "1..65536", Limits::maxBatch, problems).size(), 17u);
    EXPECT_EQ(cli::parseIntList("--seq-len", "65535", Limits::maxSeqLen, problems), std::vector<int>{65535});
    EXPECT_THAT(problems, IsEmpty());
    (void)cli::parseIntList("--batch", "65537", Limits::maxBatch, problems);
    (void)cli::parseIntList("--seq-len", "65536", Limits::maxSeqLen, problems);
    (void)cli::parseIntList("--batch", "1..65537", Limits::maxBatch, problems);
    (void)cli::parseIntList("--batch", "99999999999999999999", Limits::maxBatch, problems);
    EXPECT_THAT(problems, Contains("--batch: 65537 is out of range (1..65536)"));
    EXPECT_THAT(problems, Contains("--seq-len: 65536 is out of range (1..65535)"));
    EXPECT_THAT(problems, Contains(HasSubstr(
                              "--batch: '1..65537' is not a range: write FROM-TO (every value) or FROM..TO "
                              "(powers of two), with 1 <= FROM <= TO <= 65536")));
    EXPECT_THAT(problems, Contains(HasSubstr("'99999999999999999999' is not a whole number")));
}

std::vector<std::string> sweepProblems(const std::vector<std::string>& flags) {
    TempDir dir;
    QStringList args{QStringLiteral("rnnprof sweep"), QStringLiteral("--backend"),
                     QStringLiteral("cpu-reference"), QStringLiteral("--out"),
                     QString::fromStdString(dir.path("r.json"))};
    for (const auto& f : flags)
        args << QString::fromStdString(f);
    std::vector<std::string> problems;
    (void)cli::parseSweepArguments(args, problems);
    return problems;
}

TEST(Limits, SweepFlagsAreAcceptedAtTheLimitAndRefusedOnePast) {
    const std::string cores = std::to_string(availableCpuCores());
    EXPECT_THAT(sweepProblems({"--warmup", "1000", "--repeats", "100000", "--time-budget", "3600000",
                               "--threads", cores, "--learning-rate", "10", "--batch", "1", "--seq-len", "1",
                               "--hidden-size", "8192", "--input-size", "16384"}),
                IsEmpty());
    EXPECT_THAT(sweepProblems({"--batch", "65536", "--seq-len", "1", "--layers", "16"}), IsEmpty());
    EXPECT_THAT(sweepProblems({"--batch", "1", "--seq-len", "65535"}), IsEmpty());
    const auto problems =
        sweepProblems({"--warmup", "1001", "--repeats", "100001", "--time-budget", "3600001", "--threads",
                       std::to_string(availableCpuCores() + 1), "--learning-rate", "10.5", "--hidden-size",
                       "8193", "--layers", "17"});
    EXPECT_THAT(problems, Contains("--warmup must be a whole number from 0 to 1000 (got 1001)"));
    EXPECT_THAT(problems, Contains("--repeats must be a whole number from 1 to 100000 (got 100001)"));
    EXPECT_THAT(problems, Contains("--time-budget must be a number from 0 to 3600000 (got 3600001)"));
    EXPECT_THAT(problems, Contains("--threads must be a whole number from 0 to " + cores + " (got " +
                                   std::to_string(availableCpuCores() + 1) + ")"));
    EXPECT_THAT(problems, Contains("--learning-rate must be a number from 1e-12 to 10 (got 10.5)"));
    EXPECT_THAT(problems, Contains("--hidden-size must be between 1 and 8192 (got 8193)"));
    EXPECT_THAT(problems, Contains("--layers must be between 1 and 16 (got 17)"));
    // Each problem once: the plan's own check of the model must not repeat what the flag said.
    EXPECT_EQ(problems.size(), 7u) << ::testing::PrintToString(problems);
}

// `rnnprof eval` takes batch and sequence length from the --input file: the same bounds apply.
class EvalInputShape : public ::testing::Test {
protected:
    void SetUp() override {
        m_request.config.cell = CellType::Gru;
        m_request.config.inputSize = 1;
        m_request.config.hiddenSize = 1;
        m_request.config.layers = 1;
        m_request.weightsDir = m_dir.path();
        const ParamLayout layout(m_request.config);
        for (const ParamSpec& spec : layout.specs())
            writeNpy(m_dir.path(spec.name + ".npy"), Tensor<float>(spec.shape(), 0.5f));
        m_request.input = m_dir.path("x.npy");
        m_request.outDir = m_dir.path("out");
    }
    std::string outcome(std::int64_t seqLen, std::int64_t batch) {
        writeNpy(m_request.input, Tensor<float>({seqLen, batch, 1}, 0.25f));
        try {
            const auto files = cli::evaluate(m_request);
            return files.front().name + " " + shapeToString(files.front().tensor.shape);
        } catch (const Error& e) {
            return e.what();
        }
    }
    TempDir m_dir;
    cli::EvalRequest m_request;
};

TEST_F(EvalInputShape, BatchIsAcceptedAtTheLimitAndRefusedOnePast) {
    EXPECT_EQ(outcome(1, 65536), "output.npy [1, 65536, 1]");
    EXPECT_THAT(outcome(1, 65537),
                HasSubstr("of shape [1, 65537, 1]: batch must be between 1 and 65536 (got 65537)"));
}

TEST_F(EvalInputShape, SequenceLengthIsAcceptedAtTheLimitAndRefusedOnePast) {
    EXPECT_EQ(outcome(65535, 1), "output.npy [65535, 1, 1]");
    EXPECT_THAT(outcome(65536, 1),
                HasSubstr("of shape [65536, 1, 1]: seq_len must be between 1 and 65535 (got 65536)"));
}

} // namespace
} // namespace rnnprof

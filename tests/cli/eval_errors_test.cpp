// `rnnprof eval` error exits: every problem ends the run with a non-zero status (2 for the command
// line, 1 for files and backends), exactly one line "rnnprof eval: <message>" on stderr naming the
// problem, nothing on stdout, and no file left in the output folder.
#include "cli/cli_process.h"
#include "engine/npy.h"
#include "support/pytorch_fixture.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace rnnprof {
namespace {

namespace fs = std::filesystem;
using test::Args;
using test::filesIn;
using test::ProcessResult;
using test::runEval;
using test::TempDir;
using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr int kUsage = 2;
constexpr int kFailure = 1;

// A writable copy of a golden case's weights and inputs (so tests can break single files).
class CaseCopy {
public:
    explicit CaseCopy(const std::string& name) : m_case(test::loadPytorchCase(name)) {
        for (const auto& e : fs::directory_iterator(m_case.dir))
            if (e.is_regular_file()) fs::copy_file(e.path(), m_dir.path(e.path().filename().string()));
    }
    [[nodiscard]] std::string file(const std::string& name) const { return m_dir.path(name); }
    [[nodiscard]] std::string out() const { return m_dir.path("out"); }
    [[nodiscard]] const RnnConfig& config() const { return m_case.config; }

    // Model flags, --weights, --input, --h0, --c0 and --out, then `extra`.
    [[nodiscard]] Args args(const Args& extra = {}) const {
        const RnnConfig& c = m_case.config;
        Args a{"--cell",        std::string(toString(c.cell)),
               "--input-size",  std::to_string(c.inputSize),
               "--hidden-size", std::to_string(c.hiddenSize),
               "--layers",      std::to_string(c.layers),
               "--weights",     m_dir.path(),
               "--input",       file("x.npy"),
               "--h0",          file("h0.npy"),
               "--out",         out()};
        if (c.bidirectional) a.push_back("--bidirectional");
        if (!c.bias) a.push_back("--no-bias");
        if (c.cell == CellType::Lstm) a.insert(a.end(), {"--c0", file("c0.npy")});
        a.insert(a.end(), extra.begin(), extra.end());
        return a;
    }

private:
    test::PytorchCase m_case;
    TempDir m_dir;
};

// Replaces the value of `flag` in `args`, or appends the flag with `value`.
Args with(Args args, const std::string& flag, const std::string& value) {
    for (std::size_t i = 0; i + 1 < args.size(); ++i)
        if (args[i] == flag) {
            args[i + 1] = value;
            return args;
        }
    args.insert(args.end(), {flag, value});
    return args;
}

void write(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

// The common shape of every failure.
void expectRefused(const ProcessResult& run, int status, const std::string& outDir,
                   const std::vector<std::string>& mentions) {
    EXPECT_EQ(run.status, status) << run.err;
    EXPECT_THAT(run.err, StartsWith("rnnprof eval: "));
    ASSERT_FALSE(run.err.empty());
    EXPECT_EQ(run.err.back(), '\n');
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << "not one line: " << run.err;
    EXPECT_EQ(run.out, "");
    for (const auto& m : mentions)
        EXPECT_THAT(run.err, HasSubstr(m));
    EXPECT_TRUE(filesIn(outDir).empty()) << "files left in " << outDir;
}

TEST(EvalErrors, ValidRunSucceedsOnTheCopy) {
    // Guards the tests below: each breaks exactly one thing of a run that works.
    CaseCopy c("lstm_2l_bi");
    const ProcessResult run = runEval(c.args({"--grad-output", c.file("dy.npy")}));
    EXPECT_EQ(run.status, 0) << run.err;
    EXPECT_FALSE(filesIn(c.out()).empty());
}

TEST(EvalErrors, MissingWeightFile) {
    CaseCopy c("lstm_2l_bi");
    fs::remove(c.file("weight_hh_l1_reverse.npy"));
    expectRefused(runEval(c.args()), kFailure, c.out(),
                  {"missing weight file", "weight_hh_l1_reverse.npy", "[24, 6]"});
}

TEST(EvalErrors, WrongWeightShape) {
    CaseCopy c("lstm_2l_bi");
    writeNpy(c.file("weight_ih_l1.npy"), Tensor<float>({24, 6}));
    expectRefused(runEval(c.args()), kFailure, c.out(),
                  {"weight_ih_l1.npy", "expected shape [24, 12], found [24, 6]"});
}

TEST(EvalErrors, MalformedInputFile) {
    CaseCopy c("gru_1l_uni");
    write(c.file("x.npy"), "this is not an array");
    expectRefused(runEval(c.args()), kFailure, c.out(), {"--input", c.file("x.npy"), "not a .npy file"});
}

TEST(EvalErrors, TruncatedWeightFile) {
    CaseCopy c("gru_1l_uni");
    const std::string bytes = test::slurp(c.file("bias_hh_l0.npy"));
    write(c.file("bias_hh_l0.npy"), bytes.substr(0, bytes.size() - 5));
    expectRefused(runEval(c.args()), kFailure, c.out(), {"bias_hh_l0.npy", "truncated"});
}

TEST(EvalErrors, UnsupportedDtypeInGradOutput) {
    CaseCopy c("gru_1l_uni");
    std::string bytes = test::slurp(c.file("dy.npy"));
    bytes.replace(bytes.find("<f8"), 3, "<i8");
    write(c.file("dy.npy"), bytes);
    expectRefused(runEval(c.args({"--grad-output", c.file("dy.npy")})), kFailure, c.out(),
                  {"--grad-output", "unsupported dtype '<i8'"});
}

TEST(EvalErrors, StateOfTheWrongShape) {
    CaseCopy c("lstm_2l_bi");
    expectRefused(runEval(with(c.args(), "--c0", c.file("x.npy"))), kFailure, c.out(),
                  {"--c0", "expected shape [4, 3, 6], found [5, 3, 5]"});
}

TEST(EvalErrors, InputWiderThanInputSize) {
    CaseCopy c("lstm_2l_bi");
    expectRefused(runEval(with(c.args(), "--input-size", "4")), kFailure, c.out(),
                  {"--input", "expected shape [*, *, 4], found [5, 3, 5]"});
}

TEST(EvalErrors, WeightsOfALargerModelThanTheFlagsDescribe) {
    CaseCopy c("lstm_2l_bi");
    expectRefused(runEval(with(c.args(), "--layers", "1")), kFailure, c.out(),
                  {"bias_hh_l1.npy", "--layers"});
}

TEST(EvalErrors, LayersZero) {
    CaseCopy c("lstm_2l_bi");
    expectRefused(runEval(with(c.args(), "--layers", "0")), kUsage, c.out(),
                  {"--layers must be between 1 and 16 (got 0)"});
}

TEST(EvalErrors, UnknownCell) {
    CaseCopy c("lstm_2l_bi");
    expectRefused(runEval(with(c.args(), "--cell", "rnn")), kUsage, c.out(),
                  {"--cell must be lstm or gru (got 'rnn')"});
}

TEST(EvalErrors, EveryBadFlagIsReportedAtOnce) {
    const ProcessResult run = runEval({"--cell", "lstm", "--input-size", "abc", "--hidden-size", "0",
                                       "--activation", "sigmoid", "--input", "x.npy"});
    expectRefused(run, kUsage, "",
                  {"--input-size must be an integer between 1 and 16384 (got 'abc')",
                   "--hidden-size must be between 1 and 8192 (got 0)",
                   "--activation must be tanh, relu, leaky_relu or leaky_relu=SLOPE (0-1) (got 'sigmoid')",
                   "--layers is required", "--weights is required", "--out is required"});
}

TEST(EvalErrors, DropoutAndSeedAreRefused) {
    CaseCopy c("lstm_2l_bi");
    expectRefused(runEval(c.args({"--dropout", "0.2"})), kUsage, c.out(), {"--dropout is not accepted"});
    expectRefused(runEval(c.args({"--recurrent-dropout", "0.2"})), kUsage, c.out(),
                  {"--recurrent-dropout is not accepted"});
    expectRefused(runEval(c.args({"--seed", "4"})), kUsage, c.out(), {"--seed is not accepted"});
}

TEST(EvalErrors, LstmOnlyFlagsWithGru) {
    CaseCopy c("gru_1l_uni");
    expectRefused(runEval(c.args({"--c0", c.file("h0.npy")})), kUsage, c.out(),
                  {"--c0 applies to LSTM only"});
    expectRefused(runEval(c.args({"--grad-output", c.file("dy.npy"), "--grad-c-n", c.file("dh_n.npy")})),
                  kUsage, c.out(), {"--grad-c-n applies to LSTM only"});
}

TEST(EvalErrors, FinalStateGradientWithoutGradOutput) {
    CaseCopy c("gru_1l_uni");
    expectRefused(runEval(c.args({"--grad-h-n", c.file("dh_n.npy")})), kUsage, c.out(),
                  {"--grad-h-n needs --grad-output"});
}

TEST(EvalErrors, UnknownFlagAndStrayArgument) {
    CaseCopy c("gru_1l_uni");
    expectRefused(runEval(c.args({"--bogus"})), kUsage, c.out(), {"bogus"});
    expectRefused(runEval(c.args({"leftover"})), kUsage, c.out(), {"unexpected argument 'leftover'"});
}

TEST(EvalErrors, UnknownBackend) {
    CaseCopy c("gru_1l_uni");
    expectRefused(runEval(c.args({"--backend", "cpu-magic"})), kFailure, c.out(),
                  {"unknown backend 'cpu-magic'", "cpu-reference"});
}

TEST(EvalErrors, OutputFolderWhoseParentIsMissing) {
    CaseCopy c("gru_1l_uni");
    const std::string out = c.file("no/such/out");
    expectRefused(runEval(with(c.args(), "--out", out)), kFailure, out, {out, "parent folder"});
}

TEST(EvalErrors, OutputFolderThatIsAFile) {
    CaseCopy c("gru_1l_uni");
    expectRefused(runEval(with(c.args(), "--out", c.file("x.npy"))), kFailure, "",
                  {c.file("x.npy"), "not a folder"});
}

TEST(EvalErrors, OutputFolderThatCannotBeCreated) {
    // Even root cannot create folders in /proc.
    CaseCopy c("gru_1l_uni");
    expectRefused(runEval(with(c.args(), "--out", "/proc/rnnprof-eval-test")), kFailure,
                  "/proc/rnnprof-eval-test", {"cannot create folder /proc/rnnprof-eval-test"});
}

TEST(EvalErrors, AFailedWriteRemovesTheFilesAlreadyWritten) {
    // h_n.npy is a folder, so renaming the finished h_n.npy into place fails after output.npy was
    // renamed: that one must be removed again, and no temporary may remain.
    CaseCopy c("lstm_2l_bi");
    fs::create_directories(c.out() + "/h_n.npy");
    write(c.out() + "/keep.txt", "not ours");
    const ProcessResult run = runEval(c.args({"--grad-output", c.file("dy.npy")}));
    EXPECT_EQ(run.status, kFailure);
    EXPECT_THAT(run.err, StartsWith("rnnprof eval: cannot write " + c.out() + "/h_n.npy"));
    EXPECT_EQ(filesIn(c.out()), (std::set<std::string>{"h_n.npy", "keep.txt"}));
}

} // namespace
} // namespace rnnprof

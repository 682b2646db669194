// Messages that say the truth, as a table: a command line a user could type, and what rnnprof must
// answer (exit status and a part of the message). Flags that do not exist get the nearest one the
// command has; a flag with a value given twice is refused, naming it, instead of its last value
// winning without a word; files that are wrong, damaged or not files say so, and names are
// printed by their bytes.
#include "cli/cli_process.h"
#include "profiling/files/result_files.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace rnnprof {
namespace {

using test::Args;

struct MessageCase {
    const char* name;
    Args args;
    int status;
    const char* message;
};

// Where the file cases find their inputs: written once per test program, before the first case.
std::string fixture(const std::string& name) {
    static const std::string dir =
        testing::TempDir() + "rnnprof-messages-" + std::to_string(::getpid()) + "/";
    return dir + name;
}

// A sweep of 4 points that takes a second, writing `out` (a fixture name).
test::Args tinySweep(const std::string& out) {
    return {"--cell",  "lstm",  "--input-size", "3", "--hidden-size", "4",
            "--batch", "1,2",   "--seq-len",    "3", "--backend",     "cpu-reference",
            "--mode",  "both",  "--warmup",     "0", "--repeats",     "1",
            "--quiet", "--out", fixture(out)};
}

test::Args withCommand(const char* command, test::Args args) {
    args.insert(args.begin(), command);
    return args;
}

class Messages : public testing::TestWithParam<MessageCase> {
public:
    static void SetUpTestSuite() {
        std::filesystem::create_directories(fixture(""));
        std::ofstream(fixture("duplicate-key.json")) << R"({"model": {"cell": "lstm", "cell": "gru"}})";
        std::ofstream(fixture("points-object.json"))
            << R"({"format": "rnnprof-results", "points": {"a": 1}})";
        std::ofstream(fixture("not-json.json")) << "not json";
        std::filesystem::remove(fixture("fifo"));
        ::mkfifo(fixture("fifo").c_str(), 0600);
        writeDamagedJournal();
    }

    // The journal of a 4-point sweep (tinySweep) whose third line, its second point, was damaged on
    // disk: made by a real sweep, its points journalled again, one line overwritten.
    static void writeDamagedJournal() {
        std::filesystem::remove(fixture("damaged.json"));
        std::filesystem::remove(fixture("damaged.json.journal"));
        test::Args args{"sweep"};
        for (const std::string& a : tinySweep("made.json"))
            args.push_back(a);
        const test::ProcessResult made = test::runRnnprof(args);
        ASSERT_EQ(made.status, 0) << made.err;
        SweepResult result = loadResultFile(fixture("made.json"));
        const std::vector<PointResult> points = std::move(result.points);
        result.points.clear();
        result.complete = false;
        {
            Journal journal(fixture("damaged.json.journal"), result);
            for (const PointResult& p : points)
                journal.append(p);
        }
        std::string text = test::slurp(fixture("damaged.json.journal"));
        const auto third = text.find('\n', text.find('\n') + 1) + 1;
        text.replace(third, 10, "#damaged!#");
        std::ofstream(fixture("damaged.json.journal"), std::ios::binary | std::ios::trunc) << text;
    }
};

TEST_P(Messages, SayWhatWasWrongAndWhatIsAllowed) {
    const MessageCase& c = GetParam();
    test::forgetDisplay();
    const test::ProcessResult run = test::runRnnprof(c.args);
    EXPECT_EQ(run.status, c.status) << run.err;
    const auto at = run.err.find(c.message);
    ASSERT_NE(at, std::string::npos) << run.err;
    EXPECT_EQ(run.err.find(c.message, at + 1), std::string::npos) << "said once: " << run.err;
}

INSTANTIATE_TEST_SUITE_P(
    Flags, Messages,
    testing::Values(
        MessageCase{"PluralBackend",
                    {"sweep", "--backends", "cpu-blas"},
                    2,
                    "Unknown option 'backends'. Did you mean --backend?"},
        MessageCase{"PluralMode", {"sweep", "--modes", "infer"}, 2, "Did you mean --mode?"},
        MessageCase{
            "PluralCudnnAlgo", {"sweep", "--cudnn-algos", "standard"}, 2, "Did you mean --cudnn-algo?"},
        MessageCase{"PlotFormats", {"plot", "--formats", "png", "r.json"}, 2, "Did you mean --format?"},
        MessageCase{"EvalTypo", {"eval", "--inptu", "x.npy"}, 2, "Did you mean --input?"},
        MessageCase{"NothingNear", {"sweep", "--zzzz", "1"}, 2, "Unknown option 'zzzz'."},
        MessageCase{"BatchTwice",
                    {"sweep", "--batch", "1", "--batch", "2", "--out", "/tmp/never-written.json"},
                    2,
                    "--batch is given 2 times; give it once"},
        MessageCase{"HiddenSizeTwiceNamedOnce",
                    {"sweep", "--hidden-size", "8", "--hidden-size", "9", "--out", "/tmp/never-written.json"},
                    2,
                    "--hidden-size is given 2 times; give it once"},
        MessageCase{"PlotFormatTwice",
                    {"plot", "--format", "png", "--format", "svg", "--out", "/tmp/never-written", "r.json"},
                    2,
                    "--format is given 2 times; give it once"},
        MessageCase{"EvalInputIsADevice",
                    {"eval", "--cell", "lstm", "--input-size", "2", "--hidden-size", "3", "--layers", "1",
                     "--weights", "/tmp", "--input", "/dev/null", "--out", "/tmp/never-written"},
                    1,
                    "--input /dev/null is a character device: it needs a regular .npy file"},
        MessageCase{"EvalInputIsAFolder",
                    {"eval", "--cell", "lstm", "--input-size", "2", "--hidden-size", "3", "--layers", "1",
                     "--weights", "/tmp", "--input", "/tmp", "--out", "/tmp/never-written"},
                    1,
                    "--input /tmp is a directory: it needs a regular .npy file"}),
    [](const testing::TestParamInfo<MessageCase>& info) { return std::string(info.param.name); });

// Files: configuration and result files, inputs that are no file, a sweep that measures nothing.
INSTANTIATE_TEST_SUITE_P(
    Files, Messages,
    testing::Values(
        MessageCase{"ConfigKeyTwice",
                    {"sweep", "--config", fixture("duplicate-key.json"), "--out", fixture("never.json")},
                    2,
                    "model.cell is given twice in one object: a file must say each thing once"},
        MessageCase{"ResultPointsNotAnArray",
                    {"report", fixture("points-object.json"), "--out", fixture("never-report")},
                    1,
                    "points: expected an array, got object"},
        MessageCase{
            "ResultNotJson",
            {"merge", fixture("not-json.json"), fixture("points-object.json"), "--out", fixture("m.json")},
            2,
            "not-json.json: not valid JSON (parse error at line 1, column 2"},
        MessageCase{"PlotOfAFifo",
                    {"plot", fixture("fifo"), "--out", fixture("never-plot")},
                    1,
                    "fifo: it is a FIFO (named pipe), not a regular file"},
        // cuDNN runs no ReLU LSTM: ineligible with a GPU, unavailable without one.
        MessageCase{"NothingMeasured",
                    {"sweep",
                     "--cell",
                     "lstm",
                     "--input-size",
                     "8",
                     "--hidden-size",
                     "8",
                     "--layers",
                     "1",
                     "--activation",
                     "relu",
                     "--batch",
                     "1",
                     "--seq-len",
                     "2",
                     "--backend",
                     "gpu-cudnn",
                     "--mode",
                     "infer",
                     "--warmup",
                     "0",
                     "--repeats",
                     "1",
                     "--out",
                     fixture("nothing.json")},
                    1,
                    "nothing was measured: every point was unavailable, ineligible, too large or failed"},
        // A journal damaged in its middle (not torn by a kill) keeps its sound points on request.
        MessageCase{"DamagedJournalLine", withCommand("sweep", tinySweep("damaged.json")), 2,
                    "Give --resume --skip-damaged to keep its 3 sound points"},
        // A file name that is not UTF-8 is named by its bytes, not by U+FFFD.
        MessageCase{"MergeOfANonUtf8Name",
                    {"merge", fixture("r\xff.json"), "--out", fixture("m.json")},
                    2,
                    "r\xff.json"}),
    [](const testing::TestParamInfo<MessageCase>& info) { return std::string(info.param.name); });

} // namespace
} // namespace rnnprof

// The summary `rnnprof sweep` prints after the table: whether Keras and PyTorch would run the
// sweep's model on cuDNN, as the result records it.
#include "profiling/analysis/summary_text.h"

#include <gtest/gtest.h>

namespace rnnprof {
namespace {

bool endsWith(const std::string& text, const std::string& tail) {
    return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

TEST(SummaryText, EndsWithTheFrameworkVerdictsOfTheModel) {
    SweepResult r;
    r.complete = true;
    r.plan.config.layers = 2;
    r.plan.config.bidirectional = true;
    r.plan.config.activation = Activation::Relu;
    const std::string text = summaryTable(r);
    EXPECT_TRUE(endsWith(text,
                         "0 of 0 points measured\n"
                         "cuDNN in the frameworks, for this model (LSTM 128->256 x2 bi, relu/sigmoid):\n"
                         "  Keras: no: activation=relu (Keras needs tanh for cuDNN and falls back to "
                         "the generic kernel)\n"
                         "  PyTorch: no: activation=relu (nn.LSTM has no activation option: it always "
                         "uses tanh)\n"))
        << text;
}

TEST(SummaryText, ShowsRecordedVerdictsAsRecorded) {
    SweepResult r;
    r.recordedFastPath = FastPathTexts{"yes", "no: as an older file says"};
    const std::string text = summaryTable(r);
    EXPECT_TRUE(endsWith(text, "  Keras: yes\n  PyTorch: no: as an older file says\n")) << text;
}

// Backend ids, reasons, notes and verdicts may come from a file someone else wrote: the table shows
// their control characters escaped, so that no escape sequence reaches the terminal.
TEST(SummaryText, TextFromAFileReachesTheTerminalWithoutControlCharacters) {
    SweepResult r;
    r.recordedFastPath = FastPathTexts{"yes\x1b[2J", "no"};
    PointResult p;
    p.backend = "cpu-blas";
    p.status = PointStatus::Failed;
    p.reason = "crashed\x1b]0;pwned\x07 here\nand there";
    r.points.push_back(p);
    PointResult gpu = p;
    gpu.gpu.emplace();
    gpu.gpu->warnings.push_back("old CUPTI\x1b[31m");
    r.points.push_back(gpu);
    const std::string text = summaryTable(r);
    EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
    EXPECT_EQ(text.find('\x07'), std::string::npos) << text;
    EXPECT_NE(text.find("crashed\\x1b]0;pwned\\x07 here; and there"), std::string::npos) << text;
    EXPECT_NE(text.find("Keras: yes\\x1b[2J"), std::string::npos) << text;
    EXPECT_NE(text.find("warning: old CUPTI\\x1b[31m"), std::string::npos) << text;
}

} // namespace
} // namespace rnnprof

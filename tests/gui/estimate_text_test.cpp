// The pre-run estimate allows for what other processes take now, and says so.
#include "gui/sweep_progress.h"

#include <gtest/gtest.h>

namespace rnnprof::gui {
namespace {

TEST(EstimateText, AQuietMachineGetsThePlansTime) {
    EXPECT_EQ(
        estimateText(65.0),
        QStringLiteral("Run takes about %1 here (estimate from the plan's FLOPs)").arg(formatDuration(65.0)));
    EXPECT_EQ(estimateText(65.0, 1.0), estimateText(65.0));
}

TEST(EstimateText, ABusyMachineGetsTheLongerTimeAndWhy) {
    const QString text = estimateText(60.0, 2.0);
    EXPECT_TRUE(
        text.startsWith(QStringLiteral("Run takes about %1 here: the machine is busy, about 2.0x the %2")
                            .arg(formatDuration(120.0), formatDuration(60.0))))
        << text.toStdString();
}

} // namespace
} // namespace rnnprof::gui

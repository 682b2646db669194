// The first window fits the screen: bounded by the available area, never larger than designed.
#include "gui/window_geometry.h"

#include <gtest/gtest.h>

namespace rnnprof::gui {
namespace {

TEST(WindowGeometry, TheFirstWindowIsBoundedByTheScreensAvailableArea) {
    // A 1366x768 laptop with a 32-pixel panel: 1366x736 available.
    EXPECT_EQ(initialWindowSize(kPreferredWindowSize, QRect(0, 32, 1366, 736)), QSize(1366, 736));
    EXPECT_EQ(initialWindowSize(kPreferredWindowSize, QRect(0, 0, 2560, 1440)), QSize(1400, 900));
    EXPECT_EQ(initialWindowSize(kPreferredWindowSize, QRect(0, 0, 1920, 800)), QSize(1400, 800));
    EXPECT_EQ(initialWindowSize(kPreferredWindowSize, QRect()), kPreferredWindowSize) << "no screen known";
}

} // namespace
} // namespace rnnprof::gui

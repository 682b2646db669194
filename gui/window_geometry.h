#pragma once
// The size the main window opens at: the size it is designed for, bounded by the screen's
// available area (without panels and docks), so that on a 1366x768 laptop the status bar and the
// buttons at the right edge stay on screen.
#include <QRect>
#include <QSize>

namespace rnnprof::gui {

inline constexpr QSize kPreferredWindowSize{1400, 900};

[[nodiscard]] QSize initialWindowSize(QSize preferred, const QRect& available);

} // namespace rnnprof::gui

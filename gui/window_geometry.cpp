#include "gui/window_geometry.h"

namespace rnnprof::gui {

QSize initialWindowSize(QSize preferred, const QRect& available) {
    if (available.isEmpty()) return preferred; // no screen known (offscreen without one)
    return preferred.boundedTo(available.size());
}

} // namespace rnnprof::gui

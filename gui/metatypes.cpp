#include "gui/metatypes.h"

namespace rnnprof::gui {

void registerMetaTypes() {
    qRegisterMetaType<rnnprof::PointResult>("rnnprof::PointResult");
    qRegisterMetaType<rnnprof::SweepResult>("rnnprof::SweepResult");
    qRegisterMetaType<rnnprof::SweepProgress>("rnnprof::SweepProgress");
    qRegisterMetaType<rnnprof::SweepPlan>("rnnprof::SweepPlan");
    qRegisterMetaType<rnnprof::gui::PointRef>("rnnprof::gui::PointRef");
}

} // namespace rnnprof::gui

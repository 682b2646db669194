#pragma once
// The plain values that cross from the engine thread to the GUI thread in queued signals. Declared
// once here; registerMetaTypes() must run before the first sweep (the controller calls it).
#include "gui/models/chart_data.h"
#include "profiling/measure/runner.h"
#include "profiling/result.h"

#include <QMetaType>

Q_DECLARE_METATYPE(rnnprof::PointResult)
Q_DECLARE_METATYPE(rnnprof::SweepResult)
Q_DECLARE_METATYPE(rnnprof::SweepProgress)
Q_DECLARE_METATYPE(rnnprof::SweepPlan)

namespace rnnprof::gui {

void registerMetaTypes();

} // namespace rnnprof::gui

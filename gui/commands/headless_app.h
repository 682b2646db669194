#pragma once
// The application object of sub-commands that draw charts without a display (`rnnprof plot`,
// `rnnprof sweep --charts`, the no-display default run): a QApplication (QtCharts needs widgets) on
// the offscreen platform unless the user chose a platform with QT_QPA_PLATFORM. Create it instead
// of a QCoreApplication; `argc` must outlive it (Qt keeps a reference).
#include <QApplication>

#include <memory>

namespace rnnprof::cli {

[[nodiscard]] std::unique_ptr<QApplication> makeHeadlessApplication(int& argc, char** argv);

} // namespace rnnprof::cli

#pragma once
// The options of a main window under test: settings and autosave in a scratch folder (nothing of
// the user's is read or written), no dialogs.
#include "gui/main_window.h"

#include <QTemporaryDir>

namespace rnnprof::test {

[[nodiscard]] inline gui::MainWindowOptions scratchWindowOptions(const QTemporaryDir& dir) {
    gui::MainWindowOptions o;
    o.settingsPath = dir.filePath(QStringLiteral("settings.ini"));
    o.autosaveDir = dir.filePath(QStringLiteral("autosave"));
    o.interactive = false;
    return o;
}

} // namespace rnnprof::test

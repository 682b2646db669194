#pragma once
// Where sweeps run from the window are kept automatically: AppDataLocation/autosave/
// sweep-<UTC time>.json, written by the engine worker at the end, with its journal beside it from
// the first point on, so a crash or a closed window loses nothing. Old sweeps are pruned.
#include <QString>

namespace rnnprof::gui {

[[nodiscard]] QString defaultAutosaveDir();
// A fresh file name in `dir` (created when missing); empty when the folder cannot be created.
[[nodiscard]] QString newAutosavePath(const QString& dir);
// Keeps the newest `keep` results (and their journals) in `dir`.
void pruneAutosaves(const QString& dir, int keep = 30);

} // namespace rnnprof::gui

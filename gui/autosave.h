#pragma once
// Where sweeps run from the window are kept automatically: AppDataLocation/autosave/
// sweep-<UTC time>.json, written by the engine worker at the end, with its journal beside it from
// the first point on, so a crash or a closed window loses nothing. Old sweeps are pruned.
#include <QString>
#include <QStringList>

namespace rnnprof::gui {

[[nodiscard]] QString defaultAutosaveDir();
// A fresh file name in `dir` (created when missing); empty when the folder cannot be created.
[[nodiscard]] QString newAutosavePath(const QString& dir);
// The journals in `dir` that sweeps left without saving their results (killed, crashed) and that
// no running sweep holds, newest first: what the window offers to resume on start.
[[nodiscard]] QStringList leftoverJournals(const QString& dir);
// Keeps the newest `keep` results (and their journals) in `dir`.
void pruneAutosaves(const QString& dir, int keep = 30);

} // namespace rnnprof::gui

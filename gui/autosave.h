#pragma once
// Where sweeps run from the window are kept automatically: AppDataLocation/autosave/
// sweep-<UTC time>-<preset or model>.json, written by the engine worker at the end, with its journal beside
// it from the first point on, so a crash or a closed window loses nothing. Old sweeps are pruned.
#include "profiling/plan.h"

#include <QString>
#include <QStringList>

namespace rnnprof::gui {

[[nodiscard]] QString defaultAutosaveDir();
// A fresh file name in `dir` (created when missing) for a sweep of `plan`: the time, then its preset
// or its model ("sweep-20261128-155712-quick-start.json", "...-lstm-128-256.json"), so that Open
// Recent says what each file holds; empty when the folder cannot be created.
[[nodiscard]] QString newAutosavePath(const QString& dir, const SweepPlan& plan = {});
// The journals in `dir` that sweeps left without saving their results (killed, crashed) and that
// no running sweep holds, newest first: what the window offers to resume on start.
[[nodiscard]] QStringList leftoverJournals(const QString& dir);
// Keeps the newest `keep` results (and their journals) in `dir`.
void pruneAutosaves(const QString& dir, int keep = 30);

} // namespace rnnprof::gui

#pragma once
// The question the window asks on start about a journal that a killed or crashed sweep left
// behind: Resume (measure only its missing points), Discard (delete it) or Keep (leave it for
// File > Open). Only asks; MainWindow::offerLeftoverJournals() acts on the answer.
#include <QString>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace rnnprof::gui {

enum class LeftoverChoice { Resume, Discard, Keep };

// A modal box named "leftoverJournalBox" with buttons "resumeButton", "discardButton" and
// "keepButton"; closing it keeps the journal.
[[nodiscard]] LeftoverChoice askAboutLeftoverJournal(QWidget* parent, const QString& journal, int points,
                                                     int plannedPoints);

} // namespace rnnprof::gui

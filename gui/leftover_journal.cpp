#include "gui/leftover_journal.h"

#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>

namespace rnnprof::gui {

LeftoverChoice askAboutLeftoverJournal(QWidget* parent, const QString& journal, int points,
                                       int plannedPoints) {
    QMessageBox box(parent);
    box.setObjectName(QStringLiteral("leftoverJournalBox"));
    box.setIcon(QMessageBox::Question);
    box.setWindowTitle(QStringLiteral("An earlier sweep was interrupted"));
    box.setText(
        QStringLiteral("A sweep stopped before it saved its results: its journal holds %1 of %2 points.")
            .arg(points)
            .arg(plannedPoints));
    box.setInformativeText(
        QStringLiteral("Resume measures only the missing points with the same plan. Discard deletes the "
                       "journal. Keep leaves it in %1, to open with File > Open.")
            .arg(QFileInfo(journal).absolutePath()));
    box.setDetailedText(journal);
    QPushButton* resume = box.addButton(QStringLiteral("&Resume"), QMessageBox::AcceptRole);
    resume->setObjectName(QStringLiteral("resumeButton"));
    QPushButton* discard = box.addButton(QStringLiteral("&Discard"), QMessageBox::DestructiveRole);
    discard->setObjectName(QStringLiteral("discardButton"));
    QPushButton* keep = box.addButton(QStringLiteral("&Keep"), QMessageBox::RejectRole);
    keep->setObjectName(QStringLiteral("keepButton"));
    box.setDefaultButton(resume);
    box.setEscapeButton(keep);
    box.exec();
    if (box.clickedButton() == resume) return LeftoverChoice::Resume;
    if (box.clickedButton() == discard) return LeftoverChoice::Discard;
    return LeftoverChoice::Keep;
}

} // namespace rnnprof::gui

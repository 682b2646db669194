// An autosaved sweep's file name says what it holds, so that Open Recent tells them apart.
#include "gui/autosave.h"

#include <QTemporaryDir>

#include <gtest/gtest.h>

namespace rnnprof::gui {
namespace {

TEST(AutosaveName, NamesThePresetOrElseTheModel) {
    QTemporaryDir dir;
    SweepPlan plan;
    plan.preset = "quick-start";
    EXPECT_TRUE(newAutosavePath(dir.path(), plan).endsWith(QStringLiteral("-quick-start.json")));
    plan.preset.clear();
    plan.config.cell = CellType::Gru;
    plan.config.inputSize = 64;
    plan.config.hiddenSize = 512;
    const QString path = newAutosavePath(dir.path(), plan);
    EXPECT_TRUE(path.endsWith(QStringLiteral("-gru-64-512.json"))) << path.toStdString();
    EXPECT_TRUE(path.contains(QStringLiteral("/sweep-")))
        << "what the pruning and the leftover scan look for";
    plan.preset = "../../etc/x y";
    EXPECT_FALSE(newAutosavePath(dir.path(), plan).contains(QStringLiteral("../"))) << "one path component";
}

} // namespace
} // namespace rnnprof::gui

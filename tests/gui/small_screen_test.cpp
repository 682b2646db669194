// The main window on a laptop screen: with the configuration dock shown it asks for no
// more than 1024x640, and at 1366x768 or 1024x640 every configuration field can be scrolled to and
// the chart area keeps a usable size.
#include "gui/charts/chart_page.h"
#include "gui/charts/chart_view.h"
#include "gui/config/config_panel.h"
#include "gui/main_window.h"
#include "gui/window_options.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QScrollArea>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

namespace rnnprof::gui {
namespace {

class SmallScreenTest : public ::testing::Test {
protected:
    MainWindowOptions options() { return test::scratchWindowOptions(dir); }
    QTemporaryDir dir;
};

// The scroll area `w` lies in, or null.
QScrollArea* enclosingScrollArea(QWidget* w) {
    for (QWidget* p = w->parentWidget(); p; p = p->parentWidget())
        if (auto* area = qobject_cast<QScrollArea*>(p)) return area;
    return nullptr;
}

// Every input of the configuration panel a user edits.
QList<QWidget*> configFields(const ConfigPanel& panel) {
    QList<QWidget*> fields;
    for (QWidget* w : panel.findChildren<QWidget*>()) {
        const bool input =
            qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QComboBox*>(w) ||
            qobject_cast<QAbstractButton*>(w) ||
            (qobject_cast<QLineEdit*>(w) && !qobject_cast<QAbstractSpinBox*>(w->parentWidget()) &&
             !qobject_cast<QComboBox*>(w->parentWidget()));
        if (input && w->isVisibleTo(&const_cast<ConfigPanel&>(panel))) fields << w;
    }
    return fields;
}

TEST_F(SmallScreenTest, MinimumSizeWithTheDockShownFitsA1024x640Screen) {
    MainWindow w(options());
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    auto* dock = w.findChild<QDockWidget*>(QStringLiteral("configDock"));
    ASSERT_NE(dock, nullptr);
    ASSERT_TRUE(dock->isVisible());
    const QSize hint = w.minimumSizeHint();
    EXPECT_LE(hint.width(), 1024) << hint.width() << "x" << hint.height();
    EXPECT_LE(hint.height(), 640) << hint.width() << "x" << hint.height();
    EXPECT_LE(w.minimumSize().width(), 1024);
    EXPECT_LE(w.minimumSize().height(), 640);
}

TEST_F(SmallScreenTest, AtLaptopSizesEveryFieldIsReachableAndChartsKeepAUsableSize) {
    MainWindow w(options());
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    for (const QSize screen : {QSize(1366, 768), QSize(1024, 640)}) {
        SCOPED_TRACE(QStringLiteral("%1x%2").arg(screen.width()).arg(screen.height()).toStdString());
        w.resize(screen);
        QTest::qWait(20);
        EXPECT_EQ(w.size(), screen) << "the window refused the size";
        const QList<QWidget*> fields = configFields(*w.configPanel());
        ASSERT_GT(fields.size(), 5);
        for (QWidget* field : fields) {
            QScrollArea* area = enclosingScrollArea(field);
            ASSERT_NE(area, nullptr) << field->metaObject()->className() << " is outside a scroll area";
            area->ensureWidgetVisible(field, 0, 0);
            QTest::qWait(1);
            EXPECT_FALSE(field->visibleRegion().isEmpty())
                << field->metaObject()->className() << " " << field->objectName().toStdString()
                << " cannot be scrolled into view";
        }
        // Every tab's charts: wide and tall enough to read a curve (two side by side on the
        // breakdown, beside the dock at its preferred width).
        for (ChartPage* page : w.chartPages()) {
            w.chartTabs()->setCurrentWidget(page);
            QTest::qWait(1);
            for (const ChartView* view : page->views()) {
                EXPECT_GE(view->width(), 220) << page->spec().id.toStdString();
                EXPECT_GE(view->height(), 150) << page->spec().id.toStdString();
            }
        }
    }
}

} // namespace
} // namespace rnnprof::gui

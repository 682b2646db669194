// The results table for people: the columns that tell rows apart come first, numbers
// carry units, columns can be hidden, Tab leaves the table; the model keeps the CSV's exact text.
#include "gui/fake_results.h"
#include "gui/models/result_store.h"
#include "gui/results_columns.h"
#include "gui/results_model.h"
#include "gui/results_view.h"

#include <QAction>
#include <QApplication>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>
#include <QVBoxLayout>

#include <gtest/gtest.h>

#include <set>

namespace rnnprof::gui {
namespace {

TEST(ResultsColumns, AColumnConstantInEveryRowComesAfterTheVaryingOnes) {
    ResultStore store;
    ResultsModel model(store);
    ResultsView view(model);
    store.setResults({test::fakeSweep()});
    const QHeaderView* header = view.table()->horizontalHeader();
    // fakeSweep: one model (hidden_size is the same in every row), two backends, four batch sizes.
    const int hidden = header->visualIndex(model.columnOf(QStringLiteral("hidden_size")));
    const int batch = header->visualIndex(model.columnOf(QStringLiteral("batch")));
    const int backend = header->visualIndex(model.columnOf(QStringLiteral("backend")));
    const int median = header->visualIndex(model.columnOf(QStringLiteral("median_ms")));
    EXPECT_LT(backend, hidden);
    EXPECT_LT(batch, hidden);
    EXPECT_LT(median, hidden);
    EXPECT_LT(median, 6) << "median_ms was the 12th column";
    // Within each group the CSV's order is kept.
    EXPECT_LT(backend, batch);
    EXPECT_LT(batch, median);
    // The model's columns themselves are unchanged: copy and CSV export read them.
    EXPECT_EQ(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("backend"));
}

TEST(ResultsColumns, VaryingColumnsFirstIsStableWithinEachGroup) {
    ResultStore store;
    ResultsModel model(store);
    store.setResults({test::fakeSweep()});
    const std::vector<int> order = varyingColumnsFirst(model.columnsVary());
    ASSERT_EQ(order.size(), std::size_t(model.columnCount()));
    bool inConstant = false;
    for (std::size_t i = 0; i < order.size(); ++i) {
        std::set<QString> values;
        for (int r = 0; r < model.rowCount(); ++r)
            values.insert(model.index(r, order[i]).data(ResultsModel::SortRole).toString());
        if (values.size() < 2)
            inConstant = true;
        else
            EXPECT_FALSE(inConstant) << "varying column after a constant one: " << order[i];
    }
}

TEST(ResultsColumns, NumbersAreShownWithUnits) {
    EXPECT_EQ(formatResultCell(QStringLiteral("median_ms"), 0.35313399), QStringLiteral("353 µs"));
    EXPECT_EQ(formatResultCell(QStringLiteral("median_ms"), 12.3456), QStringLiteral("12.346 ms"));
    EXPECT_EQ(formatResultCell(QStringLiteral("workspace_bytes"), qulonglong(3u << 20)),
              QStringLiteral("3.0 MiB"));
    EXPECT_EQ(formatResultCell(QStringLiteral("sequences_per_s"), 1823.51), QStringLiteral("1824 seq/s"));
    EXPECT_EQ(formatResultCell(QStringLiteral("cv"), 0.0251), QStringLiteral("2.5 %"));
    EXPECT_EQ(formatResultCell(QStringLiteral("batch"), qlonglong(64)), QStringLiteral("64"));
    EXPECT_EQ(formatResultCell(QStringLiteral("backend"), QStringLiteral("cpu-blas")),
              QStringLiteral("cpu-blas"));

    ResultStore store;
    ResultsModel model(store);
    ResultsView view(model);
    SweepResult r = test::fakeSweep();
    r.points = {test::okPoint("slow-cpu", Mode::Inference, 1, 10, 0.35313399)};
    store.setResults({r});
    const int median = model.columnOf(QStringLiteral("median_ms"));
    auto* delegate = qobject_cast<ResultsCellDelegate*>(view.table()->itemDelegate());
    ASSERT_NE(delegate, nullptr);
    EXPECT_EQ(delegate->textFor(view.proxy()->index(0, median)), QStringLiteral("353 µs"));
    // The model keeps the CSV's text.
    EXPECT_EQ(model.index(0, median).data().toString(), QStringLiteral("0.35313399"));
}

TEST(ResultsColumns, TheColumnMenuHidesAndShowsColumns) {
    ResultStore store;
    ResultsModel model(store);
    ResultsView view(model);
    store.setResults({test::fakeSweep()});
    QMenu menu;
    fillColumnMenu(menu, *view.table());
    ASSERT_EQ(menu.actions().size(), model.columnCount());
    const int cell = model.columnOf(QStringLiteral("cell"));
    QAction* cellAction = nullptr;
    for (QAction* a : menu.actions())
        if (a->text() == QStringLiteral("cell")) cellAction = a;
    ASSERT_NE(cellAction, nullptr);
    EXPECT_TRUE(cellAction->isChecked());
    cellAction->setChecked(false);
    EXPECT_TRUE(view.table()->isColumnHidden(cell));
    cellAction->setChecked(true);
    EXPECT_FALSE(view.table()->isColumnHidden(cell));
}

TEST(ResultsColumns, TabMovesTheFocusOutOfTheTable) {
    ResultStore store;
    ResultsModel model(store);
    QWidget window;
    auto* layout = new QVBoxLayout(&window);
    auto* view = new ResultsView(model, &window);
    auto* after = new QLineEdit(&window);
    layout->addWidget(view);
    layout->addWidget(after);
    store.setResults({test::fakeSweep()});
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    QApplication::setActiveWindow(&window);
    view->selectPoint({0, 0});
    view->table()->setFocus();
    ASSERT_TRUE(view->table()->hasFocus());
    EXPECT_FALSE(view->table()->tabKeyNavigation());
    QTest::keyClick(view->table(), Qt::Key_Tab);
    EXPECT_FALSE(view->table()->hasFocus());
}

} // namespace
} // namespace rnnprof::gui

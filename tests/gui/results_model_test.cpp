// The results table: CSV columns and values, live appends, non-ok rows greyed with their reason,
// sorting by the cells' types, Ctrl+C as tab-separated text; the model passes QAbstractItemModelTester.
#include "gui/fake_results.h"
#include "gui/models/result_store.h"
#include "gui/results_model.h"
#include "gui/results_view.h"
#include "gui/table_copy.h"
#include "profiling/files/result_files.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QSet>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

namespace rnnprof::gui {
namespace {

using test::failedPoint;
using test::fakeSweep;
using test::okPoint;

QString cell(const QAbstractItemModel& m, int row, const QString& column) {
    for (int c = 0; c < m.columnCount(); ++c)
        if (m.headerData(c, Qt::Horizontal).toString() == column) return m.index(row, c).data().toString();
    return QStringLiteral("<no column %1>").arg(column);
}

TEST(ResultsModel, HasTheCsvColumnsAfterASourceColumn) {
    ResultStore store;
    ResultsModel model(store);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Warning);
    ASSERT_EQ(model.columnCount(), static_cast<int>(csvColumns().size()) + 1);
    EXPECT_EQ(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("source"));
    for (std::size_t i = 0; i < csvColumns().size(); ++i)
        EXPECT_EQ(model.headerData(int(i) + 1, Qt::Horizontal).toString(),
                  QString::fromStdString(csvColumns()[i]));
}

TEST(ResultsModel, ShowsExactlyTheCsvValues) {
    ResultStore store;
    ResultsModel model(store);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Warning);
    const SweepResult r = fakeSweep();
    store.setResults({r});
    ASSERT_EQ(model.rowCount(), static_cast<int>(r.points.size()));
    // Compare with the CSV file's rows, cell by cell.
    const std::string csv = toCsv(r);
    const QStringList lines = QString::fromStdString(csv).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), model.rowCount() + 1);
    for (int row = 0; row < model.rowCount(); ++row) {
        QStringList cells;
        for (int c = 1; c < model.columnCount(); ++c)
            cells << model.index(row, c).data().toString();
        EXPECT_EQ(cells.join(QLatin1Char(',')), lines.at(row + 1)) << "row " << row;
    }
}

TEST(ResultsModel, AppendsLivePointsAndGreysFailures) {
    ResultStore store;
    ResultsModel model(store);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Warning);
    SweepResult header = fakeSweep();
    header.points.clear();
    const int live = store.beginLive(header);
    store.appendPoint(live, okPoint("slow-cpu", Mode::Inference, 1, 10, 2.0));
    store.appendPoint(live, failedPoint("fast-gpu", Mode::Inference, 1, 10, PointStatus::Ineligible,
                                        "cuDNN LSTM requires activation=tanh; got relu"));
    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_EQ(cell(model, 1, QStringLiteral("status")), QStringLiteral("ineligible"));
    EXPECT_TRUE(
        model.index(1, 3).data(Qt::ToolTipRole).toString().contains(QStringLiteral("activation=tanh")));
    EXPECT_TRUE(model.index(1, 3).data(Qt::ForegroundRole).isValid());
    EXPECT_FALSE(model.index(0, 3).data(Qt::ForegroundRole).isValid());
    EXPECT_FALSE(model.index(1, 0).data(ResultsModel::OkRole).toBool());
    EXPECT_EQ(model.refAt(1), (PointRef{live, 1}));
    EXPECT_EQ(model.rowOf({live, 1}), 1);

    SweepResult final = store.results()[0];
    final.complete = true;
    store.finishLive(live, final);
    EXPECT_EQ(model.rowCount(), 2);
    store.clear();
    EXPECT_EQ(model.rowCount(), 0);
}

TEST(ResultsModel, OverlaidResultsKeepTheirRowsInOrder) {
    ResultStore store;
    ResultsModel model(store);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Warning);
    SweepResult a = fakeSweep("a"), b = fakeSweep("b");
    a.label = "a.json (a)";
    b.label = "b.json (b)";
    store.setResults({a, b});
    EXPECT_EQ(model.rowCount(), static_cast<int>(a.points.size() + b.points.size()));
    EXPECT_EQ(model.index(0, 0).data().toString(), QStringLiteral("a.json (a)"));
    EXPECT_EQ(model.index(model.rowCount() - 1, 0).data().toString(), QStringLiteral("b.json (b)"));
    store.appendPoint(0, okPoint("slow-cpu", Mode::Inference, 256, 10, 3.0));
    EXPECT_EQ(model.refAt(static_cast<int>(a.points.size())),
              (PointRef{0, static_cast<int>(a.points.size())}));
}

// Which columns hold two or more different values, checked against the cells themselves, as
// points arrive and when a result is replaced.
TEST(ResultsModel, KnowsWhichColumnsVaryAsPointsArrive) {
    ResultStore store;
    ResultsModel model(store);
    const auto varyingByCells = [&model] {
        std::vector<bool> varies;
        for (int c = 0; c < model.columnCount(); ++c) {
            QSet<QString> values;
            for (int r = 0; r < model.rowCount(); ++r)
                values.insert(model.index(r, c).data().toString());
            varies.push_back(values.size() > 1);
        }
        return varies;
    };
    SweepResult header = fakeSweep();
    header.points.clear();
    const int live = store.beginLive(header);
    store.appendPoint(live, okPoint("slow-cpu", Mode::Inference, 1, 10, 2.0));
    EXPECT_EQ(model.columnsVary(), std::vector<bool>(std::size_t(model.columnCount()), false));
    store.appendPoint(live, okPoint("slow-cpu", Mode::Inference, 4, 10, 2.0));
    EXPECT_TRUE(model.columnsVary()[std::size_t(model.columnOf(QStringLiteral("batch")))]);
    EXPECT_FALSE(model.columnsVary()[std::size_t(model.columnOf(QStringLiteral("backend")))]);
    EXPECT_EQ(model.columnsVary(), varyingByCells());
    store.setResults({fakeSweep()});
    EXPECT_EQ(model.columnsVary(), varyingByCells());
}

// A row that arrives while the table is sorted takes its place in the order.
TEST(ResultsView, ALivePointTakesItsPlaceInTheSortedTable) {
    ResultStore store;
    ResultsModel model(store);
    ResultsView view(model);
    SweepResult header = fakeSweep();
    header.points.clear();
    const int live = store.beginLive(header);
    store.appendPoint(live, okPoint("slow-cpu", Mode::Inference, 8, 10, 2.0));
    store.appendPoint(live, okPoint("slow-cpu", Mode::Inference, 2, 10, 2.0));
    const int batch = model.columnOf(QStringLiteral("batch"));
    view.table()->sortByColumn(batch, Qt::DescendingOrder);
    EXPECT_EQ(view.proxy()->index(0, batch).data().toString(), QStringLiteral("8"));
    store.appendPoint(live, okPoint("slow-cpu", Mode::Inference, 32, 10, 2.0));
    EXPECT_EQ(view.proxy()->index(0, batch).data().toString(), QStringLiteral("32"));
    EXPECT_EQ(view.proxy()->index(2, batch).data().toString(), QStringLiteral("2"));
}

TEST(ResultsView, SortsNumbersAsNumbers) {
    ResultStore store;
    ResultsModel model(store);
    ResultsView view(model);
    store.setResults({fakeSweep()});
    const int batch = model.columnOf(QStringLiteral("batch"));
    ASSERT_GT(batch, 0);
    view.table()->sortByColumn(batch, Qt::DescendingOrder);
    EXPECT_EQ(view.proxy()->index(0, batch).data().toString(), QStringLiteral("64"));
    view.table()->sortByColumn(batch, Qt::AscendingOrder);
    EXPECT_EQ(view.proxy()->index(0, batch).data().toString(), QStringLiteral("1"));
}

// Sorting reads the CSV cells' types: reals and counts compare as numbers (9.5 < 10 < 100, where
// text would put "10" first) and text compares as text, even when it looks like a number.
TEST(ResultsView, SortsTypedCellsNumbersAsNumbersAndTextAsText) {
    ResultStore store;
    ResultsModel model(store);
    ResultsView view(model);
    SweepResult r = fakeSweep();
    r.points = {okPoint("10", Mode::Inference, 1, 10, 10.0), okPoint("9", Mode::Inference, 1, 10, 100.0),
                okPoint("100", Mode::Inference, 1, 10, 9.5)};
    store.setResults({r});
    const int median = model.columnOf(QStringLiteral("median_ms"));
    const int backend = model.columnOf(QStringLiteral("backend"));
    auto column = [&](int c) {
        QStringList values;
        for (int row = 0; row < view.proxy()->rowCount(); ++row)
            values << view.proxy()->index(row, c).data().toString();
        return values;
    };
    view.table()->sortByColumn(median, Qt::AscendingOrder);
    EXPECT_EQ(column(median),
              (QStringList{QStringLiteral("9.5"), QStringLiteral("10"), QStringLiteral("100")}));
    view.table()->sortByColumn(backend, Qt::AscendingOrder);
    EXPECT_EQ(column(backend),
              (QStringList{QStringLiteral("10"), QStringLiteral("100"), QStringLiteral("9")}));
    EXPECT_EQ(model.index(0, median).data(ResultsModel::SortRole).typeId(), QMetaType::Double);
    EXPECT_EQ(model.index(0, model.columnOf(QStringLiteral("flops"))).data(ResultsModel::SortRole).typeId(),
              QMetaType::ULongLong);
    EXPECT_EQ(model.index(0, backend).data(ResultsModel::SortRole).typeId(), QMetaType::QString);
    EXPECT_EQ(model.index(0, median).data(Qt::TextAlignmentRole).toInt(),
              int(Qt::AlignRight | Qt::AlignVCenter));
    EXPECT_EQ(model.index(0, backend).data(Qt::TextAlignmentRole).toInt(),
              int(Qt::AlignLeft | Qt::AlignVCenter));
}

TEST(ResultsView, CopiesTheSelectionAsTabSeparatedTextWithAHeader) {
    ResultStore store;
    ResultsModel model(store);
    ResultsView view(model);
    store.setResults({fakeSweep()});
    view.selectPoint({0, 3});
    QTest::keySequence(view.table(), QKeySequence::Copy);
    const QString text = QApplication::clipboard()->text();
    const QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 2);
    EXPECT_TRUE(lines[0].startsWith(QStringLiteral("backend\tmode\t")));
    EXPECT_EQ(lines[1].split(QLatin1Char('\t')).size(), lines[0].split(QLatin1Char('\t')).size());
    EXPECT_TRUE(lines[1].startsWith(QStringLiteral("fast-gpu\t")));
}

TEST(TableCopy, CoversTheSelectedColumnsOnly) {
    ResultStore store;
    ResultsModel model(store);
    store.setResults({fakeSweep()});
    const QModelIndexList selection{model.index(0, 1), model.index(2, 1), model.index(2, 5)};
    const QString text = selectionAsTsv(model, selection);
    const QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 3);
    EXPECT_EQ(lines[0], QStringLiteral("backend\t") + model.headerData(5, Qt::Horizontal).toString());
    EXPECT_EQ(lines[1], QStringLiteral("slow-cpu\t"));
}

} // namespace
} // namespace rnnprof::gui

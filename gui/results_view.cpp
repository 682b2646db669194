#include "gui/results_view.h"

#include "gui/results_columns.h"
#include "gui/results_model.h"
#include "gui/table_copy.h"

#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace rnnprof::gui {

ResultsView::ResultsView(ResultsModel& model, QWidget* parent) : QWidget(parent), m_model(model) {
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(&model);
    m_proxy->setSortRole(ResultsModel::SortRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);

    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("resultsFilter"));
    m_filter->setPlaceholderText(QStringLiteral("Filter rows (any column, e.g. cpu-blas or ineligible)"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text);
        emit filterChanged();
    });

    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("resultsTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setSectionsMovable(true);
    m_table->horizontalHeader()->setDefaultSectionSize(96);
    m_table->sortByColumn(-1, Qt::AscendingOrder);
    m_table->installEventFilter(this);
    // Tab and Shift+Tab leave the table for the next widget, as everywhere else; arrows move inside.
    m_table->setTabKeyNavigation(false);
    m_table->setItemDelegate(new ResultsCellDelegate(m_table));
    QHeaderView* header = m_table->horizontalHeader();
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header, &QWidget::customContextMenuRequested, this, [this, header](const QPoint& at) {
        QMenu menu;
        fillColumnMenu(menu, *m_table);
        menu.exec(header->mapToGlobal(at));
    });
    // The columns that tell rows apart come first, until the user orders them by hand.
    connect(header, &QHeaderView::sectionMoved, this, [this] {
        if (!m_arranging) m_userOrdered = true;
    });
    connect(&model, &QAbstractItemModel::modelReset, this, &ResultsView::arrangeColumnsByVariation);
    connect(&model, &QAbstractItemModel::rowsInserted, this, &ResultsView::arrangeColumnsByVariation);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                const auto ref = current.data(ResultsModel::PointRefRole).value<PointRef>();
                if (ref.valid()) emit pointActivated(ref);
            });

    auto* columns = new QToolButton(this);
    columns->setObjectName(QStringLiteral("resultsColumns"));
    columns->setText(QStringLiteral("Columns"));
    columns->setToolTip(QStringLiteral("Show or hide columns (also from the header's context menu)"));
    columns->setPopupMode(QToolButton::InstantPopup);
    auto* columnMenu = new QMenu(columns);
    connect(columnMenu, &QMenu::aboutToShow, this,
            [this, columnMenu] { fillColumnMenu(*columnMenu, *m_table); });
    columns->setMenu(columnMenu);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_filter, 1);
    bar->addWidget(columns);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    layout->addWidget(m_table);
    setSourceColumnVisible(false); // shown once several results are overlaid
    arrangeColumnsByVariation();
}

void ResultsView::arrangeColumnsByVariation() {
    if (m_userOrdered) return;
    m_arranging = true;
    arrangeColumns(*m_table->horizontalHeader(), varyingColumnsFirst(m_model.columnsVary()));
    m_arranging = false;
}

ResultsView::~ResultsView() = default;

void ResultsView::selectPoint(const PointRef& ref) {
    const int row = m_model.rowOf(ref);
    if (row < 0) return;
    const QModelIndex index = m_proxy->mapFromSource(m_model.index(row, 0));
    if (!index.isValid()) return; // filtered out
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                          QItemSelectionModel::Rows);
    m_table->scrollTo(index);
}

void ResultsView::copySelection() const {
    QModelIndexList visible;
    for (const QModelIndex& index : m_table->selectionModel()->selectedIndexes())
        if (!m_table->isColumnHidden(index.column())) visible << index;
    const QString text = selectionAsTsv(*m_proxy, visible);
    if (!text.isEmpty()) QApplication::clipboard()->setText(text);
}

void ResultsView::setSourceColumnVisible(bool visible) {
    m_table->setColumnHidden(0, !visible);
}

bool ResultsView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_table && event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent*>(event)->matches(QKeySequence::Copy)) {
        copySelection();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

std::optional<std::vector<PointRef>> ResultsView::shownPoints() const {
    if (m_filter->text().isEmpty()) return std::nullopt;
    std::vector<PointRef> shown;
    for (int row = 0; row < m_proxy->rowCount(); ++row)
        shown.push_back(m_proxy->index(row, 0).data(ResultsModel::PointRefRole).value<PointRef>());
    return shown;
}

} // namespace rnnprof::gui

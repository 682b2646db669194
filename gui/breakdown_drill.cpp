#include "gui/breakdown_drill.h"

#include "gui/models/gpu_timeline.h"
#include "gui/models/kernel_table_model.h"
#include "gui/models/point_details.h"
#include "gui/timeline_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace rnnprof::gui {
namespace {

QScrollArea* scrolled(QWidget* content, QWidget* parent) {
    auto* scroll = new QScrollArea(parent);
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    return scroll;
}

const PointResult* pointAt(const std::vector<SweepResult>& results, const PointRef& ref) {
    if (ref.result < 0 || ref.result >= static_cast<int>(results.size())) return nullptr;
    const auto& points = results[std::size_t(ref.result)].points;
    if (ref.point < 0 || ref.point >= static_cast<int>(points.size())) return nullptr;
    return &points[std::size_t(ref.point)];
}

} // namespace

BreakdownDrill::BreakdownDrill(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("breakdownDrill"));
    m_busy = new QLabel(this);
    m_busy->setObjectName(QStringLiteral("gpuBusy"));
    QFont big = m_busy->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.25);
    m_busy->setFont(big);
    m_busy->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_busy->setContentsMargins(6, 2, 6, 2);
    m_busy->hide();

    m_details = new QLabel(this);
    m_details->setObjectName(QStringLiteral("pointDetails"));
    m_details->setWordWrap(true);
    m_details->setTextFormat(Qt::RichText);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_details->setMargin(6);

    m_kernels = new KernelTableModel(this);
    m_kernelProxy = new QSortFilterProxyModel(this);
    m_kernelProxy->setSourceModel(m_kernels);
    m_kernelProxy->setSortRole(KernelTableModel::SortRole);
    m_kernelTable = new QTableView(this);
    m_kernelTable->setObjectName(QStringLiteral("kernelTable"));
    m_kernelTable->setModel(m_kernelProxy);
    m_kernelTable->setSortingEnabled(true);
    m_kernelTable->sortByColumn(KernelTableModel::Total, Qt::DescendingOrder);
    m_kernelTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_kernelTable->setTextElideMode(Qt::ElideMiddle); // both ends of a kernel name say what it is
    m_kernelTable->setWordWrap(false);
    m_kernelTable->setTabKeyNavigation(false);
    m_kernelTable->verticalHeader()->hide();
    m_kernelTable->horizontalHeader()->setSectionResizeMode(KernelTableModel::Name, QHeaderView::Stretch);
    m_kernelTable->horizontalHeader()->setMinimumSectionSize(60);

    m_timeline = new TimelineView(this);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("drillTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(scrolled(m_details, m_tabs), QStringLiteral("Details"));
    m_kernelTab = m_tabs->addTab(m_kernelTable, QStringLiteral("GPU kernels"));
    m_timelineTab = m_tabs->addTab(scrolled(m_timeline, m_tabs), QStringLiteral("Timeline"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_busy);
    layout->addWidget(m_tabs, 1);
    setPoint({}, {});
}

void BreakdownDrill::setPoint(const std::vector<SweepResult>& results, const PointRef& ref) {
    m_details->setText(pointDetailsHtml(results, ref));
    const PointResult* p = pointAt(results, ref);
    const bool traced = p && p->gpu && p->gpu->traced;
    const QString busy = traced ? gpuBusyText(*p->gpu) : QString();
    m_busy->setText(busy);
    m_busy->setVisible(!busy.isEmpty());

    m_kernels->setKernels(traced ? p->gpu->kernels : std::vector<KernelStat>{});
    m_tabs->setTabEnabled(m_kernelTab, m_kernels->rowCount() > 0);
    m_tabs->setTabToolTip(m_kernelTab,
                          m_kernels->rowCount() > 0
                              ? QStringLiteral("The GPU kernels CUPTI traced, per iteration")
                              : QStringLiteral("Only GPU points traced with CUPTI have kernels"));
    m_timeline->setTrace(p ? p->trace : std::vector<TraceSlice>{});
    m_tabs->setTabEnabled(m_timelineTab, !m_timeline->lanes().empty());
    m_tabs->setTabToolTip(m_timelineTab, m_timeline->lanes().empty()
                                             ? QStringLiteral("This point recorded no traced iteration")
                                             : QStringLiteral("One traced iteration: host phases against "
                                                              "the kernels on each GPU stream"));
    if (!m_tabs->isTabEnabled(m_tabs->currentIndex())) m_tabs->setCurrentIndex(0);
}

} // namespace rnnprof::gui

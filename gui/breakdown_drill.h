#pragma once
// The lower half of the Breakdown tab: what one point did, drilled down. Above the tabs, the GPU's
// busy time against its iteration time as a sentence (a launch-bound GPU is idle most of the
// iteration); then the point's details, its GPU kernels as a sortable table and a time line of its
// traced iteration. Shows the point ChartPage hands it; computes nothing of its own.
#include "gui/models/chart_data.h"
#include "profiling/result.h"

#include <QWidget>

#include <vector>

QT_BEGIN_NAMESPACE
class QLabel;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
QT_END_NAMESPACE

namespace rnnprof::gui {

class KernelTableModel;
class TimelineView;

class BreakdownDrill : public QWidget {
    Q_OBJECT
public:
    explicit BreakdownDrill(QWidget* parent = nullptr);

    void setPoint(const std::vector<SweepResult>& results, const PointRef& ref);

    [[nodiscard]] QLabel* busyLabel() const { return m_busy; }
    [[nodiscard]] QLabel* details() const { return m_details; }
    [[nodiscard]] QTabWidget* tabs() const { return m_tabs; }
    [[nodiscard]] QTableView* kernelTable() const { return m_kernelTable; }
    [[nodiscard]] QSortFilterProxyModel* kernelProxy() const { return m_kernelProxy; }
    [[nodiscard]] KernelTableModel* kernelModel() const { return m_kernels; }
    [[nodiscard]] TimelineView* timeline() const { return m_timeline; }

private:
    QLabel* m_busy = nullptr;
    QLabel* m_details = nullptr;
    QTabWidget* m_tabs = nullptr;
    KernelTableModel* m_kernels = nullptr;
    QSortFilterProxyModel* m_kernelProxy = nullptr;
    QTableView* m_kernelTable = nullptr;
    TimelineView* m_timeline = nullptr;
    int m_kernelTab = -1;
    int m_timelineTab = -1;
};

} // namespace rnnprof::gui

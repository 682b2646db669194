// ChartView's context menu: what the right button offers on a chart. A menu, never a dialog: the
// file dialog opens only when Export... is chosen (the window answers exportRequested()).
#include "gui/charts/chart_view.h"

#include <QAction>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QGuiApplication>
#include <QMenu>

namespace rnnprof::gui {

std::unique_ptr<QMenu> ChartView::makeContextMenu() {
    auto menu = std::make_unique<QMenu>(this);
    menu->setObjectName(QStringLiteral("chartContextMenu"));
    connect(menu->addAction(QStringLiteral("Export…")), &QAction::triggered, this,
            &ChartView::exportRequested);
    connect(menu->addAction(QStringLiteral("Copy image")), &QAction::triggered, this,
            [this] { QGuiApplication::clipboard()->setImage(grab().toImage()); });
    const bool lines = m_data.kind == ChartData::Kind::Lines;
    QAction* reset = menu->addAction(QStringLiteral("Reset zoom"));
    reset->setEnabled(lines && isZoomed());
    connect(reset, &QAction::triggered, this, &ChartView::resetZoom);
    menu->addSeparator();
    QAction* logXAction = menu->addAction(QStringLiteral("Logarithmic x axis"));
    logXAction->setCheckable(true);
    logXAction->setChecked(logX());
    logXAction->setEnabled(lines);
    connect(logXAction, &QAction::toggled, this, [this](bool on) { setLogAxes(on, m_state.logY); });
    QAction* logYAction = menu->addAction(QStringLiteral("Logarithmic y axis"));
    logYAction->setCheckable(true);
    logYAction->setChecked(logY());
    logYAction->setEnabled(lines);
    connect(logYAction, &QAction::toggled, this, [this](bool on) { setLogAxes(m_state.logX, on); });
    QAction* bars = menu->addAction(QStringLiteral("Error bars (p10–p90)"));
    bars->setCheckable(true);
    bars->setChecked(m_state.errorBars);
    bars->setEnabled(lines);
    connect(bars, &QAction::toggled, this, &ChartView::setErrorBarsShown);
    return menu;
}

void ChartView::contextMenuEvent(QContextMenuEvent* event) {
    // popup(), not exec(): the event loop goes on, and the menu deletes itself when closed.
    QMenu* menu = makeContextMenu().release();
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(event->globalPos());
    event->accept();
}

} // namespace rnnprof::gui

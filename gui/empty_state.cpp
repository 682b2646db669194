#include "gui/empty_state.h"

#include "gui/models/result_store.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

namespace rnnprof::gui {

EmptyState::EmptyState(const ResultStore& store, QWidget* cover, QWidget* keepVisible,
                       const QList<QAction*>& actions)
    : QWidget(cover), m_store(store), m_keepVisible(keepVisible) {
    setObjectName(QStringLiteral("emptyState"));
    setAutoFillBackground(true);
    m_label = new QLabel(this);
    m_label->setObjectName(QStringLiteral("emptyStateText"));
    m_label->setAlignment(Qt::AlignCenter);
    m_label->setWordWrap(true);
    m_label->setTextFormat(Qt::RichText);
    m_label->setText(QStringLiteral(
        "<h3>No results yet</h3><p>Press <b>Run Sweep (F5)</b> to measure the sweep configured on the "
        "left, or open a results file (<b>File › Open Results…</b>, Ctrl+O).</p><p>Compare with Reference "
        "GPU shows where an NVIDIA H100 overtakes this machine's CPU.</p>"));
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    for (QAction* action : actions) {
        auto* button = new QToolButton(this);
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        buttons->addWidget(button);
    }
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addStretch(1);
    layout->addWidget(m_label);
    layout->addLayout(buttons);
    layout->addStretch(2);
    cover->installEventFilter(this);
    connect(&store, &ResultStore::resultsReset, this, &EmptyState::follow);
    follow();
}

QString EmptyState::text() const {
    return m_label->text();
}

bool EmptyState::eventFilter(QObject* watched, QEvent* event) {
    if (watched == parent() && (event->type() == QEvent::Resize || event->type() == QEvent::LayoutRequest))
        follow();
    return QWidget::eventFilter(watched, event);
}

void EmptyState::follow() {
    auto* cover = parentWidget();
    const int top = m_keepVisible ? m_keepVisible->geometry().bottom() + 1 : 0;
    setGeometry(0, top, cover->width(), std::max(0, cover->height() - top));
    setVisible(m_store.empty());
    raise();
}

} // namespace rnnprof::gui

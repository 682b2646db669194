#pragma once
// What the chart area shows while no results are open (on first start, after Close Results):
// what to do next, with buttons for it, instead of empty charts titled "sequence length 0" on
// made-up axes. It covers its parent below `keepVisible` (the chart tabs' bar stays usable, with
// Compare with Reference GPU beside it) and hides itself while the store holds any result.
#include <QList>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QAction;
class QLabel;
QT_END_NAMESPACE

namespace rnnprof::gui {

class ResultStore;

class EmptyState : public QWidget {
    Q_OBJECT
public:
    // `actions` get a button each (Run Sweep, Open Results…).
    EmptyState(const ResultStore& store, QWidget* cover, QWidget* keepVisible,
               const QList<QAction*>& actions);

    [[nodiscard]] QString text() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void follow();

    const ResultStore& m_store;
    QWidget* m_keepVisible = nullptr;
    QLabel* m_label = nullptr;
};

} // namespace rnnprof::gui

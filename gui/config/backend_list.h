#pragma once
// The backend toggles: one per registered backend (never a hard-coded list), each with its state
// for the current configuration and modes, updated live by setContext(). Unavailable backends are
// greyed out and cannot be selected; ineligible ones can (their points record the reason). Below
// them, the other question: would Keras and PyTorch run this model on cuDNN (framework fast path,
// engine/framework_fast_path.h), also live.
#include "engine/backend.h"
#include "gui/config/backend_state.h"

#include <QStringList>
#include <QWidget>

#include <vector>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QLabel;
QT_END_NAMESPACE

namespace rnnprof::gui {

class BackendList : public QWidget {
    Q_OBJECT
public:
    explicit BackendList(const BackendRegistry& registry, QWidget* parent = nullptr);
    ~BackendList() override;

    void setContext(const RnnConfig& config, const std::vector<Mode>& modes);
    [[nodiscard]] std::vector<std::string> selected() const;
    // Checks exactly `ids` (those that exist and are available); returns the ids it could not check.
    QStringList setSelected(const std::vector<std::string>& ids);

    [[nodiscard]] int count() const { return static_cast<int>(m_rows.size()); }
    [[nodiscard]] QString idAt(int row) const;
    [[nodiscard]] const BackendState& stateAt(int row) const { return m_rows[std::size_t(row)].state; }
    [[nodiscard]] QCheckBox* toggleAt(int row) const { return m_rows[std::size_t(row)].toggle; }
    [[nodiscard]] QLabel* stateLabelAt(int row) const { return m_rows[std::size_t(row)].label; }
    // "Keras: yes" and "PyTorch: no: activation=relu (...)" for the current configuration, one line
    // each, and the label showing them.
    [[nodiscard]] const QStringList& fastPathLines() const { return m_fastPathLines; }
    [[nodiscard]] QLabel* fastPathLabel() const { return m_fastPath; }

signals:
    void selectionChanged();

private:
    struct Row {
        const Backend* backend = nullptr;
        Availability availability;
        BackendState state;
        QCheckBox* toggle = nullptr;
        QLabel* label = nullptr;
    };
    void showState(Row& row);
    void showFastPath(const RnnConfig& config);
    std::vector<Row> m_rows;
    QLabel* m_fastPath = nullptr;
    QStringList m_fastPathLines;
};

} // namespace rnnprof::gui

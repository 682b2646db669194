#pragma once
// The configuration side panel: preset, model, sweep grid, measurement settings and backend
// toggles, producing a SweepPlan. Every change re-validates with the engine's and the plan's own
// validate() and shows each message at its field; isValid() gates the Run action. Backend states
// follow the configuration and modes live.
#include "engine/backend.h"
#include "profiling/plan.h"

#include <QWidget>

#include <vector>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
QT_END_NAMESPACE

namespace rnnprof::gui {

class BackendList;
class FieldMarks;
class MeasureForm;
class ModelForm;
class SweepForm;

class ConfigPanel : public QWidget {
    Q_OBJECT
public:
    explicit ConfigPanel(const BackendRegistry& registry, QWidget* parent = nullptr);
    ~ConfigPanel() override;

    [[nodiscard]] SweepPlan plan() const;
    void setPlan(const SweepPlan& plan);
    // Fills the panel from a built-in preset; false when there is no such preset.
    bool applyPreset(const QString& name);

    [[nodiscard]] bool isValid() const { return m_issues.empty(); }
    [[nodiscard]] const std::vector<FieldIssue>& issues() const { return m_issues; }
    // The message shown at the editor of `field` ("" when none) and that editor.
    [[nodiscard]] QString fieldMessage(const QString& field) const;
    [[nodiscard]] QWidget* fieldEditor(const QString& field) const;
    [[nodiscard]] BackendList* backendList() const { return m_backends; }
    [[nodiscard]] QComboBox* presetBox() const { return m_preset; }

signals:
    void planChanged();
    void validityChanged(bool valid);

private:
    void onEdited();
    void revalidate();

    const BackendRegistry& m_registry;
    std::unique_ptr<FieldMarks> m_marks;
    QComboBox* m_preset = nullptr;
    QLabel* m_presetDescription = nullptr;
    ModelForm* m_model = nullptr;
    SweepForm* m_sweep = nullptr;
    MeasureForm* m_measure = nullptr;
    BackendList* m_backends = nullptr;
    QLabel* m_generalIssues = nullptr;
    QLabel* m_notes = nullptr;
    SweepPlan m_base; // settings the panel does not edit, and the preset name
    std::vector<FieldIssue> m_issues;
    bool m_loading = false;
};

} // namespace rnnprof::gui

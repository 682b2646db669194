#pragma once
// The model part of the configuration panel: one editor per RnnConfig field. Editors accept values
// outside the engine's limits on purpose, so that the engine's own validation names the problem at
// the field instead of the editor silently clamping it.
#include "engine/config.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;
QT_END_NAMESPACE

namespace rnnprof::gui {

class FieldMarks;

class ModelForm : public QWidget {
    Q_OBJECT
public:
    ModelForm(FieldMarks& marks, QWidget* parent = nullptr);
    ~ModelForm() override;

    [[nodiscard]] RnnConfig config() const;
    void setConfig(const RnnConfig& config);
    // Problems the editors find themselves (a seed that is not a number).
    [[nodiscard]] std::vector<FieldIssue> localIssues() const;

signals:
    void changed();

private:
    QComboBox* m_cell = nullptr;
    QSpinBox* m_input = nullptr;
    QSpinBox* m_hidden = nullptr;
    QSpinBox* m_layers = nullptr;
    QCheckBox* m_bidirectional = nullptr;
    QCheckBox* m_bias = nullptr;
    QComboBox* m_activation = nullptr;
    QComboBox* m_recurrentActivation = nullptr;
    QDoubleSpinBox* m_negativeSlope = nullptr;
    QDoubleSpinBox* m_recurrentDropout = nullptr;
    QDoubleSpinBox* m_dropout = nullptr;
    QCheckBox* m_resetAfter = nullptr;
    QLineEdit* m_seed = nullptr;
};

} // namespace rnnprof::gui

#pragma once
// The grid of the sweep: batch sizes and sequence lengths as editable lists with quick ranges, and
// the mode (inference, training or both).
#include "profiling/plan.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
QT_END_NAMESPACE

namespace rnnprof::gui {

class FieldMarks;
class IntListEdit;

class SweepForm : public QWidget {
    Q_OBJECT
public:
    SweepForm(FieldMarks& marks, QWidget* parent = nullptr);
    ~SweepForm() override;

    // Writes the lists (those that parse) and the modes into `plan`.
    void apply(SweepPlan& plan) const;
    void load(const SweepPlan& plan);
    [[nodiscard]] std::vector<FieldIssue> localIssues() const;
    [[nodiscard]] std::vector<Mode> modes() const;

signals:
    void changed();

private:
    IntListEdit* m_batches = nullptr;
    IntListEdit* m_seqLens = nullptr;
    QComboBox* m_modes = nullptr;
};

} // namespace rnnprof::gui

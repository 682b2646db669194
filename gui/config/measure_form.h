#pragma once
// How each point is measured (MeasureSettings): warm-up, repeats, time budget, CPU threads, TF32,
// the GEMM library of cpu-blas, numeric checks, GPU kernel tracing, the noise threshold.
#include "profiling/plan.h"

#include <QWidget>

#include <vector>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
QT_END_NAMESPACE

namespace rnnprof::gui {

class FieldMarks;

class MeasureForm : public QWidget {
    Q_OBJECT
public:
    MeasureForm(FieldMarks& marks, QWidget* parent = nullptr);
    ~MeasureForm() override;

    [[nodiscard]] MeasureSettings settings(MeasureSettings base = {}) const;
    void setSettings(const MeasureSettings& settings);

signals:
    void changed();

private:
    QSpinBox* m_warmup = nullptr;
    QSpinBox* m_minRepeats = nullptr;
    QSpinBox* m_maxRepeats = nullptr;
    QDoubleSpinBox* m_budget = nullptr;
    QSpinBox* m_threads = nullptr;
    QCheckBox* m_tf32 = nullptr;
    QCheckBox* m_cudaGraph = nullptr;
    QComboBox* m_gemm = nullptr;
    std::vector<QCheckBox*> m_cudnnAlgos; // one per CudnnAlgo, in kCudnnAlgoSpellings order
    QCheckBox* m_numerics = nullptr;
    QCheckBox* m_trace = nullptr;
    QDoubleSpinBox* m_noise = nullptr;
};

} // namespace rnnprof::gui

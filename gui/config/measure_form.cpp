#include "gui/config/measure_form.h"

#include "gui/config/field_marks.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QSignalBlocker>
#include <QSpinBox>

#include <algorithm>

namespace rnnprof::gui {

MeasureForm::MeasureForm(FieldMarks& marks, QWidget* parent) : QWidget(parent) {
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_warmup = new QSpinBox(this);
    m_warmup->setRange(0, 100000);
    m_warmup->setToolTip(
        QStringLiteral("Runs discarded before measuring (caches, clocks, lazy allocations)"));
    m_minRepeats = new QSpinBox(this);
    m_minRepeats->setRange(0, 1000000);
    m_maxRepeats = new QSpinBox(this);
    m_maxRepeats->setRange(0, 1000000);
    m_maxRepeats->setToolTip(
        QStringLiteral("Measured runs: at least min, at most max, stopping once the time "
                       "budget is spent"));
    m_minRepeats->setToolTip(m_maxRepeats->toolTip());
    m_budget = new QDoubleSpinBox(this);
    m_budget->setRange(0.0, 1e7);
    m_budget->setDecimals(0);
    m_budget->setSuffix(QStringLiteral(" ms"));
    m_budget->setSingleStep(100);
    m_budget->setToolTip(QStringLiteral("Measuring time per point"));
    m_threads = new QSpinBox(this);
    m_threads->setRange(0, 4096);
    m_threads->setSpecialValueText(QStringLiteral("all cores"));
    m_threads->setToolTip(QStringLiteral("CPU threads of cpu-blas and cpu-onednn (0 = all cores)"));
    m_tf32 = new QCheckBox(QStringLiteral("allow TF32 tensor cores (GPU)"), this);
    m_cudaGraph = new QCheckBox(QStringLiteral("replay each phase as a CUDA graph (GPU)"), this);
    m_cudaGraph->setToolTip(QStringLiteral("One launch per phase instead of one per kernel: compare with the "
                                           "same sweep without it to see how much of an iteration is launch "
                                           "overhead (sub-steps are then not marked)"));
    m_gemm = new QComboBox(this);
    m_gemm->addItem(QStringLiteral("oneDNN sgemm"), int(GemmProvider::OneDnn));
    m_gemm->addItem(QStringLiteral("OpenBLAS"), int(GemmProvider::OpenBlas));
    m_gemm->setToolTip(QStringLiteral("Which SGEMM cpu-blas uses"));
    auto* algos = new QWidget(this);
    auto* algoLayout = new QGridLayout(algos);
    algoLayout->setContentsMargins(0, 0, 0, 0);
    for (const auto& spelling : kCudnnAlgoSpellings) {
        auto* box =
            new QCheckBox(QString::fromUtf8(spelling.text.data(), qsizetype(spelling.text.size())), algos);
        box->setToolTip(
            QStringLiteral("gpu-cudnn runs once per checked algorithm, each its own series "
                           "(gpu-cudnn[%1]); with two or more, gpu-cudnn[best] is the fastest "
                           "per point. Persistent algorithms are much faster at small batches; "
                           "where cuDNN cannot run one, the point is ineligible with cuDNN's status.")
                .arg(box->text()));
        algoLayout->addWidget(box, int(m_cudnnAlgos.size()) / 2, int(m_cudnnAlgos.size()) % 2);
        m_cudnnAlgos.push_back(box);
    }
    m_numerics = new QCheckBox(QStringLiteral("check numerics against cpu-reference"), this);
    m_trace = new QCheckBox(QStringLiteral("trace GPU kernels (CUPTI)"), this);
    m_noise = new QDoubleSpinBox(this);
    m_noise->setRange(0.0, 100.0);
    m_noise->setDecimals(2);
    m_noise->setSingleStep(0.05);
    m_noise->setToolTip(
        QStringLiteral("Spread of the runs, (p90 − p10) / median, above which a point is flagged noisy"));

    marks.addRow(form, QStringLiteral("Warm-up runs"), m_warmup, {QStringLiteral("warmup")});
    marks.addRow(form, QStringLiteral("Min repeats"), m_minRepeats, {QStringLiteral("min_repeats")});
    marks.addRow(form, QStringLiteral("Max repeats"), m_maxRepeats, {QStringLiteral("max_repeats")});
    marks.addRow(form, QStringLiteral("Time budget"), m_budget, {QStringLiteral("time_budget_ms")});
    marks.addRow(form, QStringLiteral("CPU threads"), m_threads, {QStringLiteral("threads")});
    marks.addRow(form, QStringLiteral("GEMM (cpu-blas)"), m_gemm, {QStringLiteral("gemm")});
    marks.addRow(form, QString(), m_tf32, {QStringLiteral("allow_tf32")});
    marks.addRow(form, QString(), m_cudaGraph, {QStringLiteral("cuda_graph")});
    marks.addRow(form, QStringLiteral("cuDNN algorithms"), algos, {QStringLiteral("cudnn_algos")});
    marks.addRow(form, QString(), m_numerics,
                 {QStringLiteral("check_numerics"), QStringLiteral("numerics_max_work")});
    marks.addRow(form, QString(), m_trace, {QStringLiteral("gpu_trace")});
    marks.addRow(form, QStringLiteral("Noise threshold"), m_noise, {QStringLiteral("noise_threshold")});

    for (QSpinBox* s : {m_warmup, m_minRepeats, m_maxRepeats, m_threads})
        connect(s, &QSpinBox::valueChanged, this, &MeasureForm::changed);
    for (QDoubleSpinBox* s : {m_budget, m_noise})
        connect(s, &QDoubleSpinBox::valueChanged, this, &MeasureForm::changed);
    for (QCheckBox* c : {m_tf32, m_cudaGraph, m_numerics, m_trace})
        connect(c, &QCheckBox::toggled, this, &MeasureForm::changed);
    for (QCheckBox* c : m_cudnnAlgos)
        connect(c, &QCheckBox::toggled, this, &MeasureForm::changed);
    connect(m_gemm, &QComboBox::currentIndexChanged, this, &MeasureForm::changed);
    setSettings(MeasureSettings{});
}

MeasureForm::~MeasureForm() = default;

MeasureSettings MeasureForm::settings(MeasureSettings m) const {
    m.warmup = m_warmup->value();
    m.minRepeats = m_minRepeats->value();
    m.maxRepeats = m_maxRepeats->value();
    m.timeBudgetMs = m_budget->value();
    m.threads = m_threads->value();
    m.allowTf32 = m_tf32->isChecked();
    m.cudaGraph = m_cudaGraph->isChecked();
    m.gemm = static_cast<GemmProvider>(m_gemm->currentData().toInt());
    m.cudnnAlgos.clear();
    for (std::size_t i = 0; i < m_cudnnAlgos.size(); ++i)
        if (m_cudnnAlgos[i]->isChecked()) m.cudnnAlgos.push_back(kCudnnAlgoSpellings[i].value);
    m.checkNumerics = m_numerics->isChecked();
    m.gpuTrace = m_trace->isChecked();
    m.noiseThreshold = m_noise->value();
    return m;
}

void MeasureForm::setSettings(const MeasureSettings& m) {
    const QSignalBlocker b0(m_warmup), b1(m_minRepeats), b2(m_maxRepeats), b3(m_budget), b4(m_threads),
        b5(m_tf32), b6(m_gemm), b7(m_numerics), b8(m_trace), b9(m_noise);
    m_warmup->setValue(m.warmup);
    m_minRepeats->setValue(m.minRepeats);
    m_maxRepeats->setValue(m.maxRepeats);
    m_budget->setValue(m.timeBudgetMs);
    m_threads->setValue(m.threads);
    m_tf32->setChecked(m.allowTf32);
    {
        const QSignalBlocker block(m_cudaGraph);
        m_cudaGraph->setChecked(m.cudaGraph);
    }
    m_gemm->setCurrentIndex(m_gemm->findData(int(m.gemm)));
    for (std::size_t i = 0; i < m_cudnnAlgos.size(); ++i) {
        const QSignalBlocker block(m_cudnnAlgos[i]);
        const CudnnAlgo algo = kCudnnAlgoSpellings[i].value;
        m_cudnnAlgos[i]->setChecked(std::find(m.cudnnAlgos.begin(), m.cudnnAlgos.end(), algo) !=
                                    m.cudnnAlgos.end());
    }
    m_numerics->setChecked(m.checkNumerics);
    m_trace->setChecked(m.gpuTrace);
    m_noise->setValue(m.noiseThreshold);
}

} // namespace rnnprof::gui

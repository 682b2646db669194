#include "gui/config/sweep_form.h"

#include "gui/config/field_marks.h"
#include "gui/config/int_list_edit.h"

#include <QComboBox>
#include <QFormLayout>
#include <QSignalBlocker>

namespace rnnprof::gui {
namespace {

enum ModeChoice { InferenceOnly = 0, TrainingOnly = 1, Both = 2 };

} // namespace

SweepForm::SweepForm(FieldMarks& marks, QWidget* parent) : QWidget(parent) {
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_batches = new IntListEdit(Limits::maxBatch,
                                {{QStringLiteral("Powers of two 1 … 64"), powersOfTwo(1, 64)},
                                 {QStringLiteral("Powers of two 1 … 256"), powersOfTwo(1, 256)},
                                 {QStringLiteral("Powers of two 1 … 1024"), powersOfTwo(1, 1024)},
                                 {QStringLiteral("Powers of two 8 … 512"), powersOfTwo(8, 512)}},
                                this);
    m_seqLens = new IntListEdit(Limits::maxSeqLen,
                                {{QStringLiteral("20, 100"), {20, 100}},
                                 {QStringLiteral("10, 20, 50, 100, 200, 500"), {10, 20, 50, 100, 200, 500}},
                                 {QStringLiteral("Powers of two 8 … 512"), powersOfTwo(8, 512)},
                                 {QStringLiteral("Powers of two 16 … 1024"), powersOfTwo(16, 1024)}},
                                this);
    m_batches->setObjectName(QStringLiteral("batches"));
    m_seqLens->setObjectName(QStringLiteral("seqLens"));
    m_modes = new QComboBox(this);
    m_modes->insertItem(InferenceOnly, QStringLiteral("inference"));
    m_modes->insertItem(TrainingOnly, QStringLiteral("training"));
    m_modes->insertItem(Both, QStringLiteral("inference and training"));
    m_modes->setToolTip(
        QStringLiteral("Inference: forward only. Training: forward keeping activations, MSE loss, "
                       "backward through time and an SGD update, timed per phase."));
    marks.addRow(form, QStringLiteral("Batch sizes"), m_batches,
                 {QStringLiteral("batch"), QStringLiteral("points")});
    marks.addRow(form, QStringLiteral("Sequence lengths"), m_seqLens, {QStringLiteral("seq_len")});
    marks.addRow(form, QStringLiteral("Mode"), m_modes, {QStringLiteral("modes")});
    connect(m_batches, &IntListEdit::edited, this, &SweepForm::changed);
    connect(m_seqLens, &IntListEdit::edited, this, &SweepForm::changed);
    connect(m_modes, &QComboBox::currentIndexChanged, this, &SweepForm::changed);
    load(SweepPlan{});
}

SweepForm::~SweepForm() = default;

std::vector<Mode> SweepForm::modes() const {
    switch (m_modes->currentIndex()) {
    case TrainingOnly:
        return {Mode::Training};
    case Both:
        return {Mode::Inference, Mode::Training};
    default:
        return {Mode::Inference};
    }
}

void SweepForm::apply(SweepPlan& plan) const {
    if (const auto b = m_batches->parsed(); b.ok()) plan.batches = b.values;
    if (const auto s = m_seqLens->parsed(); s.ok()) plan.seqLens = s.values;
    plan.modes = modes();
}

void SweepForm::load(const SweepPlan& plan) {
    const QSignalBlocker block(m_modes);
    m_batches->setValues(plan.batches);
    m_seqLens->setValues(plan.seqLens);
    const bool infer = std::find(plan.modes.begin(), plan.modes.end(), Mode::Inference) != plan.modes.end();
    const bool train = std::find(plan.modes.begin(), plan.modes.end(), Mode::Training) != plan.modes.end();
    m_modes->setCurrentIndex(infer && train ? Both : train ? TrainingOnly : InferenceOnly);
}

std::vector<FieldIssue> SweepForm::localIssues() const {
    std::vector<FieldIssue> out;
    if (const auto b = m_batches->parsed(); !b.ok()) out.push_back({"batch", "batch sizes: " + b.error});
    if (const auto s = m_seqLens->parsed(); !s.ok())
        out.push_back({"seq_len", "sequence lengths: " + s.error});
    return out;
}

} // namespace rnnprof::gui

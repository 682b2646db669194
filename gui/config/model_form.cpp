#include "gui/config/model_form.h"

#include "gui/config/field_marks.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QSignalBlocker>
#include <QSpinBox>

namespace rnnprof::gui {
namespace {

QSpinBox* sizeBox(QWidget* parent, int max, const QString& tip) {
    auto* box = new QSpinBox(parent);
    box->setRange(0, max);
    box->setAccelerated(true);
    box->setToolTip(tip);
    return box;
}

QDoubleSpinBox* probabilityBox(QWidget* parent, const QString& tip) {
    auto* box = new QDoubleSpinBox(parent);
    box->setRange(0.0, 1.0);
    box->setSingleStep(0.05);
    box->setDecimals(2);
    box->setToolTip(tip);
    return box;
}

} // namespace

ModelForm::ModelForm(FieldMarks& marks, QWidget* parent) : QWidget(parent) {
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    m_cell = new QComboBox(this);
    m_cell->addItem(QStringLiteral("LSTM"), int(CellType::Lstm));
    m_cell->addItem(QStringLiteral("GRU"), int(CellType::Gru));
    m_input = sizeBox(this, Limits::maxInputSize * 4,
                      QStringLiteral("Features per time step (1..%1)").arg(Limits::maxInputSize));
    m_hidden = sizeBox(this, Limits::maxHiddenSize * 4,
                       QStringLiteral("Hidden units per direction (1..%1)").arg(Limits::maxHiddenSize));
    m_layers =
        sizeBox(this, Limits::maxLayers * 4, QStringLiteral("Stacked layers (1..%1)").arg(Limits::maxLayers));
    m_bidirectional = new QCheckBox(QStringLiteral("bidirectional"), this);
    m_bias = new QCheckBox(QStringLiteral("bias"), this);
    m_activation = new QComboBox(this);
    m_activation->addItem(QStringLiteral("tanh"), int(Activation::Tanh));
    m_activation->addItem(QStringLiteral("relu"), int(Activation::Relu));
    m_activation->addItem(QStringLiteral("leaky relu"), int(Activation::LeakyRelu));
    m_activation->setToolTip(QStringLiteral("Cell activation; cuDNN supports tanh only for LSTM and GRU"));
    m_negativeSlope = new QDoubleSpinBox(this);
    m_negativeSlope->setRange(0.0, Limits::maxNegativeSlope);
    m_negativeSlope->setDecimals(3);
    m_negativeSlope->setSingleStep(0.01);
    m_negativeSlope->setToolTip(QStringLiteral(
        "Leaky ReLU: y = slope * x for x < 0 (PyTorch's default 0.01, Keras' LeakyReLU layer 0.3)"));
    m_recurrentActivation = new QComboBox(this);
    m_recurrentActivation->addItem(QStringLiteral("sigmoid"), int(RecurrentActivation::Sigmoid));
    m_recurrentActivation->addItem(QStringLiteral("hard sigmoid (Keras 2)"),
                                   int(RecurrentActivation::HardSigmoid));
    m_recurrentActivation->addItem(QStringLiteral("hard sigmoid (Keras 3)"),
                                   int(RecurrentActivation::HardSigmoidKeras3));
    m_recurrentActivation->setItemData(1, QStringLiteral("clip(0.2 x + 0.5, 0, 1)"), Qt::ToolTipRole);
    m_recurrentActivation->setItemData(2, QStringLiteral("clip(x / 6 + 0.5, 0, 1)"), Qt::ToolTipRole);
    m_recurrentActivation->setToolTip(QStringLiteral("Gate activation; cuDNN supports sigmoid only"));
    m_recurrentDropout =
        probabilityBox(this, QStringLiteral("Dropout on h inside the recurrence (training only); "
                                            "cuDNN does not support it"));
    m_dropout = probabilityBox(this, QStringLiteral("Dropout between layers (training only)"));
    m_resetAfter = new QCheckBox(QStringLiteral("reset gate after the recurrent product (cuDNN)"), this);
    m_seed = new QLineEdit(this);
    m_seed->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{0,20}")), m_seed));
    m_seed->setToolTip(QStringLiteral("Seed of weights, inputs, targets and dropout masks"));

    marks.addRow(form, QStringLiteral("Cell"), m_cell, {QStringLiteral("cell")});
    marks.addRow(form, QStringLiteral("Input size"), m_input, {QStringLiteral("input_size")});
    marks.addRow(form, QStringLiteral("Hidden size"), m_hidden, {QStringLiteral("hidden_size")});
    marks.addRow(form, QStringLiteral("Layers"), m_layers, {QStringLiteral("layers")});
    marks.addRow(form, QString(), m_bidirectional, {QStringLiteral("bidirectional")});
    marks.addRow(form, QString(), m_bias, {QStringLiteral("bias")});
    marks.addRow(form, QStringLiteral("Activation"), m_activation, {QStringLiteral("activation")});
    marks.addRow(form, QStringLiteral("Negative slope"), m_negativeSlope, {QStringLiteral("negative_slope")});
    marks.addRow(form, QStringLiteral("Recurrent act."), m_recurrentActivation,
                 {QStringLiteral("recurrent_activation")});
    marks.addRow(form, QStringLiteral("Recurrent dropout"), m_recurrentDropout,
                 {QStringLiteral("recurrent_dropout")});
    marks.addRow(form, QStringLiteral("Dropout"), m_dropout, {QStringLiteral("dropout")});
    marks.addRow(form, QStringLiteral("GRU"), m_resetAfter, {QStringLiteral("reset_after")});
    marks.addRow(form, QStringLiteral("Seed"), m_seed, {QStringLiteral("seed")});

    for (QComboBox* c : {m_cell, m_activation, m_recurrentActivation})
        connect(c, &QComboBox::currentIndexChanged, this, &ModelForm::changed);
    for (QSpinBox* s : {m_input, m_hidden, m_layers})
        connect(s, &QSpinBox::valueChanged, this, &ModelForm::changed);
    for (QDoubleSpinBox* s : {m_recurrentDropout, m_dropout, m_negativeSlope})
        connect(s, &QDoubleSpinBox::valueChanged, this, &ModelForm::changed);
    for (QCheckBox* c : {m_bidirectional, m_bias, m_resetAfter})
        connect(c, &QCheckBox::toggled, this, &ModelForm::changed);
    connect(m_seed, &QLineEdit::textEdited, this, &ModelForm::changed);
    connect(m_activation, &QComboBox::currentIndexChanged, this, [this] {
        m_negativeSlope->setEnabled(m_activation->currentData().toInt() == int(Activation::LeakyRelu));
    });
    connect(m_cell, &QComboBox::currentIndexChanged, this,
            [this] { m_resetAfter->setEnabled(m_cell->currentData().toInt() == int(CellType::Gru)); });
    setConfig(RnnConfig{});
}

ModelForm::~ModelForm() = default;

RnnConfig ModelForm::config() const {
    RnnConfig c;
    c.cell = static_cast<CellType>(m_cell->currentData().toInt());
    c.inputSize = m_input->value();
    c.hiddenSize = m_hidden->value();
    c.layers = m_layers->value();
    c.bidirectional = m_bidirectional->isChecked();
    c.bias = m_bias->isChecked();
    c.activation = static_cast<Activation>(m_activation->currentData().toInt());
    c.negativeSlope = m_negativeSlope->value();
    c.recurrentActivation = static_cast<RecurrentActivation>(m_recurrentActivation->currentData().toInt());
    c.recurrentDropout = m_recurrentDropout->value();
    c.dropout = m_dropout->value();
    c.resetAfter = m_resetAfter->isChecked();
    bool ok = false;
    const qulonglong seed = m_seed->text().toULongLong(&ok);
    c.seed = ok ? seed : RnnConfig{}.seed;
    return c;
}

std::vector<FieldIssue> ModelForm::localIssues() const {
    bool ok = false;
    (void)m_seed->text().toULongLong(&ok);
    if (ok) return {};
    return {{"seed", "seed must be a whole number between 0 and 18446744073709551615 (got '" +
                         m_seed->text().toStdString() + "')"}};
}

void ModelForm::setConfig(const RnnConfig& c) {
    const QSignalBlocker b0(m_cell), b1(m_input), b2(m_hidden), b3(m_layers), b4(m_bidirectional), b5(m_bias),
        b6(m_activation), b7(m_recurrentActivation), b8(m_recurrentDropout), b9(m_dropout), b10(m_resetAfter),
        b11(m_seed), b12(m_negativeSlope);
    m_cell->setCurrentIndex(m_cell->findData(int(c.cell)));
    m_input->setValue(c.inputSize);
    m_hidden->setValue(c.hiddenSize);
    m_layers->setValue(c.layers);
    m_bidirectional->setChecked(c.bidirectional);
    m_bias->setChecked(c.bias);
    m_activation->setCurrentIndex(m_activation->findData(int(c.activation)));
    m_negativeSlope->setValue(c.negativeSlope);
    m_negativeSlope->setEnabled(c.activation == Activation::LeakyRelu);
    m_recurrentActivation->setCurrentIndex(m_recurrentActivation->findData(int(c.recurrentActivation)));
    m_recurrentDropout->setValue(c.recurrentDropout);
    m_dropout->setValue(c.dropout);
    m_resetAfter->setChecked(c.resetAfter);
    m_resetAfter->setEnabled(c.cell == CellType::Gru);
    m_seed->setText(QString::number(c.seed));
}

} // namespace rnnprof::gui

#include "gui/config/config_panel.h"

#include "gui/config/backend_list.h"
#include "gui/config/field_marks.h"
#include "gui/config/measure_form.h"
#include "gui/config/model_form.h"
#include "gui/config/sweep_form.h"
#include "profiling/files/presets.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace rnnprof::gui {
namespace {

QGroupBox* group(const QString& title, QWidget* content, QWidget* parent) {
    auto* box = new QGroupBox(title, parent);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(content);
    return box;
}

} // namespace

ConfigPanel::ConfigPanel(const BackendRegistry& registry, QWidget* parent)
    : QWidget(parent), m_registry(registry), m_marks(std::make_unique<FieldMarks>()) {
    setObjectName(QStringLiteral("configPanel"));
    m_preset = new QComboBox(this);
    m_preset->setObjectName(QStringLiteral("preset"));
    m_preset->addItem(QStringLiteral("(custom)"), QString());
    for (const Preset& p : builtinPresets())
        m_preset->addItem(QString::fromStdString(p.name), QString::fromStdString(p.name));
    m_presetDescription = new QLabel(this);
    m_presetDescription->setWordWrap(true);
    m_presetDescription->setObjectName(QStringLiteral("presetDescription"));
    auto* presetBox = new QWidget(this);
    auto* presetLayout = new QVBoxLayout(presetBox);
    presetLayout->setContentsMargins(0, 0, 0, 0);
    presetLayout->addWidget(m_preset);
    presetLayout->addWidget(m_presetDescription);

    m_model = new ModelForm(*m_marks, this);
    m_sweep = new SweepForm(*m_marks, this);
    m_measure = new MeasureForm(*m_marks, this);
    m_backends = new BackendList(registry, this);
    auto* backendBox = new QWidget(this);
    auto* backendForm = new QFormLayout(backendBox);
    backendForm->setContentsMargins(0, 0, 0, 0);
    m_marks->addRow(backendForm, QString(), m_backends, {QStringLiteral("backends")});

    m_generalIssues = new QLabel(this);
    m_generalIssues->setObjectName(QStringLiteral("generalIssues"));
    m_generalIssues->setWordWrap(true);
    m_generalIssues->setStyleSheet(QStringLiteral("color: #d32f2f"));
    m_generalIssues->hide();
    m_notes = new QLabel(this);
    m_notes->setWordWrap(true);
    m_notes->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(group(QStringLiteral("Preset"), presetBox, this));
    layout->addWidget(group(QStringLiteral("Model"), m_model, this));
    layout->addWidget(group(QStringLiteral("Sweep"), m_sweep, this));
    layout->addWidget(group(QStringLiteral("Backends"), backendBox, this));
    layout->addWidget(group(QStringLiteral("Measurement"), m_measure, this));
    layout->addWidget(m_generalIssues);
    layout->addWidget(m_notes);
    layout->addStretch(1);

    connect(m_model, &ModelForm::changed, this, &ConfigPanel::onEdited);
    connect(m_sweep, &SweepForm::changed, this, &ConfigPanel::onEdited);
    connect(m_measure, &MeasureForm::changed, this, &ConfigPanel::onEdited);
    connect(m_backends, &BackendList::selectionChanged, this, &ConfigPanel::onEdited);
    connect(m_preset, &QComboBox::currentIndexChanged, this, [this](int index) {
        const QString name = m_preset->itemData(index).toString();
        if (!name.isEmpty()) applyPreset(name);
    });

    const QString def = QString::fromStdString(defaultPresetName());
    if (!applyPreset(def)) setPlan(SweepPlan{});
}

ConfigPanel::~ConfigPanel() = default;

SweepPlan ConfigPanel::plan() const {
    SweepPlan p = m_base;
    p.config = m_model->config();
    m_sweep->apply(p);
    p.settings = m_measure->settings(m_base.settings);
    p.backends = m_backends->selected();
    return p;
}

void ConfigPanel::setPlan(const SweepPlan& plan) {
    m_loading = true;
    m_base = plan;
    m_model->setConfig(plan.config);
    m_sweep->load(plan);
    m_measure->setSettings(plan.settings);
    m_backends->setContext(plan.config, plan.modes);
    const QStringList skipped = m_backends->setSelected(plan.backends);
    {
        const QSignalBlocker block(m_preset);
        const int index = m_preset->findData(QString::fromStdString(plan.preset));
        m_preset->setCurrentIndex(index > 0 ? index : 0);
    }
    const Preset* preset = findPreset(plan.preset);
    m_presetDescription->setText(preset ? QString::fromStdString(preset->description) : QString());
    m_presetDescription->setVisible(preset != nullptr);
    m_notes->setText(skipped.isEmpty()
                         ? QString()
                         : QStringLiteral("Not selected because unavailable on this machine: %1.")
                               .arg(skipped.join(QStringLiteral(", "))));
    m_notes->setVisible(!skipped.isEmpty());
    m_loading = false;
    revalidate();
    emit planChanged();
}

bool ConfigPanel::applyPreset(const QString& name) {
    const Preset* preset = findPreset(name.toStdString());
    if (!preset) return false;
    setPlan(preset->plan);
    return true;
}

void ConfigPanel::onEdited() {
    if (m_loading) return;
    if (!m_base.preset.empty()) {
        // An edited preset is a custom plan now.
        m_base.preset.clear();
        const QSignalBlocker block(m_preset);
        m_preset->setCurrentIndex(0);
        m_presetDescription->hide();
    }
    m_backends->setContext(m_model->config(), m_sweep->modes());
    revalidate();
    emit planChanged();
}

void ConfigPanel::revalidate() {
    const bool wasValid = isValid();
    const SweepPlan p = plan();
    std::vector<FieldIssue> issues = m_model->localIssues();
    for (auto& issue : m_sweep->localIssues())
        issues.push_back(std::move(issue));
    for (auto& issue : validate(p, m_registry.ids())) {
        // A list that does not parse is reported once, by its parse error.
        const bool parseError = std::any_of(issues.begin(), issues.end(), [&](const FieldIssue& i) {
            return i.field == issue.field && (i.field == "batch" || i.field == "seq_len");
        });
        if (!parseError) issues.push_back(std::move(issue));
    }
    if (p.backends.empty() &&
        std::none_of(issues.begin(), issues.end(), [](const FieldIssue& i) { return i.field == "backends"; }))
        issues.push_back({"backends", "select at least one backend"});
    const auto unclaimed = m_marks->show(issues);
    QStringList general;
    for (const auto& issue : unclaimed)
        general << QString::fromStdString(issue.message);
    m_generalIssues->setText(general.join(QLatin1Char('\n')));
    m_generalIssues->setVisible(!general.isEmpty());
    m_issues = std::move(issues);
    if (wasValid != isValid()) emit validityChanged(isValid());
}

QString ConfigPanel::fieldMessage(const QString& field) const {
    return m_marks->messageFor(field);
}

QWidget* ConfigPanel::fieldEditor(const QString& field) const {
    return m_marks->editorFor(field);
}

} // namespace rnnprof::gui

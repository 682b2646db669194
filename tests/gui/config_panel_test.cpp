// The configuration panel: the engine's validation messages appear at the field they concern, Run
// is disabled while anything is invalid, presets fill the panel, backend states follow the model.
#include "engine/error.h"
#include "gui/config/backend_list.h"
#include "gui/config/config_panel.h"
#include "gui/config/int_list_edit.h"
#include "gui/main_window.h"
#include "profiling/files/presets.h"
#include "support/fake_backend.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

namespace rnnprof::gui {
namespace {

using test::fakeRegistry;

SweepPlan validPlan() {
    SweepPlan p;
    p.backends = {"fake-ok"};
    return p;
}

TEST(ConfigPanel, ShowsTheEnginesMessageAtTheField) {
    const auto registry = fakeRegistry();
    ConfigPanel panel(registry);
    panel.setPlan(validPlan());
    ASSERT_TRUE(panel.isValid()) << panel.issues().front().message;

    auto* hidden = qobject_cast<QSpinBox*>(panel.fieldEditor(QStringLiteral("hidden_size")));
    ASSERT_NE(hidden, nullptr);
    hidden->setValue(0);
    EXPECT_FALSE(panel.isValid());
    RnnConfig bad;
    bad.hiddenSize = 0;
    const auto engine = validate(bad);
    ASSERT_EQ(engine.size(), 1u);
    EXPECT_EQ(panel.fieldMessage(QStringLiteral("hidden_size")), QString::fromStdString(engine[0].message));
    EXPECT_EQ(hidden->toolTip(), QString::fromStdString(engine[0].message));

    hidden->setValue(64);
    EXPECT_TRUE(panel.isValid());
    EXPECT_TRUE(panel.fieldMessage(QStringLiteral("hidden_size")).isEmpty());
}

TEST(ConfigPanel, MarksPlanSettingsAndListParseErrors) {
    const auto registry = fakeRegistry();
    ConfigPanel panel(registry);
    panel.setPlan(validPlan());
    auto* minRepeats = qobject_cast<QSpinBox*>(panel.fieldEditor(QStringLiteral("min_repeats")));
    ASSERT_NE(minRepeats, nullptr);
    minRepeats->setValue(100); // above max_repeats (50)
    EXPECT_TRUE(panel.fieldMessage(QStringLiteral("min_repeats")).contains(QStringLiteral("max_repeats")));

    auto* batches = qobject_cast<IntListEdit*>(panel.fieldEditor(QStringLiteral("batch")));
    ASSERT_NE(batches, nullptr);
    QTest::keyClicks(batches->lineEdit(), QStringLiteral(", banana"));
    EXPECT_TRUE(panel.fieldMessage(QStringLiteral("batch")).contains(QStringLiteral("banana")));
    batches->lineEdit()->clear();
    QTest::keyClicks(batches->lineEdit(), QStringLiteral("1, 1"));
    EXPECT_TRUE(panel.fieldMessage(QStringLiteral("batch")).contains(QStringLiteral("1 is given twice")));
}

TEST(ConfigPanel, ListFieldsReadTheSameGrammarAsTheCommandLine) {
    const auto registry = fakeRegistry();
    ConfigPanel panel(registry);
    panel.setPlan(validPlan());
    auto* batches = qobject_cast<IntListEdit*>(panel.fieldEditor(QStringLiteral("batch")));
    ASSERT_NE(batches, nullptr);
    batches->lineEdit()->clear();
    QTest::keyClicks(batches->lineEdit(), QStringLiteral("1..20"));
    EXPECT_EQ(panel.plan().batches, (std::vector<int>{1, 2, 4, 8, 16, 20}));
    batches->lineEdit()->clear();
    QTest::keyClicks(batches->lineEdit(), QStringLiteral("3-5"));
    EXPECT_EQ(panel.plan().batches, (std::vector<int>{3, 4, 5}));
    EXPECT_TRUE(batches->lineEdit()->toolTip().contains(QStringLiteral("1..20 = 1, 2, 4, 8, 16, 20")));
}

TEST(ConfigPanel, RequiresABackend) {
    const auto registry = fakeRegistry();
    ConfigPanel panel(registry);
    panel.setPlan(validPlan());
    panel.backendList()->toggleAt(0)->setChecked(false);
    EXPECT_FALSE(panel.isValid());
    EXPECT_FALSE(panel.fieldMessage(QStringLiteral("backends")).isEmpty());
}

TEST(ConfigPanel, RoundTripsAPlan) {
    const auto registry = fakeRegistry();
    ConfigPanel panel(registry);
    SweepPlan p = validPlan();
    p.config.cell = CellType::Gru;
    p.config.layers = 3;
    p.config.bidirectional = true;
    p.config.dropout = 0.25;
    p.config.resetAfter = false;
    p.config.seed = 123456789012345ULL;
    p.batches = {2, 8};
    p.seqLens = {7};
    p.modes = {Mode::Inference, Mode::Training};
    p.backends = {"fake-ok", "fake-picky"};
    p.settings.warmup = 3;
    p.settings.threads = 1;
    p.settings.allowTf32 = true;
    p.settings.timeBudgetMs = 500;
    p.settings.cudnnAlgos = {CudnnAlgo::Standard, CudnnAlgo::PersistDynamic};
    p.settings.cudaGraph = true;
    panel.setPlan(p);
    EXPECT_EQ(panel.plan(), p);
}

TEST(ConfigPanel, NoCudnnAlgorithmCheckedIsMarkedAtTheToggles) {
    const auto registry = fakeRegistry();
    ConfigPanel panel(registry);
    panel.setPlan(validPlan());
    QWidget* algos = panel.fieldEditor(QStringLiteral("cudnn_algos"));
    ASSERT_NE(algos, nullptr);
    const auto boxes = algos->findChildren<QCheckBox*>();
    ASSERT_EQ(boxes.size(), 4);
    EXPECT_EQ(boxes[0]->text(), QStringLiteral("standard"));
    EXPECT_TRUE(boxes[0]->isChecked()) << "STANDARD is the default";
    boxes[0]->setChecked(false);
    EXPECT_FALSE(panel.isValid());
    EXPECT_TRUE(panel.fieldMessage(QStringLiteral("cudnn_algos")).contains(QStringLiteral("at least one")));
    boxes[2]->setChecked(true);
    EXPECT_TRUE(panel.isValid());
    EXPECT_EQ(panel.plan().settings.cudnnAlgos, std::vector<CudnnAlgo>{CudnnAlgo::PersistDynamic});
}

TEST(ConfigPanel, APresetFillsThePanel) {
    const auto registry = fakeRegistry();
    ConfigPanel panel(registry);
    ASSERT_FALSE(builtinPresets().empty());
    const Preset& preset = builtinPresets().back();
    const int index = panel.presetBox()->findData(QString::fromStdString(preset.name));
    ASSERT_GT(index, 0);
    panel.presetBox()->setCurrentIndex(index);
    const SweepPlan p = panel.plan();
    EXPECT_EQ(p.config, preset.plan.config);
    EXPECT_EQ(p.batches, preset.plan.batches);
    EXPECT_EQ(p.seqLens, preset.plan.seqLens);
    EXPECT_EQ(p.settings, preset.plan.settings);
    EXPECT_EQ(p.preset, preset.name);
    // Editing a preset makes the plan custom.
    qobject_cast<QSpinBox*>(panel.fieldEditor(QStringLiteral("layers")))->setValue(2);
    EXPECT_EQ(panel.presetBox()->currentIndex(), 0);
    EXPECT_TRUE(panel.plan().preset.empty());
}

TEST(ConfigPanel, ResetAfterOnlyAppliesToGru) {
    const auto registry = fakeRegistry();
    ConfigPanel panel(registry);
    auto* cell = qobject_cast<QComboBox*>(panel.fieldEditor(QStringLiteral("cell")));
    auto* resetAfter = panel.fieldEditor(QStringLiteral("reset_after"));
    cell->setCurrentIndex(cell->findText(QStringLiteral("LSTM")));
    EXPECT_FALSE(resetAfter->isEnabled());
    cell->setCurrentIndex(cell->findText(QStringLiteral("GRU")));
    EXPECT_TRUE(resetAfter->isEnabled());
}

TEST(BackendList, ShowsAvailabilityAndIneligibilityLive) {
    const auto registry = fakeRegistry();
    ConfigPanel panel(registry);
    panel.setPlan(validPlan());
    BackendList* list = panel.backendList();
    ASSERT_EQ(list->count(), 3);
    EXPECT_EQ(list->idAt(0), QStringLiteral("fake-ok"));
    EXPECT_EQ(list->stateAt(0).status, BackendStatus::Available);
    EXPECT_EQ(list->stateAt(2).status, BackendStatus::Unavailable);
    EXPECT_TRUE(list->stateAt(2).summary.contains(QStringLiteral("no NVIDIA driver")));
    EXPECT_FALSE(list->toggleAt(2)->isEnabled());
    EXPECT_TRUE(list->stateLabelAt(2)->text().contains(QStringLiteral("no NVIDIA driver")));

    auto* activation = qobject_cast<QComboBox*>(panel.fieldEditor(QStringLiteral("activation")));
    activation->setCurrentIndex(activation->findText(QStringLiteral("relu")));
    EXPECT_EQ(list->stateAt(1).status, BackendStatus::Ineligible);
    EXPECT_TRUE(list->stateAt(1).summary.contains(QStringLiteral("requires activation=tanh; got relu")));
    EXPECT_TRUE(list->toggleAt(1)->isEnabled()); // ineligible points are recorded with their reason
    activation->setCurrentIndex(activation->findText(QStringLiteral("tanh")));
    EXPECT_EQ(list->stateAt(1).status, BackendStatus::Available);
}

// The second question next to the backends: would Keras and PyTorch run this model on cuDNN?
// Recurrent dropout takes the model off Keras' cuDNN kernel and out of what nn.LSTM can express.
TEST(BackendList, ShowsTheFrameworkFastPathLive) {
    const auto registry = fakeRegistry();
    ConfigPanel panel(registry);
    panel.setPlan(validPlan());
    BackendList* list = panel.backendList();
    EXPECT_EQ(list->fastPathLines(),
              (QStringList{QStringLiteral("Keras: yes"), QStringLiteral("PyTorch: yes")}));

    auto* recurrentDropout =
        qobject_cast<QDoubleSpinBox*>(panel.fieldEditor(QStringLiteral("recurrent_dropout")));
    ASSERT_NE(recurrentDropout, nullptr);
    recurrentDropout->setValue(0.2);
    const QString keras = QStringLiteral(
        "Keras: no: recurrent_dropout=0.2 (Keras needs 0 for cuDNN and falls back to the generic kernel)");
    const QString pytorch = QStringLiteral("PyTorch: no: recurrent_dropout=0.2 (nn.LSTM has no recurrent "
                                           "dropout: its dropout acts between layers)");
    EXPECT_EQ(list->fastPathLines(), (QStringList{keras, pytorch}));
    ASSERT_NE(list->fastPathLabel(), nullptr);
    EXPECT_TRUE(list->fastPathLabel()->text().contains(keras)) << list->fastPathLabel()->text().toStdString();
    EXPECT_TRUE(list->fastPathLabel()->text().contains(pytorch));

    recurrentDropout->setValue(0.0);
    EXPECT_EQ(list->fastPathLines().front(), QStringLiteral("Keras: yes"));
}

TEST(BackendList, TheBilstmReluPresetShowsItIsOffBothFastPaths) {
    const auto registry = fakeRegistry();
    ConfigPanel panel(registry);
    ASSERT_TRUE(panel.applyPreset(QStringLiteral("bilstm-relu")));
    const QStringList lines = panel.backendList()->fastPathLines();
    ASSERT_EQ(lines.size(), 2);
    EXPECT_TRUE(lines[0].startsWith(QStringLiteral("Keras: no: activation=relu (")))
        << lines[0].toStdString();
    EXPECT_TRUE(
        lines[1].startsWith(QStringLiteral("PyTorch: no: activation=relu (nn.LSTM has no activation")))
        << lines[1].toStdString();
}

TEST(BackendList, UnavailableBackendsOfAPlanAreLeftOutAndNamed) {
    const auto registry = fakeRegistry();
    BackendList list(registry);
    const QStringList skipped = list.setSelected({"fake-ok", "fake-absent", "not-registered"});
    EXPECT_EQ(skipped, (QStringList{QStringLiteral("fake-absent"), QStringLiteral("not-registered")}));
    EXPECT_EQ(list.selected(), (std::vector<std::string>{"fake-ok"}));
}

TEST(BackendState, AnUnavailableBackendStillSaysWhyItWouldBeIneligible) {
    test::FakeBehaviour b = test::named("absent");
    b.available = false;
    b.unavailableReason = "no NVIDIA driver";
    b.refusesRelu = true;
    const test::FakeBackend absent(b);
    RnnConfig relu;
    relu.activation = Activation::Relu;
    const BackendState s = backendState(absent.availability(), absent, relu, {Mode::Inference});
    EXPECT_EQ(s.status, BackendStatus::Unavailable);
    EXPECT_TRUE(s.summary.startsWith(QStringLiteral("unavailable: no NVIDIA driver")));
    EXPECT_TRUE(s.summary.contains(QStringLiteral("requires activation=tanh; got relu")));
    EXPECT_EQ(s.reasons.size(), 2);
}

TEST(BackendState, PartlyEligibleNamesTheModes) {
    test::FakeBehaviour b = test::named("picky");
    b.refusesRelu = true;
    const test::FakeBackend picky(b);
    RnnConfig relu;
    relu.activation = Activation::Relu;
    const BackendState s = backendState({}, picky, relu, {Mode::Inference});
    EXPECT_EQ(s.status, BackendStatus::Ineligible);
    EXPECT_EQ(s.reasons.size(), 1);
}

TEST(RunAction, IsDisabledWhileTheConfigurationIsInvalid) {
    const auto registry = fakeRegistry();
    QTemporaryDir dir;
    MainWindowOptions options;
    options.settingsPath = dir.filePath(QStringLiteral("settings.ini"));
    options.autosaveDir = dir.filePath(QStringLiteral("autosave"));
    options.interactive = false;
    options.backends = &registry;
    MainWindow window(options);
    window.configPanel()->setPlan(validPlan());
    EXPECT_TRUE(window.runAction()->isEnabled());
    auto* layers = qobject_cast<QSpinBox*>(window.configPanel()->fieldEditor(QStringLiteral("layers")));
    layers->setValue(0);
    EXPECT_FALSE(window.runAction()->isEnabled());
    EXPECT_FALSE(window.startSweep());
    layers->setValue(1);
    EXPECT_TRUE(window.runAction()->isEnabled());
}

} // namespace
} // namespace rnnprof::gui

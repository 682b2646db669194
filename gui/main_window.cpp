#include "gui/main_window.h"
#include "cli/path_arguments.h"
#include "gui/window_geometry.h"

#include "engine/cpu/cpu_libraries.h"
#include "engine/error.h"
#include "gui/app_palette.h"
#include "gui/app_settings.h"
#include "gui/autosave.h"
#include "gui/busy_banner.h"
#include "gui/charts/chart_page.h"
#include "gui/charts/chart_view.h"
#include "gui/config/config_panel.h"
#include "gui/leftover_journal.h"
#include "gui/models/chart_catalog.h"
#include "gui/models/chart_selection.h"
#include "gui/models/result_store.h"
#include "gui/results_model.h"
#include "gui/results_view.h"
#include "gui/sweep_controller.h"
#include "gui/sweep_progress.h"
#include "profiling/files/result_files.h"
#include "profiling/measure/eta.h"
#include "profiling/measure/host_info.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QToolBar>
#include <QToolButton>

// Resources of a static library must be registered explicitly; outside any namespace by Qt's rules.
static void initRnnprofResources() {
    Q_INIT_RESOURCE(rnnprof);
}

namespace rnnprof::gui {
namespace {

// Charts redraw at most this often while points arrive: the window shares the cores with the
// sweep it measures, and a redraw of every chart costs milliseconds (its CPU share is in the
// progress bar's tooltip).
constexpr int kRefreshMs = 250;
// Widths that let the window fit a 1024x640 screen with the dock shown (the full host line is the
// label's tooltip).
constexpr int kDockMinimumWidth = 260;
constexpr int kHostLabelWidth = 360;
constexpr int kDockMaxPercent = 40;

// The host line of the status bar, each part elided on its own so that the GPU's state is always
// in it, whatever the length of the CPU's name (the whole description is the label's tooltip).
QString shortHostLine(const HostInfo& host, const QFontMetrics& metrics) {
    constexpr int kCpuWidth = 150;
    const QString cpu = metrics.elidedText(QString::fromStdString(host.cpuModel), Qt::ElideRight, kCpuWidth);
    const QString cores = QStringLiteral(" · %1 cores · ").arg(host.cpuCores);
    const QString gpu = QStringLiteral("GPU: ") + QString::fromStdString(host.gpu.summary());
    const int gpuWidth = kHostLabelWidth - metrics.horizontalAdvance(cpu + cores);
    return cpu + cores + metrics.elidedText(gpu, Qt::ElideRight, gpuWidth);
}

} // namespace

MainWindow::MainWindow(MainWindowOptions options, QWidget* parent)
    : QMainWindow(parent), m_options(std::move(options)),
      m_backends(m_options.backends ? *m_options.backends : builtinBackends()),
      m_settings(std::make_unique<AppSettings>(m_options.settingsPath)) {
    initRnnprofResources();
    setWindowTitle(QStringLiteral("rnnprof"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/rnnprof.svg")));
    setObjectName(QStringLiteral("mainWindow"));
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

    m_store = new ResultStore(this);
    m_model = new ResultsModel(*m_store, this);
    m_controller = new SweepController(m_backends, this);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("chartTabs"));
    m_tabs->setDocumentMode(true);
    for (const ChartPageSpec& spec : chartCatalog()) {
        auto* page = new ChartPage(spec, *m_store, m_tabs);
        m_tabs->addTab(page, spec.title);
        m_pages.push_back(page);
        connect(page, &ChartPage::pointClicked, this, &MainWindow::selectPoint);
        for (ChartView* view : page->views())
            connect(view, &ChartView::exportRequested, this, [this, view] { exportChartDialog(view); });
    }
    m_pageDirty.assign(m_pages.size(), false);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] { refreshVisibleCharts(); });

    m_resultsView = new ResultsView(*m_model, this);
    for (ChartPage* page : m_pages)
        page->setShownPoints([this] { return m_resultsView->shownPoints(); });
    connect(m_resultsView, &ResultsView::filterChanged, this, &MainWindow::scheduleRefresh);
    connect(m_resultsView, &ResultsView::pointActivated, this, [this](const PointRef& ref) {
        for (ChartPage* page : m_pages)
            page->setSelectedPoint(ref);
    });

    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->setObjectName(QStringLiteral("centralSplitter"));
    m_splitter->addWidget(m_tabs);
    m_splitter->addWidget(m_resultsView);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({620, 280}); // until the user's own split is restored
    setCentralWidget(m_splitter);

    m_panel = new ConfigPanel(m_backends, this);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_panel);
    scroll->setWidgetResizable(true);
    // Narrower than the panel would like, so that the window fits a 1024x640 screen: the panel
    // scrolls both ways instead (resizeDocks below gives it its width where there is room).
    scroll->setMinimumWidth(kDockMinimumWidth);
    m_dock = new QDockWidget(QStringLiteral("Configuration"), this);
    m_dock->setObjectName(QStringLiteral("configDock"));
    m_dock->setWidget(scroll);
    m_dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable |
                        QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, m_dock);
    resizeDocks({m_dock}, {m_panel->sizeHint().width() + 24}, Qt::Horizontal);

    m_progress = new SweepProgressView(this);
    statusBar()->addWidget(m_progress, 1);
    connect(statusBar(), &QStatusBar::messageChanged, m_progress,
            [this](const QString& message) { m_progress->setCovered(!message.isEmpty()); });
    // Permanent: a status-bar message neither hides the warning nor is drawn over it.
    m_busy = new BusyBanner(this);
    statusBar()->addPermanentWidget(m_busy);
    const HostInfo host = currentHost();
    m_hostLabel = new QLabel(this);
    m_hostLabel->setObjectName(QStringLiteral("hostStatus"));
    m_hostLabel->setText(shortHostLine(host, m_hostLabel->fontMetrics()));
    m_hostLabel->setToolTip(QString::fromStdString(describeHost(host)));
    statusBar()->addPermanentWidget(m_hostLabel);

    createActions();
    createMenus();

    connect(m_panel, &ConfigPanel::validityChanged, this, &MainWindow::updateActions);
    connect(m_panel, &ConfigPanel::planChanged, this, &MainWindow::updateEstimate);
    connect(m_controller, &SweepController::runningChanged, this, &MainWindow::updateActions);
    connect(m_controller, &SweepController::started, this, &MainWindow::onSweepStarted);
    connect(m_controller, &SweepController::pointFinished, this, &MainWindow::onPoint);
    connect(m_controller, &SweepController::progressChanged, m_progress, &SweepProgressView::update);
    connect(m_controller, &SweepController::finished, this, &MainWindow::onSweepFinished);
    connect(m_controller, &SweepController::failed, this, [this](const QString& message) {
        m_searchReference = -1;
        m_progress->end();
        m_busy->stopWatching();
        report(QStringLiteral("The sweep could not start"), message);
    });
    connect(m_controller, &SweepController::fileProblem, this,
            [this](const QString& message) { statusBar()->showMessage(message, 10000); });

    m_refreshTimer.setSingleShot(true);
    m_refreshTimer.setInterval(kRefreshMs);
    connect(&m_refreshTimer, &QTimer::timeout, this, &MainWindow::refreshVisibleCharts);
    connect(m_store, &ResultStore::resultsReset, this, [this] {
        m_busy->showResults(m_store->results());
        m_resultsView->setSourceColumnVisible(m_store->count() > 1);
        scheduleRefresh();
        updateActions();
    });
    connect(m_store, &ResultStore::pointAppended, this, &MainWindow::scheduleRefresh);
    connect(m_store, &ResultStore::resultUpdated, this, &MainWindow::scheduleRefresh);

    resize(initialWindowSize(kPreferredWindowSize, screen() ? screen()->availableGeometry() : QRect()));
    restoreSettings();
    m_resultsView->setSourceColumnVisible(false);
    updateActions();
    setUpResultFiles();
    updateEstimate();
}

MainWindow::~MainWindow() {
    m_controller->shutdown();
}

QString MainWindow::autosaveDir() const {
    return m_options.autosaveDir.isEmpty() ? defaultAutosaveDir() : m_options.autosaveDir;
}

void MainWindow::createActions() {
    auto make = [this](const QString& text, QStyle::StandardPixmap icon, const QKeySequence& key, auto slot) {
        auto* a = new QAction(style()->standardIcon(icon), text, this);
        if (!key.isEmpty()) a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    m_run = make(QStringLiteral("&Run Sweep"), QStyle::SP_MediaPlay, QKeySequence(Qt::Key_F5),
                 [this] { startSweep(); });
    m_run->setObjectName(QStringLiteral("actionRun"));
    m_run->setToolTip(QStringLiteral("Run the configured sweep (F5)"));
    m_stop = make(QStringLiteral("&Stop"), QStyle::SP_MediaStop, QKeySequence(Qt::Key_Escape),
                  [this] { stopSweep(); });
    m_stop->setObjectName(QStringLiteral("actionStop"));
    m_stop->setToolTip(
        QStringLiteral("Stop now: the run in progress is abandoned (a GPU run finishes first), "
                       "the runs measured so far are kept (Esc)"));
    m_open = make(QStringLiteral("&Open Results…"), QStyle::SP_DialogOpenButton, QKeySequence::Open,
                  [this] { openDialog(false); });
    m_add = make(QStringLiteral("&Add Results for Comparison…"), QStyle::SP_FileDialogNewFolder,
                 QKeySequence(QStringLiteral("Ctrl+Shift+O")), [this] { openDialog(true); });
    m_save = make(QStringLiteral("&Save Results…"), QStyle::SP_DialogSaveButton, QKeySequence::Save,
                  [this] { saveDialog(); });
    m_exportCsv = make(QStringLiteral("Export &CSV…"), QStyle::SP_FileIcon,
                       QKeySequence(QStringLiteral("Ctrl+E")), [this] { exportCsvDialog(); });
    m_exportTrace = make(QStringLiteral("Export Chrome &Trace…"), QStyle::SP_FileIcon, {},
                         [this] { exportTraceDialog(); });
    m_exportChart =
        make(QStringLiteral("Export Current C&hart…"), QStyle::SP_FileLinkIcon,
             QKeySequence(QStringLiteral("Ctrl+Shift+E")), [this] { exportCurrentChartDialog(); });
    m_exportAll = make(QStringLiteral("Export &All Charts…"), QStyle::SP_DirIcon, {},
                       [this] { exportAllChartsDialog(); });
    m_compareReference = make(QStringLiteral("Compare with &Reference GPU (NVIDIA H100)"),
                              QStyle::SP_ComputerIcon, {}, [this] { compareWithReference(); });
    m_compareReference->setObjectName(QStringLiteral("actionCompareReference"));
    m_compareReference->setToolTip(
        QStringLiteral("Overlay rnnprof's own measurements of this model on an NVIDIA H100 (reference data "
                       "from another machine) and show where its GPU overtakes the CPU"));
    m_findCrossover = make(QStringLiteral("Find &Crossover with Reference GPU"),
                           QStyle::SP_FileDialogContentsView, {}, [this] { findCrossoverWithReference(); });
    m_findCrossover->setObjectName(QStringLiteral("actionFindCrossover"));
    m_findCrossover->setToolTip(
        QStringLiteral("Measure only the batch sizes needed to find where the reference H100 overtakes this "
                       "machine's fastest CPU backend, for the configured model and first sequence length"));
    m_close = make(QStringLiteral("C&lose Results"), QStyle::SP_DialogCloseButton, {}, [this] {
        if (!m_controller->isRunning()) m_store->clear();
    });
    m_quit =
        make(QStringLiteral("&Quit"), QStyle::SP_DialogCloseButton, QKeySequence::Quit, [this] { close(); });
    m_dark = new QAction(QStringLiteral("&Dark Palette"), this);
    m_dark->setCheckable(true);
    connect(m_dark, &QAction::toggled, this, [this](bool on) {
        setDarkPalette(on);
        m_settings->setFlag(QStringLiteral("view/dark"), on);
    });
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(QStringLiteral("&File"));
    file->addAction(m_open);
    file->addAction(m_add);
    file->addAction(m_compareReference);
    m_recentMenu = file->addMenu(QStringLiteral("Open &Recent"));
    file->addSeparator();
    file->addAction(m_save);
    file->addAction(m_exportCsv);
    file->addAction(m_exportTrace);
    file->addSeparator();
    file->addAction(m_exportChart);
    file->addAction(m_exportAll);
    file->addSeparator();
    file->addAction(m_close);
    file->addAction(m_quit);
    QMenu* sweep = menuBar()->addMenu(QStringLiteral("&Sweep"));
    sweep->addAction(m_run);
    sweep->addAction(m_findCrossover);
    sweep->addAction(m_stop);
    QMenu* view = menuBar()->addMenu(QStringLiteral("&View"));
    view->addAction(m_dock->toggleViewAction());
    view->addAction(m_dark);
    QMenu* help = menuBar()->addMenu(QStringLiteral("&Help"));
    help->addAction(QStringLiteral("&About rnnprof"), this, &MainWindow::showAbout);
    help->addAction(QStringLiteral("About &Qt"), qApp, &QApplication::aboutQt);

    QToolBar* bar = addToolBar(QStringLiteral("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(m_run);
    bar->addAction(m_stop);
    bar->addSeparator();
    bar->addAction(m_open);
    bar->addAction(m_save);
    bar->addAction(m_exportCsv);
    bar->addAction(m_exportChart);
    // Next to the chart tabs, where the speedup view is.
    auto* compare = new QToolButton(m_tabs);
    compare->setObjectName(QStringLiteral("compareReferenceButton"));
    compare->setDefaultAction(m_compareReference);
    compare->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    compare->setAutoRaise(true);
    m_tabs->setCornerWidget(compare, Qt::TopRightCorner);
    rebuildRecentMenu();
}

void MainWindow::updateActions() {
    const bool running = m_controller->isRunning();
    const bool haveResults = !m_store->empty();
    m_run->setEnabled(!running && m_panel->isValid() && !m_controller->isShutDown());
    m_findCrossover->setEnabled(m_run->isEnabled());
    m_run->setToolTip(m_panel->isValid()
                          ? QStringLiteral("Run the configured sweep (F5)")
                          : QStringLiteral("Fix the marked fields of the configuration first"));
    m_stop->setEnabled(running);
    m_panel->setEnabled(!running);
    m_open->setEnabled(!running);
    m_close->setEnabled(!running && haveResults);
    for (QAction* a : {m_save, m_exportCsv, m_exportTrace, m_exportChart, m_exportAll, m_rename})
        if (a) a->setEnabled(haveResults);
}

bool MainWindow::startSweep() {
    if (!m_panel->isValid() || m_controller->isRunning()) return false;
    const QString dir = autosaveDir();
    pruneAutosaves(dir);
    return startSweepInto(m_panel->plan(), newAutosavePath(dir, m_panel->plan()), false);
}

bool MainWindow::startSweepInto(const SweepPlan& plan, const QString& path, bool resume) {
    m_liveIndex = -1;
    m_store->clear();
    if (!m_controller->start(plan, path, resume)) return false;
    m_progress->begin();
    m_busy->startWatching(availableCpuCores(), plan.settings.threads);
    m_settings->setLastPlan(plan);
    statusBar()->clearMessage();
    return true;
}

void MainWindow::offerLeftoverJournals() {
    if (!m_options.interactive) return;
    for (const QString& journal : leftoverJournals(autosaveDir())) {
        SweepResult earlier;
        try {
            earlier = loadResultFile(journal.toStdString());
        } catch (const Error& e) { // unreadable: not offered, kept for the user to look at
            statusBar()->showMessage(QString::fromStdString(e.what()), 10000);
            continue;
        }
        const LeftoverChoice choice = askAboutLeftoverJournal(this, journal, int(earlier.points.size()),
                                                              int(points(earlier.plan).size()));
        if (choice == LeftoverChoice::Discard) {
            QFile::remove(journal);
        } else if (choice == LeftoverChoice::Resume) {
            // The journal's own plan, not the panel's reading of it: resuming needs the same plan.
            m_panel->setPlan(earlier.plan);
            const QString result = journal.chopped(int(qstrlen(".journal")));
            if (startSweepInto(earlier.plan, result, true)) return;
            report(QStringLiteral("The sweep could not be resumed"), journal);
            return;
        } else {
            statusBar()->showMessage(
                QStringLiteral("Kept %1; open it with File > Open to see its points").arg(journal), 10000);
        }
    }
}

void MainWindow::stopSweep() {
    if (!m_controller->isRunning()) return;
    m_controller->stop();
    statusBar()->showMessage(QStringLiteral("Stopping: the run in progress is abandoned (a GPU run finishes "
                                            "first), the runs measured so far are kept…"));
}

void MainWindow::onSweepStarted(const SweepResult& header) {
    SweepResult live = header;
    // Named as its file will be wherever it is opened again; "(this sweep)" only without a file.
    const QString path = m_controller->resultPath();
    live.label = path.isEmpty()
                     ? header.host.hostname + " (this sweep)"
                     : cli::readableArgument(
                           cli::argumentFromBytes(resultLabel(cli::pathFromArgument(path), header.host)))
                           .toStdString();
    m_liveIndex = m_store->beginLive(std::move(live));
}

void MainWindow::onPoint(const PointResult& point) {
    m_store->appendPoint(m_liveIndex, point);
}

void MainWindow::onSweepFinished(const SweepResult& result) {
    m_progress->end();
    m_busy->stopWatching();
    m_store->finishLive(m_liveIndex, result);
    if (m_searchReference >= 0) return finishCrossoverSearch(result);
    m_busy->showResults(m_store->results()); // what the runner recorded before and during it
    updateEstimate();
    int ok = 0;
    QString firstReason;
    for (const auto& p : result.points) {
        if (p.ok())
            ++ok;
        else if (firstReason.isEmpty())
            firstReason = QString::fromStdString(p.reason);
    }
    const int total = static_cast<int>(points(result.plan).size());
    QString text =
        result.complete
            ? QStringLiteral("Sweep finished: %1 of %2 points measured").arg(ok).arg(total)
            : QStringLiteral("Sweep stopped: %1 points done of %2, %3 measured; the rest was not run")
                  .arg(result.points.size())
                  .arg(total)
                  .arg(ok);
    if (ok == 0 && !result.points.empty()) text += QStringLiteral(" — no point succeeded: ") + firstReason;
    if (!m_controller->resultPath().isEmpty()) {
        text += QStringLiteral(" — kept in ") + m_controller->resultPath();
        m_settings->addRecentFile(m_controller->resultPath());
        rebuildRecentMenu();
    }
    statusBar()->showMessage(text);
    scheduleRefresh(); // the visible page now, the others when they are shown
}

void MainWindow::selectPoint(const PointRef& ref) {
    m_resultsView->selectPoint(ref);
    for (ChartPage* page : m_pages)
        page->setSelectedPoint(ref);
    if (const PointResult* p = m_store->point(ref))
        statusBar()->showMessage(
            QStringLiteral("Selected %1 — its phases and sub-steps are in the Breakdown tab")
                .arg(pointTitle(*p)),
            8000);
}

void MainWindow::updateEstimate() {
    if (m_controller->isRunning()) return;
    if (!m_panel->isValid()) return m_progress->showEstimate(-1);
    const SweepPlan plan = m_panel->plan();
    const EtaRates rates = defaultEtaRates(plan, availableCpuCores(), [this](const std::string& id) {
        const Backend* backend = m_backends.find(id);
        return backend && backend->availability().available;
    });
    // What other processes take now: sampled at most once a second (a few hundred /proc reads).
    if (m_idleLoad.secondsSinceLastSample() >= 1.0)
        if (auto load = m_idleLoad.sample()) m_lastIdleLoad = *load;
    const double slowdown =
        m_lastIdleLoad ? busySlowdown(*m_lastIdleLoad, availableCpuCores(), plan.settings.threads) : 1.0;
    m_progress->showEstimate(estimateSeconds(plan, points(plan), rates), slowdown);
}

void MainWindow::scheduleRefresh() {
    std::fill(m_pageDirty.begin(), m_pageDirty.end(), true);
    if (!m_refreshTimer.isActive()) m_refreshTimer.start();
}

void MainWindow::refreshVisibleCharts() {
    const int current = m_tabs->currentIndex();
    if (current < 0 || current >= static_cast<int>(m_pages.size()) || !m_pageDirty[std::size_t(current)])
        return;
    m_pages[std::size_t(current)]->refresh();
    m_pageDirty[std::size_t(current)] = false;
}

void MainWindow::refreshChartsNow() {
    m_refreshTimer.stop();
    for (std::size_t i = 0; i < m_pages.size(); ++i) {
        m_pages[i]->refresh();
        m_pageDirty[i] = false;
    }
}

void MainWindow::report(const QString& title, const QString& text, bool error) {
    m_lastMessage = text;
    if (!m_options.interactive) return;
    if (error)
        QMessageBox::warning(this, title, text);
    else
        QMessageBox::information(this, title, text);
}

void MainWindow::restoreSettings() {
    if (const auto plan = m_settings->lastPlan()) m_panel->setPlan(*plan);
    restoreGeometry(m_settings->bytes(QStringLiteral("window/geometry")));
    restoreState(m_settings->bytes(QStringLiteral("window/state")));
    m_splitter->restoreState(m_settings->bytes(QStringLiteral("window/splitter")));
    m_dark->setChecked(m_settings->flag(QStringLiteral("view/dark")));
}

void MainWindow::saveSettings() {
    m_settings->setBytes(QStringLiteral("window/geometry"), saveGeometry());
    m_settings->setBytes(QStringLiteral("window/state"), saveState());
    m_settings->setBytes(QStringLiteral("window/splitter"), m_splitter->saveState());
    m_settings->setLastPlan(m_panel->plan());
    m_settings->sync();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    // Stops at the session's next check inside the run (or between runs) and joins the engine
    // thread; the journal stays on disk.
    m_controller->shutdown();
    saveSettings();
    event->accept();
}

void MainWindow::resizeEvent(QResizeEvent* event) {
    QMainWindow::resizeEvent(event);
    // On a small screen the configuration scrolls rather than squeezing the charts: the docked
    // panel takes at most this share of the window's width.
    const int most = width() * kDockMaxPercent / 100;
    if (m_dock && m_dock->isVisible() && !m_dock->isFloating() && m_dock->width() > most)
        resizeDocks({m_dock}, {most}, Qt::Horizontal);
}

void MainWindow::showAbout() {
    QMessageBox::about(
        this, QStringLiteral("About rnnprof"),
        QStringLiteral("<b>rnnprof</b> %1<br>Profiles LSTM and GRU networks across CPU and GPU "
                       "backends: time per phase, kernels, memory and where one backend overtakes "
                       "another.<br><br><pre>%2</pre>")
            .arg(QString::fromStdString(currentHost().rnnprofVersion),
                 QString::fromStdString(describeHost(currentHost())).toHtmlEscaped()));
}

} // namespace rnnprof::gui

// MainWindow's file operations: opening and overlaying results, saving, CSV / Chrome trace / chart
// exports, recent files, and their dialogs. Failures are reported with the file and the reason and
// leave the window usable.
#include "gui/main_window.h"

#include "cli/path_arguments.h"
#include "engine/cpu/cpu_libraries.h"
#include "gui/app_settings.h"
#include "gui/busy_banner.h"
#include "gui/charts/chart_export.h"
#include "gui/charts/chart_page.h"
#include "gui/charts/chart_renderer.h"
#include "gui/charts/chart_view.h"
#include "gui/charts/export_footer.h"
#include "gui/config/config_panel.h"
#include "gui/empty_state.h"
#include "gui/models/result_store.h"
#include "gui/reference_results.h"
#include "gui/sweep_controller.h"
#include "gui/sweep_progress.h"
#include "profiling/analysis/crossover.h"
#include "profiling/files/result_files.h"

#include <QAction>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenu>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <system_error>

namespace rnnprof::gui {
namespace {

const QString kResultFilter = QStringLiteral("rnnprof results (*.json *.journal);;All files (*)");
const QString kImageFilter =
    QStringLiteral("PNG image (*.png);;SVG vector image (*.svg);;PDF document (*.pdf)");

QString withSuffix(QString path, const QString& selectedFilter) {
    if (!QFileInfo(path).suffix().isEmpty() || path.isEmpty()) return path;
    const auto open = selectedFilter.indexOf(QStringLiteral("*."));
    if (open < 0) return path;
    return path + selectedFilter.mid(open + 1, selectedFilter.indexOf(QLatin1Char(')'), open) - open - 1);
}

// The first open result other than `except` that has a fastest-CPU side, or -1.
int firstOtherWithFastestCpu(const ResultStore& store, int except) {
    for (int i = 0; i < store.count(); ++i) {
        if (i == except) continue;
        const auto choices = sideChoices(store.results()[std::size_t(i)]);
        if (std::find(choices.begin(), choices.end(), std::string(kFastestCpu)) != choices.end()) return i;
    }
    return -1;
}

// The last result of the user's own: neither a reference nor a prediction; -1 when none is open.
int lastOwnResult(const ResultStore& store) {
    int own = -1;
    for (int i = 0; i < store.count(); ++i) {
        const SweepResult& r = store.results()[std::size_t(i)];
        const QString label = QString::fromStdString(r.label);
        if (label != referenceLabel() && label != predictedReferenceLabel() && !isPredictedResult(r)) own = i;
    }
    return own;
}

// Whether the file named by `path` (cli/path_arguments.h: every byte of its name kept) exists;
// QFileInfo would look for the name with its bytes that are not UTF-8 replaced.
bool fileExists(const QString& path) {
    std::error_code error;
    return std::filesystem::exists(cli::pathFromArgument(path), error);
}

// Text for people: a message naming `path` or carrying bytes of it (an exception's what()).
QString readable(const QString& path) {
    return QDir::toNativeSeparators(cli::readableArgument(path));
}
QString readable(const char* bytes) {
    return cli::readableArgument(cli::argumentFromBytes(bytes));
}

} // namespace

int MainWindow::openFiles(const QStringList& paths, bool add) {
    if (!add && m_controller->isRunning()) {
        report(QStringLiteral("A sweep is running"),
               QStringLiteral(
                   "Stop the sweep before opening other results, or use Add Results for Comparison."));
        return 0;
    }
    std::vector<SweepResult> loaded;
    QStringList opened;
    QStringList problems;
    for (const QString& path : paths) {
        try {
            SweepResult r = loadResultFile(cli::pathFromArgument(path));
            // The label holds the file name's bytes; legends, tables and exports need text.
            r.label = readable(r.label.c_str()).toStdString();
            if (const QString alias = m_settings->resultAlias(resultIdentity(r)); !alias.isEmpty())
                r.label = alias.toStdString();
            loaded.push_back(std::move(r));
            opened << path;
            m_settings->addRecentFile(path);
        } catch (const std::exception& e) {
            problems << QStringLiteral("%1: %2").arg(readable(path), readable(e.what()));
        }
    }
    rebuildRecentMenu();
    if (!loaded.empty()) {
        if (add) {
            std::vector<SweepResult> all = m_store->results();
            for (auto& r : loaded)
                all.push_back(std::move(r));
            m_store->setResults(std::move(all));
        } else {
            m_store->setResults(std::move(loaded));
        }
        rememberOpenFiles(opened, add);
        refreshChartsNow();
        statusBar()->showMessage(QStringLiteral("Opened %1 result file(s), %2 points")
                                     .arg(paths.size() - problems.size())
                                     .arg(m_store->pointCount()),
                                 8000);
    }
    if (!problems.isEmpty())
        report(QStringLiteral("Could not open results"),
               QStringLiteral("These files could not be opened:\n\n") +
                   problems.join(QStringLiteral("\n\n")));
    return static_cast<int>(paths.size() - problems.size());
}

bool MainWindow::compareWithReference() {
    QString why;
    std::optional<SweepResult> reference;
    // The model compared: that of the last open result of yours (neither a reference nor a
    // prediction); the configuration panel's only when none is open, and the message says so.
    const int own = lastOwnResult(*m_store);
    const SweepPlan plan = own >= 0 ? m_store->results()[std::size_t(own)].plan : m_panel->plan();
    try {
        reference = referenceFor(plan, why);
    } catch (const std::exception& e) {
        why = QString::fromStdString(e.what());
    }
    // Where the references did not measure this model or grid, predicted times fill in, labelled so.
    std::optional<SweepResult> predicted;
    if (!reference || !referenceCoversGrid(plan, *reference)) {
        QString whyNotPredicted;
        try {
            predicted = predictedReferenceFor(plan, whyNotPredicted);
        } catch (const std::exception& e) {
            whyNotPredicted = QString::fromStdString(e.what());
        }
        if (!reference && !predicted) {
            report(QStringLiteral("Compare with reference GPU"), why + QLatin1Char(' ') + whyNotPredicted);
            return false;
        }
    }
    if (!reference) return showPredictedReference(std::move(*predicted));
    if (predicted) addPredictedReference(std::move(*predicted));
    // Overlay it once: the same reference file already open is reused.
    const auto& open = m_store->results();
    int index = -1;
    for (int i = 0; i < m_store->count(); ++i) {
        const SweepResult& r = open[std::size_t(i)];
        if (r.label == reference->label && r.createdAt == reference->createdAt) index = i;
    }
    const std::string host = hostBrief(reference->host);
    const std::string when = reference->createdAt.substr(0, 10);
    if (index < 0) {
        m_store->add(std::move(*reference));
        index = m_store->count() - 1;
    }
    // The fastest CPU backend of the first other result with one, else the reference's own.
    const int other = firstOtherWithFastestCpu(*m_store, index);
    const int cpuResult = other >= 0 ? other : index;
    const bool single = m_store->count() == 1;
    for (int i = 0; i < static_cast<int>(m_pages.size()); ++i)
        if (m_pages[std::size_t(i)]->spec().id == QStringLiteral("speedup")) {
            m_pages[std::size_t(i)]->setPair(
                QString::fromUtf8(kFastestCpu.data(), qsizetype(kFastestCpu.size())), single ? -1 : cpuResult,
                QString::fromUtf8(kFastestGpu.data(), qsizetype(kFastestGpu.size())), single ? -1 : index);
            m_tabs->setCurrentIndex(i);
        }
    QString what = QStringLiteral("Added reference data from another machine: %1, measured on %2 on %3")
                       .arg(referenceLabel(), QString::fromStdString(host), QString::fromStdString(when));
    if (own < 0) what += QStringLiteral(" — for the configuration panel's model (no sweep of yours is open)");
    if (other < 0)
        what +=
            QStringLiteral(" — the Speedup tab shows the reference host's own CPU against its GPU: run or "
                           "open a sweep to see this machine's CPU");
    statusBar()->showMessage(what, 15000);
    return true;
}

bool MainWindow::findCrossoverWithReference() {
    const QString title = QStringLiteral("Find crossover with reference GPU");
    if (!m_panel->isValid() || m_controller->isRunning()) return false;
    SweepPlan plan = m_panel->plan();
    QString why;
    std::optional<SweepResult> reference;
    try {
        reference = referenceFor(plan, why);
    } catch (const std::exception& e) {
        why = QString::fromStdString(e.what());
    }
    if (!reference) {
        report(title, why);
        return false;
    }
    // The first mode, and the first sequence length of the plan the reference measured on a GPU;
    // the grid is the reference's batch sizes there.
    const Mode mode = plan.modes.front();
    std::vector<int> grid;
    for (int t : plan.seqLens) {
        for (const auto& [key, time] : sideTimes(*reference, kFastestGpu))
            if (std::get<0>(key) == mode && std::get<1>(key) == t) grid.push_back(std::get<2>(key));
        if (!grid.empty()) {
            plan.seqLens = {t};
            break;
        }
    }
    if (grid.empty()) {
        report(title, QStringLiteral("The reference GPU results of this model hold no %1 point at the "
                                     "configured sequence lengths: choose one they measured.")
                          .arg(QString::fromUtf8(toString(mode).data())));
        return false;
    }
    plan.modes = {mode};
    plan.batches = grid;
    std::vector<std::string> cpu; // fastest-cpu here: the configured CPU backends this machine runs
    for (const std::string& id : plan.backends)
        if (const Backend* b = m_backends.find(id); b && !b->isGpu() && b->availability().available)
            cpu.push_back(id);
    if (cpu.empty()) {
        report(title, QStringLiteral("Select a CPU backend this machine can run: the search sets the "
                                     "fastest of them against the reference GPU."));
        return false;
    }
    plan.backends = cpu;
    m_liveIndex = -1;
    m_store->clear();
    m_store->add(std::move(*reference));
    m_searchReference = 0;
    if (!m_controller->startCrossoverSearch(plan, m_store->results().front())) {
        m_searchReference = -1;
        return false;
    }
    m_progress->begin();
    m_busy->startWatching(availableCpuCores(), plan.settings.threads);
    statusBar()->showMessage(QStringLiteral("Searching the crossover at T=%1 over the reference's %2 batch "
                                            "sizes…")
                                 .arg(plan.seqLens.front())
                                 .arg(grid.size()));
    return true;
}

void MainWindow::finishCrossoverSearch(const SweepResult& result) {
    const int reference = m_searchReference;
    m_searchReference = -1;
    for (ChartPage* page : m_pages)
        if (page->spec().id == QStringLiteral("speedup")) {
            page->setPair(QString::fromUtf8(kFastestCpu.data(), qsizetype(kFastestCpu.size())), m_liveIndex,
                          QString::fromUtf8(kFastestGpu.data(), qsizetype(kFastestGpu.size())), reference);
            m_tabs->setCurrentWidget(page);
        }
    QString text = QStringLiteral("Crossover search stopped before it measured a point");
    if (!result.crossovers.empty()) {
        const CrossoverRecord& c = result.crossovers.front();
        text = QStringLiteral("%1 over %2, %3 T=%4: %5 — measured %6 of the reference's %7 batch sizes")
                   .arg(QString::fromStdString(c.challenger), QString::fromStdString(c.baseline),
                        QString::fromUtf8(toString(c.mode).data()))
                   .arg(c.seqLen)
                   .arg(QString::fromStdString(c.verdict))
                   .arg(c.measuredBatches)
                   .arg(c.gridBatches);
    }
    statusBar()->showMessage(text);
    scheduleRefresh();
}

int MainWindow::chooseResult(const QString& purpose, int index) {
    if (index >= 0) return index < m_store->count() ? index : -1;
    if (m_store->count() == 1) return 0;
    if (m_store->empty()) return -1;
    if (!m_options.interactive) return m_liveIndex >= 0 ? m_liveIndex : 0;
    QStringList labels;
    for (const auto& r : m_store->results())
        labels << QString::fromStdString(r.label);
    bool ok = false;
    const QString choice =
        QInputDialog::getItem(this, purpose, QStringLiteral("Which results?"), labels, 0, false, &ok);
    return ok ? static_cast<int>(labels.indexOf(choice)) : -1;
}

bool MainWindow::saveResult(const QString& path, int index) {
    const int i = chooseResult(QStringLiteral("Save results"), index);
    if (i < 0) return false;
    try {
        SweepResult copy = m_store->results()[std::size_t(i)];
        saveResultJson(cli::pathFromArgument(path), copy);
        m_settings->addRecentFile(path);
        rebuildRecentMenu();
        statusBar()->showMessage(QStringLiteral("Saved %1").arg(readable(path)), 8000);
        return true;
    } catch (const std::exception& e) {
        report(QStringLiteral("Could not save"), QString::fromStdString(e.what()));
        return false;
    }
}

bool MainWindow::exportCsv(const QString& path, int index) {
    // Several results and none named: all of them in one file, a source column naming each row's.
    const bool combined = index < 0 && m_store->count() > 1;
    const int i = combined ? -1 : chooseResult(QStringLiteral("Export CSV"), index);
    if (!combined && i < 0) return false;
    try {
        if (combined)
            saveCombinedCsv(cli::pathFromArgument(path), m_store->results());
        else
            saveResultCsv(cli::pathFromArgument(path), m_store->results()[std::size_t(i)]);
        statusBar()->showMessage(
            combined ? QStringLiteral("Exported %1 results to %2").arg(m_store->count()).arg(readable(path))
                     : QStringLiteral("Exported %1").arg(readable(path)),
            8000);
        return true;
    } catch (const std::exception& e) {
        report(QStringLiteral("Could not export CSV"), QString::fromStdString(e.what()));
        return false;
    }
}

bool MainWindow::exportTrace(const QString& path, int index) {
    const int i = chooseResult(QStringLiteral("Export Chrome trace"), index);
    if (i < 0) return false;
    try {
        saveChromeTrace(cli::pathFromArgument(path), m_store->results()[std::size_t(i)]);
        statusBar()->showMessage(
            QStringLiteral("Exported %1 (open it in ui.perfetto.dev or chrome://tracing)")
                .arg(readable(path)),
            8000);
        return true;
    } catch (const std::exception& e) {
        report(QStringLiteral("Could not export the trace"), QString::fromStdString(e.what()));
        return false;
    }
}

bool MainWindow::exportChartFile(ChartView& view, const QString& path) {
    const auto format = formatForPath(path);
    if (!format) {
        report(QStringLiteral("Could not export the chart"),
               QStringLiteral("%1: the file name must end in .png, .svg or .pdf").arg(readable(path)));
        return false;
    }
    try {
        exportChart(view.chartData(), view.currentStyle(), path, *format,
                    view.size().expandedTo(QSize(800, 500)),
                    exportFooter(m_store->results(), QDateTime::currentDateTimeUtc()), view.viewState());
        statusBar()->showMessage(QStringLiteral("Exported %1").arg(readable(path)), 8000);
        return true;
    } catch (const std::exception& e) {
        report(QStringLiteral("Could not export the chart"), QString::fromStdString(e.what()));
        return false;
    }
}

QStringList MainWindow::exportAllCharts(const QString& dir, const QString& format) {
    QStringList written;
    const auto f = formatForPath(QStringLiteral("x.") + format);
    std::error_code made;
    if (f) std::filesystem::create_directories(cli::pathFromArgument(dir), made);
    if (!f || made) {
        report(QStringLiteral("Could not export the charts"),
               QStringLiteral("cannot write %1 files into %2%3")
                   .arg(format, readable(dir),
                        made ? QStringLiteral(": ") + QString::fromStdString(made.message()) : QString()));
        return written;
    }
    refreshChartsNow();
    const QString footer = exportFooter(m_store->results(), QDateTime::currentDateTimeUtc());
    try {
        for (ChartPage* page : m_pages)
            for (ChartView* view : page->views()) {
                const QString name =
                    view->objectName().section(QLatin1Char('-'), 1) + QLatin1Char('.') + format;
                const QString path = dir + QLatin1Char('/') + name;
                exportChart(view->chartData(), view->currentStyle(), path, *f, kExportSize, footer,
                            view->viewState(), LinkAtPath::Replace);
                written << path;
            }
        statusBar()->showMessage(
            QStringLiteral("Exported %1 charts to %2").arg(written.size()).arg(readable(dir)), 8000);
    } catch (const std::exception& e) {
        report(QStringLiteral("Could not export the charts"), QString::fromStdString(e.what()));
    }
    return written;
}

void MainWindow::rebuildRecentMenu() {
    if (!m_recentMenu) return;
    m_recentMenu->clear();
    const QStringList files = m_settings->recentFiles();
    for (const QString& path : files) {
        m_recentMenu->addAction(readable(path), this, [this, path] {
            if (!fileExists(path)) {
                m_settings->removeRecentFile(path);
                rebuildRecentMenu();
                report(QStringLiteral("Could not open results"),
                       QStringLiteral("%1 no longer exists").arg(readable(path)));
                return;
            }
            openFiles({path}, false);
        });
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

void MainWindow::openDialog(bool add) {
    const QStringList paths = QFileDialog::getOpenFileNames(
        this,
        add ? QStringLiteral("Add results for comparison") : QStringLiteral("Open results (several overlay)"),
        QString(), kResultFilter);
    QStringList arguments;
    for (const QString& path : paths)
        arguments << cli::argumentFromDecodedPath(path);
    if (!arguments.isEmpty()) openFiles(arguments, add);
}

void MainWindow::saveDialog() {
    QString filter;
    const QString path =
        QFileDialog::getSaveFileName(this, QStringLiteral("Save results"), QStringLiteral("results.json"),
                                     QStringLiteral("JSON (*.json)"), &filter);
    if (!path.isEmpty()) saveResult(withSuffix(cli::argumentFromDecodedPath(path), filter));
}

void MainWindow::exportCsvDialog() {
    QString filter;
    const QString path =
        QFileDialog::getSaveFileName(this, QStringLiteral("Export CSV"), QStringLiteral("results.csv"),
                                     QStringLiteral("CSV (*.csv)"), &filter);
    if (!path.isEmpty()) exportCsv(withSuffix(cli::argumentFromDecodedPath(path), filter));
}

void MainWindow::exportTraceDialog() {
    QString filter;
    const QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Export Chrome trace"),
                                                      QStringLiteral("trace.json"),
                                                      QStringLiteral("Chrome trace JSON (*.json)"), &filter);
    if (!path.isEmpty()) exportTrace(withSuffix(cli::argumentFromDecodedPath(path), filter));
}

void MainWindow::exportChartDialog(ChartView* view) {
    if (!view) return;
    QString filter;
    const QString name = view->objectName().section(QLatin1Char('-'), 1) + QStringLiteral(".png");
    const QString path =
        QFileDialog::getSaveFileName(this, QStringLiteral("Export chart"), name, kImageFilter, &filter);
    if (!path.isEmpty()) exportChartFile(*view, withSuffix(cli::argumentFromDecodedPath(path), filter));
}

void MainWindow::exportCurrentChartDialog() {
    auto* page = qobject_cast<ChartPage*>(m_tabs->currentWidget());
    if (!page || page->views().empty()) return;
    QString filter;
    const QString path =
        QFileDialog::getSaveFileName(this, QStringLiteral("Export chart"),
                                     page->spec().id + QStringLiteral(".png"), kImageFilter, &filter);
    if (!path.isEmpty()) exportCurrentChart(withSuffix(cli::argumentFromDecodedPath(path), filter));
}

bool MainWindow::exportCurrentChart(const QString& path) {
    auto* page = qobject_cast<ChartPage*>(m_tabs->currentWidget());
    if (!page || page->views().empty()) return false;
    const auto format = formatForPath(path);
    if (!format) {
        report(QStringLiteral("Could not export the chart"),
               QStringLiteral("%1: the file name must end in .png, .svg or .pdf").arg(readable(path)));
        return false;
    }
    refreshChartsNow();
    std::vector<ChartData> charts;
    std::vector<ChartViewState> states; // what the page shows: hidden series, zoom, log axes
    QSize shown(0, 0);
    const bool sideBySide = page->spec().sideBySide;
    for (ChartView* view : page->views()) {
        charts.push_back(view->chartData());
        states.push_back(view->viewState());
        const QSize s = view->size();
        shown = sideBySide ? QSize(shown.width() + s.width(), std::max(shown.height(), s.height()))
                           : QSize(std::max(shown.width(), s.width()), shown.height() + s.height());
    }
    const QSize minimum =
        sideBySide ? QSize(800 * int(charts.size()), 500) : QSize(800, 500 * int(charts.size()));
    try {
        exportCharts(charts, page->views().front()->currentStyle(), path, *format, shown.expandedTo(minimum),
                     exportFooter(m_store->results(), QDateTime::currentDateTimeUtc()),
                     sideBySide ? Qt::Horizontal : Qt::Vertical, states);
        statusBar()->showMessage(QStringLiteral("Exported %1").arg(readable(path)), 8000);
        return true;
    } catch (const std::exception& e) {
        report(QStringLiteral("Could not export the chart"), QString::fromStdString(e.what()));
        return false;
    }
}

bool MainWindow::renameResult(int index, const QString& alias) {
    const QString name = alias.simplified();
    if (name.isEmpty() || name.size() > kMaxAliasChars) {
        report(QStringLiteral("Could not rename the result"),
               QStringLiteral("\"%1\": an alias has 1 to %2 characters")
                   .arg(elideMiddle(alias, 60))
                   .arg(kMaxAliasChars));
        return false;
    }
    if (!m_store->setLabel(index, name.toStdString())) return false;
    m_settings->setResultAlias(resultIdentity(m_store->results()[std::size_t(index)]), name);
    refreshChartsNow();
    return true;
}

void MainWindow::renameDialog() {
    const int i = chooseResult(QStringLiteral("Rename result"), -1);
    if (i < 0) return;
    bool ok = false;
    const QString alias = QInputDialog::getText(
        this, QStringLiteral("Rename result"),
        QStringLiteral("Short name in legends, the table and exports (at most %1 characters):")
            .arg(kMaxAliasChars),
        QLineEdit::Normal, QString::fromStdString(m_store->results()[std::size_t(i)].label), &ok);
    if (ok) renameResult(i, alias);
}

void MainWindow::rememberOpenFiles(const QStringList& paths, bool add) {
    if (!add) m_openFiles.clear();
    for (const QString& path : paths)
        if (!m_openFiles.contains(path)) m_openFiles << path;
    m_settings->setLastResults(m_openFiles);
}

int MainWindow::reopenLastResults() {
    if (!m_settings->reopenLastResults()) return 0;
    QStringList existing;
    for (const QString& path : m_settings->lastResults())
        if (fileExists(path)) existing << path;
    return existing.isEmpty() ? 0 : openFiles(existing, false);
}

void MainWindow::setUpResultFiles() {
    m_emptyState = new EmptyState(*m_store, m_tabs, m_tabs->tabBar(), {m_run, m_open});
    // The files list: a result opened from a file is reopened on the next start; closing the
    // results or starting a sweep forgets them, a finished sweep's file takes their place.
    connect(m_store, &ResultStore::resultsReset, this, [this] {
        if (m_store->empty() && !m_openFiles.isEmpty()) rememberOpenFiles({}, false);
    });
    connect(m_controller, &SweepController::finished, this, [this] {
        if (!m_controller->resultPath().isEmpty()) rememberOpenFiles({m_controller->resultPath()}, false);
    });
    m_rename = new QAction(QStringLiteral("Re&name Result…"), this);
    m_rename->setToolTip(QStringLiteral("Give a result a short alias for legends, the table and exports"));
    connect(m_rename, &QAction::triggered, this, [this] { renameDialog(); });
    m_reopenLast = new QAction(QStringLiteral("Reopen Last Results on Start"), this);
    m_reopenLast->setObjectName(QStringLiteral("actionReopenLast"));
    m_reopenLast->setCheckable(true);
    m_reopenLast->setChecked(m_settings->reopenLastResults());
    connect(m_reopenLast, &QAction::toggled, this, [this](bool on) { m_settings->setReopenLastResults(on); });
    if (auto* file = qobject_cast<QMenu*>(m_recentMenu->parentWidget())) {
        file->insertAction(m_recentMenu->menuAction(), m_rename);
        file->insertAction(m_recentMenu->menuAction(), m_reopenLast);
    }
    updateActions();
    reopenLastResults();
}

void MainWindow::exportAllChartsDialog() {
    const QString dir = cli::argumentFromDecodedPath(
        QFileDialog::getExistingDirectory(this, QStringLiteral("Export all charts into")));
    if (dir.isEmpty()) return;
    bool ok = false;
    const QString format = QInputDialog::getItem(
        this, QStringLiteral("Export all charts"), QStringLiteral("Format"),
        {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")}, 0, false, &ok);
    if (ok) exportAllCharts(dir, format);
}

int MainWindow::addPredictedReference(SweepResult predicted) {
    // One predicted overlay per model and grid: a second Compare replaces nothing and adds nothing.
    const auto& open = m_store->results();
    for (int i = 0; i < m_store->count(); ++i) {
        const SweepResult& r = open[std::size_t(i)];
        if (r.label == predicted.label && r.plan == predicted.plan) return i;
    }
    m_store->add(std::move(predicted));
    return m_store->count() - 1;
}

bool MainWindow::showPredictedReference(SweepResult predicted) {
    const QString label =
        predicted.points.empty() || !predicted.points.front().prediction
            ? predictedReferenceLabel()
            : QString::fromStdString(predictedFromText(*predicted.points.front().prediction));
    const int index = addPredictedReference(std::move(predicted));
    // The fastest CPU backend of the first other result with one against the predicted GPU times.
    const int cpuResult = firstOtherWithFastestCpu(*m_store, index);
    for (int i = 0; i < static_cast<int>(m_pages.size()); ++i) {
        if (m_pages[std::size_t(i)]->spec().id == QStringLiteral("speedup") && cpuResult >= 0) {
            m_pages[std::size_t(i)]->setPair(
                QString::fromUtf8(kFastestCpu.data(), qsizetype(kFastestCpu.size())), cpuResult,
                QString::fromUtf8(kFastestGpu.data(), qsizetype(kFastestGpu.size())), index);
            m_tabs->setCurrentIndex(i);
        }
    }
    statusBar()->showMessage(
        QStringLiteral("No reference measured this model or grid: added GPU times %1").arg(label), 10000);
    return true;
}

} // namespace rnnprof::gui

#pragma once
// The main window, in the manner of KDAB hotspot and heaptrack: the configuration panel docked on
// the left, the chart tabs above the results table in the centre, menus, a toolbar and a status
// bar with the sweep's progress, the host and the GPU status. It only wires parts together: the
// numbers live in the ResultStore, sweeps run on the SweepController's engine thread.
#include "engine/backend.h"
#include "gui/models/chart_data.h"
#include "profiling/measure/host_load.h"

#include <QMainWindow>
#include <QStringList>
#include <QTimer>

#include <memory>
#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QSplitter;
class QTabWidget;
QT_END_NAMESPACE

namespace rnnprof {
struct PointResult;
struct SweepResult;
struct SweepProgress;
struct SweepPlan;
} // namespace rnnprof

namespace rnnprof::gui {

class AppSettings;
class BusyBanner;
class ChartPage;
class ChartView;
class ConfigPanel;
class ResultStore;
class ResultsModel;
class ResultsView;
class SweepController;
class SweepProgressView;

struct MainWindowOptions {
    QString settingsPath;    // empty: the user's settings
    QString autosaveDir;     // empty: AppDataLocation/autosave
    bool interactive = true; // false: problems are recorded in lastMessage() instead of message boxes
    const BackendRegistry* backends = nullptr; // null: builtinBackends()
};

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(MainWindowOptions options = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Run (F5): starts a sweep of the panel's plan; false when invalid or already running.
    bool startSweep();
    // On start: for each journal a killed or crashed sweep left in the autosave folder, newest
    // first, asks whether to resume it (its plan goes into the panel and only its missing points
    // are measured), discard it (deleted) or keep it (left for File > Open). Stops after a resume.
    // Without interaction (tests) nothing is asked and every journal is kept.
    void offerLeftoverJournals();
    void stopSweep();
    // Opens result files (JSON or journals); `add` keeps what is loaded (overlay). Returns the
    // number opened; every failure is reported with the file and the reason.
    int openFiles(const QStringList& paths, bool add);
    // Writes result `index` (-1: the only or the live one) / every chart of every tab.
    bool saveResult(const QString& path, int index = -1);
    bool exportCsv(const QString& path, int index = -1);
    bool exportTrace(const QString& path, int index = -1);
    bool exportChartFile(ChartView& view, const QString& path);
    // Export Current Chart: every chart of the current tab in one file, laid out as the tab shows
    // them (the speedup and the crossover chart side by side), with the footer naming the results.
    bool exportCurrentChart(const QString& path);
    // Gives result `index` a short alias (legends, table, footers): 1 to kMaxAliasChars characters.
    bool renameResult(int index, const QString& alias);
    static constexpr int kMaxAliasChars = 40;
    // Opens the result files open when the window last closed, when that setting is on; returns
    // how many were opened.
    int reopenLastResults();
    [[nodiscard]] QWidget* emptyState() const { return m_emptyState; }
    [[nodiscard]] QAction* reopenLastAction() const { return m_reopenLast; }
    // Compare with Reference GPU: overlays the built-in NVIDIA H100 results of the configured model
    // (labelled "h100 (reference)"), sets the speedup pair to the fastest CPU backend of the first
    // other result (or the reference's own) against the reference's fastest GPU backend, and shows
    // the Speedup & crossover tab. Where no reference measured the model or the whole grid, predicted
    // GPU times are added as well (and paired, when no reference ran the model). False, with the
    // reason reported, when no reference ran this model and none could be predicted.
    bool compareWithReference();
    // Sweep › Find Crossover with Reference GPU: for the configured model, its first sequence length
    // and mode, searches where the reference's fastest GPU backend overtakes the fastest of the
    // configured CPU backends available here, measuring only the batch sizes of the reference's grid
    // a bisection needs (profiling/measure/crossover_run.h); the reference is overlaid, the pair set, and the
    // status bar gives the crossover and how many points it measured. False, reported, when no
    // reference ran the model at that sequence length or no CPU backend is available.
    bool findCrossoverWithReference();
    // The predicted GPU times of the configured model and grid (reference_results.h), added once;
    // returns its index. showPredictedReference also sets the speedup pair to the fastest CPU
    // backend of the first other result against them and shows the Speedup & crossover tab.
    int addPredictedReference(SweepResult predicted);
    bool showPredictedReference(SweepResult predicted);
    QStringList exportAllCharts(const QString& dir, const QString& format);
    void selectPoint(const PointRef& ref);
    // Rebuilds every chart now instead of at the next throttled refresh.
    void refreshChartsNow();

    [[nodiscard]] ConfigPanel* configPanel() const { return m_panel; }
    [[nodiscard]] ResultStore& store() const { return *m_store; }
    [[nodiscard]] ResultsModel* resultsModel() const { return m_model; }
    [[nodiscard]] ResultsView* resultsView() const { return m_resultsView; }
    [[nodiscard]] const std::vector<ChartPage*>& chartPages() const { return m_pages; }
    [[nodiscard]] QTabWidget* chartTabs() const { return m_tabs; }
    [[nodiscard]] SweepController& controller() const { return *m_controller; }
    [[nodiscard]] SweepProgressView* progressView() const { return m_progress; }
    [[nodiscard]] BusyBanner* busyBanner() const { return m_busy; }
    [[nodiscard]] QAction* runAction() const { return m_run; }
    [[nodiscard]] QAction* stopAction() const { return m_stop; }
    [[nodiscard]] QString lastMessage() const { return m_lastMessage; }
    [[nodiscard]] QString autosaveDir() const;

protected:
    void closeEvent(QCloseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    // The end of findCrossoverWithReference(): the pair set, the crossover in the status bar.
    void finishCrossoverSearch(const SweepResult& result);
    void createActions();
    void createMenus();
    void restoreSettings();
    void saveSettings();
    void updateActions();
    void scheduleRefresh();
    void refreshVisibleCharts();
    void updateEstimate(); // what Run would take, shown while no sweep runs
    bool startSweepInto(const SweepPlan& plan, const QString& path, bool resume);
    void onSweepStarted(const SweepResult& header);
    void onPoint(const PointResult& point);
    void onSweepFinished(const SweepResult& result);
    void report(const QString& title, const QString& text, bool error = true);
    void rebuildRecentMenu();
    [[nodiscard]] int chooseResult(const QString& purpose, int index);
    // Dialog front ends of the file functions.
    void openDialog(bool add);
    void saveDialog();
    void exportCsvDialog();
    void exportTraceDialog();
    void exportCurrentChartDialog();
    void exportChartDialog(ChartView* view);
    void exportAllChartsDialog();
    void renameDialog();
    // The empty state, Rename Result and Reopen Last Results, and the list of open files that
    // reopening reads (main_window_files.cpp).
    void setUpResultFiles();
    void rememberOpenFiles(const QStringList& paths, bool add);
    void showAbout();

    MainWindowOptions m_options;
    const BackendRegistry& m_backends;
    std::unique_ptr<AppSettings> m_settings;
    ResultStore* m_store = nullptr;
    ResultsModel* m_model = nullptr;
    ResultsView* m_resultsView = nullptr;
    QTabWidget* m_tabs = nullptr;
    std::vector<ChartPage*> m_pages;
    std::vector<bool> m_pageDirty;
    ConfigPanel* m_panel = nullptr;
    QDockWidget* m_dock = nullptr;
    QSplitter* m_splitter = nullptr;
    SweepController* m_controller = nullptr;
    SweepProgressView* m_progress = nullptr;
    BusyBanner* m_busy = nullptr;
    QLabel* m_hostLabel = nullptr;
    QMenu* m_recentMenu = nullptr;
    QTimer m_refreshTimer;
    int m_liveIndex = -1;
    QString m_lastMessage;

    QAction* m_run = nullptr;
    QAction* m_stop = nullptr;
    QAction* m_open = nullptr;
    QAction* m_add = nullptr;
    QAction* m_save = nullptr;
    QAction* m_exportCsv = nullptr;
    QAction* m_exportTrace = nullptr;
    QAction* m_exportChart = nullptr;
    QAction* m_exportAll = nullptr;
    QAction* m_compareReference = nullptr;
    QAction* m_findCrossover = nullptr;
    int m_searchReference = -1; // a crossover search's reference in the store, till it finishes
    HostLoadMonitor m_idleLoad; // the load the pre-run estimate allows for
    std::optional<HostLoad> m_lastIdleLoad;
    QAction* m_close = nullptr;
    QAction* m_quit = nullptr;
    QAction* m_dark = nullptr;
    QAction* m_rename = nullptr;
    QAction* m_reopenLast = nullptr;
    QWidget* m_emptyState = nullptr;
    QStringList m_openFiles; // the result files the store holds (reopened on the next start)
};

} // namespace rnnprof::gui

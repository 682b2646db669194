#pragma once
// What the window remembers between sessions (QSettings): geometry and dock/toolbar state,
// splitter sizes, the last configuration (as the plan JSON of presets and --config files), recent
// files, the files open last (reopened on start), the results' aliases and the palette choice. Tests point it
// at a temporary file instead of the user's settings.
#include "profiling/plan.h"

#include <QByteArray>
#include <QSettings>
#include <QStringList>

#include <memory>
#include <optional>

namespace rnnprof::gui {

class AppSettings {
public:
    // An empty path: the user's settings (organisation and application "rnnprof").
    explicit AppSettings(const QString& path = {});
    ~AppSettings();

    [[nodiscard]] std::optional<SweepPlan> lastPlan() const; // nullopt when absent or unreadable
    void setLastPlan(const SweepPlan& plan);

    // File lists hold absolute paths that keep every byte of a name, as cli::argumentFromBytes()
    // gives them (also names that are not UTF-8); newest first.
    [[nodiscard]] QStringList recentFiles() const;
    void addRecentFile(const QString& path);
    void removeRecentFile(const QString& path);
    static constexpr int kMaxRecentFiles = 10;

    // The result files open when the window last had some, reopened on start while
    // reopenLastResults() is on (the default).
    [[nodiscard]] QStringList lastResults() const;
    void setLastResults(const QStringList& paths);
    [[nodiscard]] bool reopenLastResults() const;
    void setReopenLastResults(bool on);

    // The aliases the user gave results (Rename), by resultIdentity() (result_store.h), so that a
    // result is called the same when it is opened again, from any path; the newest kMaxAliases.
    [[nodiscard]] QString resultAlias(const QString& identity) const; // empty: none
    void setResultAlias(const QString& identity, const QString& alias);
    static constexpr int kMaxAliases = 200;

    [[nodiscard]] QByteArray bytes(const QString& key) const;
    void setBytes(const QString& key, const QByteArray& value);
    [[nodiscard]] bool flag(const QString& key, bool fallback = false) const;
    void setFlag(const QString& key, bool value);
    void sync();

private:
    std::unique_ptr<QSettings> m_settings;
};

} // namespace rnnprof::gui

#include "gui/app_settings.h"

#include "cli/path_arguments.h"
#include "profiling/files/presets.h"

namespace rnnprof::gui {
namespace {

// File lists are stored as the names' bytes, so that a name that is not UTF-8 comes back as the
// same file (as a string, its bytes would be saved as U+FFFD). Paths are absolute.
QVariant pathsSetting(const QStringList& paths) {
    QVariantList bytes;
    for (const QString& path : paths)
        bytes << QByteArray::fromStdString(cli::pathFromArgument(cli::absoluteArgument(path)));
    return bytes;
}

// Reads what pathsSetting() stored; also strings, as settings written before it held them.
QStringList pathsFromSetting(const QVariant& value) {
    if (!value.isValid()) return {};
    const bool list = value.typeId() == QMetaType::QVariantList || value.typeId() == QMetaType::QStringList;
    QStringList paths;
    for (const QVariant& item : list ? value.toList() : QVariantList{value})
        paths << (item.typeId() == QMetaType::QByteArray
                      ? cli::argumentFromBytes(item.toByteArray().toStdString())
                      : item.toString());
    paths.removeAll(QString());
    return paths;
}

} // namespace

AppSettings::AppSettings(const QString& path)
    : m_settings(path.isEmpty()
                     ? std::make_unique<QSettings>(QStringLiteral("rnnprof"), QStringLiteral("rnnprof"))
                     : std::make_unique<QSettings>(path, QSettings::IniFormat)) {}

AppSettings::~AppSettings() = default;

std::optional<SweepPlan> AppSettings::lastPlan() const {
    const QString text = m_settings->value(QStringLiteral("config/lastPlan")).toString();
    if (text.isEmpty()) return std::nullopt;
    try {
        SweepPlan plan = planFromJson(text.toStdString(), "the saved configuration");
        plan.preset = m_settings->value(QStringLiteral("config/lastPreset")).toString().toStdString();
        return plan;
    } catch (const std::exception&) {
        return std::nullopt; // an older or damaged entry: start from the default preset
    }
}

void AppSettings::setLastPlan(const SweepPlan& plan) {
    m_settings->setValue(QStringLiteral("config/lastPlan"), QString::fromStdString(planToJson(plan)));
    m_settings->setValue(QStringLiteral("config/lastPreset"), QString::fromStdString(plan.preset));
}

QStringList AppSettings::recentFiles() const {
    return pathsFromSetting(m_settings->value(QStringLiteral("files/recent")));
}

void AppSettings::addRecentFile(const QString& path) {
    const QString absolute = cli::absoluteArgument(path);
    QStringList files = recentFiles();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    m_settings->setValue(QStringLiteral("files/recent"), pathsSetting(files));
}

void AppSettings::removeRecentFile(const QString& path) {
    QStringList files = recentFiles();
    files.removeAll(path);
    m_settings->setValue(QStringLiteral("files/recent"), pathsSetting(files));
}

QStringList AppSettings::lastResults() const {
    return pathsFromSetting(m_settings->value(QStringLiteral("files/lastResults")));
}

void AppSettings::setLastResults(const QStringList& paths) {
    m_settings->setValue(QStringLiteral("files/lastResults"), pathsSetting(paths));
}

bool AppSettings::reopenLastResults() const {
    return flag(QStringLiteral("files/reopenLast"), true);
}

void AppSettings::setReopenLastResults(bool on) {
    setFlag(QStringLiteral("files/reopenLast"), on);
}

namespace {
const QString kAliasesKey = QStringLiteral("files/aliases");
}

// A list of [identity, alias] pairs, newest first: identities hold host names from files, so
// they are values here, never keys (QSettings would read their '/' as groups).
QString AppSettings::resultAlias(const QString& identity) const {
    if (identity.isEmpty()) return {};
    for (const QVariant& entry : m_settings->value(kAliasesKey).toList()) {
        const QStringList pair = entry.toStringList();
        if (pair.size() == 2 && pair[0] == identity) return pair[1];
    }
    return {};
}

void AppSettings::setResultAlias(const QString& identity, const QString& alias) {
    if (identity.isEmpty()) return;
    QVariantList entries{QVariant(QStringList{identity, alias})};
    for (const QVariant& entry : m_settings->value(kAliasesKey).toList()) {
        const QStringList pair = entry.toStringList();
        if (pair.size() == 2 && pair[0] != identity && entries.size() < kMaxAliases) entries << entry;
    }
    m_settings->setValue(kAliasesKey, entries);
}

QByteArray AppSettings::bytes(const QString& key) const {
    return m_settings->value(key).toByteArray();
}
void AppSettings::setBytes(const QString& key, const QByteArray& value) {
    m_settings->setValue(key, value);
}
bool AppSettings::flag(const QString& key, bool fallback) const {
    return m_settings->value(key, fallback).toBool();
}
void AppSettings::setFlag(const QString& key, bool value) {
    m_settings->setValue(key, value);
}
void AppSettings::sync() {
    m_settings->sync();
}

} // namespace rnnprof::gui

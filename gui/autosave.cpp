#include "gui/autosave.h"

#include "profiling/files/file_name_part.h"
#include "profiling/files/result_files.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace rnnprof::gui {

QString defaultAutosaveDir() {
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("autosave"));
}

QString newAutosavePath(const QString& dir, const SweepPlan& plan) {
    if (dir.isEmpty() || !QDir().mkpath(dir)) return {};
    const std::string what = plan.preset.empty() ? std::string(toString(plan.config.cell)) + "-" +
                                                       std::to_string(plan.config.inputSize) + "-" +
                                                       std::to_string(plan.config.hiddenSize)
                                                 : plan.preset;
    const QString stamp = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss")) +
                          QLatin1Char('-') + QString::fromStdString(fileNamePart(what, 40));
    QString path = QDir(dir).filePath(QStringLiteral("sweep-%1.json").arg(stamp));
    for (int i = 2; QFileInfo::exists(path) || QFileInfo::exists(path + QStringLiteral(".journal")); ++i)
        path = QDir(dir).filePath(QStringLiteral("sweep-%1-%2.json").arg(stamp).arg(i));
    return path;
}

QStringList leftoverJournals(const QString& dir) {
    QStringList paths;
    const QFileInfoList files =
        QDir(dir).entryInfoList({QStringLiteral("sweep-*.json.journal")}, QDir::Files, QDir::Time);
    for (const QFileInfo& f : files)
        if (journalHolder(f.filePath().toStdString()) == 0) paths << f.filePath();
    return paths;
}

void pruneAutosaves(const QString& dir, int keep) {
    QDir d(dir);
    const QFileInfoList files = d.entryInfoList(
        {QStringLiteral("sweep-*.json"), QStringLiteral("sweep-*.json.journal")}, QDir::Files, QDir::Time);
    QStringList stems;
    for (const QFileInfo& f : files) {
        const QString stem = f.fileName().section(QStringLiteral(".json"), 0, 0);
        if (!stems.contains(stem)) stems << stem;
    }
    for (int i = keep; i < stems.size(); ++i) {
        d.remove(stems.at(i) + QStringLiteral(".json"));
        d.remove(stems.at(i) + QStringLiteral(".json.journal"));
    }
}

} // namespace rnnprof::gui

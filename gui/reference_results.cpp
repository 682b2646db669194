#include "gui/reference_results.h"

#include "engine/error.h"
#include "profiling/crossover.h"
#include "profiling/result_files.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

// Resources of a static library must be registered explicitly; outside any namespace by Qt's rules.
static void initReferenceResources() {
    Q_INIT_RESOURCE(reference);
}

namespace rnnprof::gui {

QString referenceLabel() {
    return QStringLiteral("h100 (reference)");
}

QStringList referenceResultFiles() {
    initReferenceResources();
    QStringList out;
    const QDir dir(QStringLiteral(":/reference"));
    for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        out << dir.filePath(name);
    return out;
}

SweepResult loadReferenceResult(const QString& resource) {
    initReferenceResources();
    QFile file(resource);
    if (!file.open(QIODevice::ReadOnly))
        throw Error(ErrorKind::Io, "cannot read the built-in reference " + resource.toStdString());
    const QByteArray bytes = file.readAll();
    SweepResult r =
        resultFromJson(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
                       QFileInfo(resource).fileName().toStdString());
    r.label = referenceLabel().toStdString();
    return r;
}

std::optional<SweepResult> referenceFor(const SweepPlan& plan, QString& why) {
    const QStringList files = referenceResultFiles();
    const QString own = QStringLiteral(":/reference/h100-%1.json").arg(QString::fromStdString(plan.preset));
    QStringList order;
    if (!plan.preset.empty() && files.contains(own)) order << own;
    for (const QString& f : files)
        if (f != own && !f.endsWith(QStringLiteral("-traced.json"))) order << f;
    QString ownDifferences;
    for (const QString& f : order) {
        SweepResult r = loadReferenceResult(f);
        const auto differences = modelDifferences(plan.config, r.plan.config);
        if (differences.empty()) return r;
        if (f == own) ownDifferences = QString::fromStdString(describeDifferences(differences));
    }
    why = QStringLiteral("No reference GPU results of this model: the reference sweeps (NVIDIA H100) ran the "
                         "presets' models");
    if (!ownDifferences.isEmpty())
        why += QStringLiteral(", and %1's differs from this one (this vs the reference: %2)")
                   .arg(QString::fromStdString(plan.preset), ownDifferences);
    why += QLatin1Char('.');
    return std::nullopt;
}

} // namespace rnnprof::gui

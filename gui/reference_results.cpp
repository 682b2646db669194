#include "gui/reference_results.h"

#include "engine/error.h"
#include "profiling/analysis/cost_model.h"
#include "profiling/analysis/crossover.h"
#include "profiling/files/result_files.h"

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

void attachTracedKernels(SweepResult& reference, const SweepResult& traced, const std::string& tracedName) {
    for (PointResult& p : reference.points) {
        if (!p.ok() || !p.gpu || p.gpu->traced) continue;
        for (const PointResult& q : traced.points)
            if (q.ok() && q.gpu && q.gpu->traced && q.backend == p.backend && q.mode == p.mode &&
                q.shape == p.shape) {
                GpuProfile& g = *p.gpu;
                g.traced = true;
                g.unavailableReason.clear();
                g.kernels = q.gpu->kernels;
                g.memcpys = q.gpu->memcpys;
                g.gpuBusyUs = q.gpu->gpuBusyUs;
                g.wallUs = q.gpu->wallUs;
                g.tracedMedianMs = q.gpu->tracedMedianMs;
                g.untracedMedianMs = q.gpu->untracedMedianMs;
                g.warnings.push_back("kernels and timeline from the traced run in " + tracedName +
                                     " (same model, shape and backend); every time shown is this file's "
                                     "untraced one");
                p.trace = q.trace;
                break;
            }
    }
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
        if (differences.empty()) {
            // Its kernels, where a traced run of the same file exists: reachable from Breakdown of
            // a reference point, while the headline times stay the untraced ones.
            QString tracedFile = f;
            tracedFile.replace(QStringLiteral(".json"), QStringLiteral("-traced.json"));
            if (files.contains(tracedFile)) {
                const SweepResult traced = loadReferenceResult(tracedFile);
                if (modelDifferences(r.plan.config, traced.plan.config).empty())
                    attachTracedKernels(r, traced, QFileInfo(tracedFile).fileName().toStdString());
            }
            return r;
        }
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

QString predictedReferenceLabel() {
    return QStringLiteral("h100 (predicted)");
}

bool referenceCoversGrid(const SweepPlan& plan, const SweepResult& reference) {
    const auto gpu = sideTimes(reference, kFastestGpu);
    for (Mode mode : plan.modes)
        for (int t : plan.seqLens)
            for (int b : plan.batches)
                if (!gpu.count({mode, t, b})) return false;
    return true;
}

std::optional<SweepResult> predictedReferenceFor(const SweepPlan& plan, QString& why) {
    std::vector<SweepResult> files;
    for (const QString& f : referenceResultFiles()) {
        if (f.endsWith(QStringLiteral("-traced.json"))) continue; // the same times as its untraced twin
        SweepResult r = loadReferenceResult(f);
        r.label = QFileInfo(f).fileName().toStdString(); // the name predictions are labelled with
        files.push_back(std::move(r));
    }
    std::vector<NamedResult> from;
    for (const auto& r : files)
        from.push_back({&r, r.label});
    SweepPlan predicted = plan;
    predicted.backends.clear();
    QStringList refused;
    for (const char* backend : {"gpu-cudnn", "gpu-generic"}) {
        bool fits = true;
        for (Mode mode : plan.modes) {
            std::string whyNot;
            if (!fitBackend(from, {backend, mode, plan.settings.cudaGraph}, &whyNot)) {
                fits = false;
                refused << QString::fromStdString(whyNot);
            }
        }
        if (fits) predicted.backends.emplace_back(backend);
    }
    if (predicted.backends.empty() || plan.modes.empty() || plan.seqLens.empty() || plan.batches.empty()) {
        why = QStringLiteral("No GPU times could be predicted for this model: %1")
                  .arg(refused.isEmpty() ? QStringLiteral("the sweep has an empty grid")
                                         : refused.join(QStringLiteral("; ")));
        return std::nullopt;
    }
    SweepResult out = predictResult(from, predicted);
    out.label = predictedReferenceLabel().toStdString();
    return out;
}

} // namespace rnnprof::gui

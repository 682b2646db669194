#include "gui/models/chart_selection.h"

#include "engine/backend.h"
#include "profiling/analysis/crossover.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace rnnprof::gui {
namespace {

int registryRank(const QString& id) {
    const auto ids = builtinBackends().ids();
    const std::string series = id.toStdString();
    const auto it = std::find(ids.begin(), ids.end(), registryIdOf(series));
    return it == ids.end() ? static_cast<int>(ids.size()) : static_cast<int>(it - ids.begin());
}

template <class T>
bool contains(const std::vector<T>& v, const T& x) {
    return std::find(v.begin(), v.end(), x) != v.end();
}

} // namespace

ChartOptions chartOptions(const std::vector<SweepResult>& results) {
    std::set<int> seqLens, batches;
    std::set<std::string> backends, measured;
    std::set<int> modes;
    for (const auto& r : results) {
        seqLens.insert(r.plan.seqLens.begin(), r.plan.seqLens.end());
        batches.insert(r.plan.batches.begin(), r.plan.batches.end());
        backends.insert(r.plan.backends.begin(), r.plan.backends.end());
        for (Mode m : r.plan.modes)
            modes.insert(static_cast<int>(m));
        for (const auto& p : r.points) {
            seqLens.insert(p.shape.seqLen);
            batches.insert(p.shape.batch);
            backends.insert(p.backend);
            if (p.ok()) measured.insert(p.backend);
            modes.insert(static_cast<int>(p.mode));
        }
    }
    ChartOptions o;
    o.seqLens.assign(seqLens.begin(), seqLens.end());
    o.batches.assign(batches.begin(), batches.end());
    for (const auto& b : backends)
        o.backends << QString::fromStdString(b);
    std::stable_sort(o.backends.begin(), o.backends.end(), [](const QString& a, const QString& b) {
        const int ra = registryRank(a), rb = registryRank(b);
        return ra != rb ? ra < rb : a < b;
    });
    for (const QString& b : o.backends)
        if (measured.count(b.toStdString())) o.measured << b;
    for (int m : modes)
        o.modes.push_back(static_cast<Mode>(m));
    if (results.size() == 1) {
        for (const std::string& id : sideChoices(results.front())) {
            const QString backend = QString::fromStdString(id);
            o.sides.push_back({-1, backend, backend});
        }
    } else if (results.size() > 1) {
        // Inside each file (one series per file), in the order the results offer them.
        std::set<std::string> seen;
        for (const auto& r : results)
            for (const std::string& id : sideChoices(r))
                if (seen.insert(id).second) {
                    const QString backend = QString::fromStdString(id);
                    o.sides.push_back({-1, backend, backend + QStringLiteral(" @ each file")});
                }
        for (int r = 0; r < static_cast<int>(results.size()); ++r)
            for (const std::string& id : sideChoices(results[static_cast<std::size_t>(r)])) {
                const QString backend = QString::fromStdString(id);
                o.sides.push_back({r, backend, sideLabel(results, r, backend)});
            }
    }
    return o;
}

QString sideLabel(const std::vector<SweepResult>& results, int resultIndex, const QString& backend) {
    const QString prefix = resultPrefix(results, resultIndex);
    return prefix.isEmpty() ? backend : backend + QStringLiteral(" @ ") + prefix;
}

int sideIndex(const ChartSelection& s, const ChartOptions& o, bool challenger) {
    const int result = challenger ? s.challengerResult : s.baselineResult;
    const QString& backend = challenger ? s.challenger : s.baseline;
    for (std::size_t i = 0; i < o.sides.size(); ++i)
        if (o.sides[i].result == result && o.sides[i].backend == backend) return static_cast<int>(i);
    return -1;
}

void fitSelection(ChartSelection& s, const ChartOptions& o) {
    if (!contains(o.seqLens, s.seqLen)) s.seqLen = o.seqLens.empty() ? 0 : o.seqLens.front();
    if (!contains(o.batches, s.batch)) s.batch = o.batches.empty() ? 0 : o.batches.front();
    if (!contains(o.modes, s.mode)) s.mode = o.modes.empty() ? Mode::Inference : o.modes.front();
    // Defaults come from the backends that measured something: an unavailable one has no chart.
    const QStringList& pool = o.measured.isEmpty() ? o.backends : o.measured;
    if (!o.backends.contains(s.backend)) s.backend = pool.value(0);
    // A pair is kept when both sides are still offered; results opened or closed reset it.
    const bool offered = o.sides.empty()
                             ? o.backends.contains(s.baseline) && o.backends.contains(s.challenger)
                             : sideIndex(s, o, false) >= 0 && sideIndex(s, o, true) >= 0;
    if (offered && !(s.challenger == s.baseline && s.challengerResult == s.baselineResult && pool.size() > 1))
        return;
    // The honest question first: the fastest CPU backend against the fastest GPU backend.
    const QString cpu = QString::fromUtf8(kFastestCpu.data(), static_cast<qsizetype>(kFastestCpu.size()));
    const QString gpu = QString::fromUtf8(kFastestGpu.data(), static_cast<qsizetype>(kFastestGpu.size()));
    const PairSideChoice* firstCpu = nullptr;
    const PairSideChoice* lastGpu = nullptr;
    // With several results the sides of one result each; with one result its sides have result -1.
    const bool several =
        std::any_of(o.sides.begin(), o.sides.end(), [](const auto& c) { return c.result >= 0; });
    for (const PairSideChoice& c : o.sides) {
        if (several && c.result < 0) continue;
        if (c.backend == cpu && !firstCpu) firstCpu = &c;
        if (c.backend == gpu) lastGpu = &c;
    }
    if (firstCpu && lastGpu) {
        s.baseline = cpu;
        s.baselineResult = firstCpu->result;
        s.challenger = gpu;
        s.challengerResult = lastGpu->result;
        return;
    }
    s.baselineResult = s.challengerResult = -1;
    s.baseline = pool.value(0);
    s.challenger = pool.isEmpty() ? QString() : pool.back();
    if (s.challenger == s.baseline && pool.size() > 1) s.challenger = pool.at(1);
}

QString resultPrefix(const std::vector<SweepResult>& results, int resultIndex) {
    if (results.size() < 2 || resultIndex < 0 || resultIndex >= static_cast<int>(results.size())) return {};
    const auto& label = results[static_cast<std::size_t>(resultIndex)].label;
    if (!label.empty()) return QString::fromStdString(label);
    return QStringLiteral("result %1").arg(resultIndex + 1);
}

QString seriesName(const std::vector<SweepResult>& results, int resultIndex, const std::string& backend,
                   Mode mode) {
    QString name =
        QString::fromStdString(backend) + QLatin1Char(' ') + QString::fromUtf8(toString(mode).data());
    const QString prefix = resultPrefix(results, resultIndex);
    return prefix.isEmpty() ? name : prefix + QStringLiteral(": ") + name;
}

QString machineSuffix(const SweepResult& result, const PointResult& point) {
    const std::string machine = machineName(hostOf(result, point));
    if (machine == machineName(result.host)) return {};
    return QStringLiteral(" on ") + QString::fromStdString(machine);
}

QString pointTitle(const PointResult& p) {
    return QStringLiteral("%1 %2 B=%3 T=%4")
        .arg(QString::fromStdString(p.backend), QString::fromUtf8(toString(p.mode).data()))
        .arg(p.shape.batch)
        .arg(p.shape.seqLen);
}

QString pointTooltip(const std::vector<SweepResult>& results, const PointRef& ref) {
    if (ref.result < 0 || ref.result >= static_cast<int>(results.size())) return {};
    const auto& r = results[static_cast<std::size_t>(ref.result)];
    if (ref.point < 0 || ref.point >= static_cast<int>(r.points.size())) return {};
    const PointResult& p = r.points[static_cast<std::size_t>(ref.point)];
    QStringList lines;
    const QString prefix = resultPrefix(results, ref.result);
    lines << (prefix.isEmpty() ? QString() : prefix + QStringLiteral(": ")) + pointTitle(p);
    if (p.predicted() && p.prediction) {
        lines << QStringLiteral("predicted %1 per iteration (band %2 – %3)")
                     .arg(formatMs(p.iteration.median), formatMs(p.prediction->lowMs),
                          std::isfinite(p.prediction->highMs) ? formatMs(p.prediction->highMs)
                                                              : QStringLiteral("open"));
        if (!p.prediction->band.empty())
            lines << QStringLiteral("band: ") + QString::fromStdString(p.prediction->band);
        lines << QString::fromStdString(p.reason);
        return lines.join(QLatin1Char('\n'));
    }
    if (!p.ok()) {
        lines << QString::fromUtf8(toString(p.status).data()) + QStringLiteral(": ") +
                     QString::fromStdString(p.reason);
        return lines.join(QLatin1Char('\n'));
    }
    const auto& it = p.iteration;
    lines << QStringLiteral("median %1 per iteration (p10 %2, p90 %3, n=%4)")
                 .arg(formatMs(it.median), formatMs(it.p10), formatMs(it.p90))
                 .arg(it.count);
    QStringList phases;
    for (int i = 0; i < kPhaseCount; ++i) {
        const double v = p.phaseMedianMs[static_cast<std::size_t>(i)];
        if (std::isfinite(v))
            phases << QString::fromUtf8(toString(static_cast<Phase>(i)).data()) + QLatin1Char(' ') +
                          formatMs(v);
    }
    if (!phases.isEmpty()) lines << phases.join(QStringLiteral(", "));
    lines << QStringLiteral("%1 sequences/s, %2 tokens/s, %3 GFLOP/s")
                 .arg(formatNumber(p.sequencesPerSecond), formatNumber(p.tokensPerSecond),
                      formatNumber(p.gflopsPerSecond));
    lines << QStringLiteral("memory %1%2")
                 .arg(formatBytesQ(static_cast<double>(p.memory.total())),
                      p.memory.onDevice ? QStringLiteral(" on device") : QString());
    if (p.noisy)
        lines << QStringLiteral("noisy: p10–p90 spread %1% of the median, above %2%")
                     .arg(formatFixed(relativeSpread(it) * 100.0, 1))
                     .arg(p.noiseThreshold * 100.0, 0, 'f', 0);
    if (p.numerics.checked)
        lines << QStringLiteral("vs cpu-reference: max rel. error %1").arg(p.numerics.maxRelErr, 0, 'g', 3);
    return lines.join(QLatin1Char('\n'));
}

} // namespace rnnprof::gui

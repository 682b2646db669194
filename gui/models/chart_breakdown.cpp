#include "gui/models/chart_breakdown.h"

#include <algorithm>
#include <cmath>

namespace rnnprof::gui {
namespace {

const PointResult* pointAt(const std::vector<SweepResult>& results, const PointRef& ref) {
    if (ref.result < 0 || ref.result >= static_cast<int>(results.size())) return nullptr;
    const auto& points = results[std::size_t(ref.result)].points;
    if (ref.point < 0 || ref.point >= static_cast<int>(points.size())) return nullptr;
    return &points[std::size_t(ref.point)];
}

// Puts each bar's full category name on the first line of its tooltips and elides the label
// itself in the middle to kBreakdownLabelChars.
void labelBars(ChartData& d) {
    for (std::size_t c = 0; c < d.categories.size(); ++c) {
        for (BarSet& set : d.barSets)
            if (c < set.tooltips.size())
                set.tooltips[c] = d.categories[c] + QLatin1Char('\n') + set.tooltips[c];
        d.categories[c] = elideMiddle(d.categories[c], kBreakdownLabelChars);
    }
}

// Horizontal bars draw the first category at the bottom: reversed, the first is on top.
void reverseCategories(ChartData& d) {
    std::reverse(d.categories.begin(), d.categories.end());
    for (BarSet& set : d.barSets) {
        std::reverse(set.values.begin(), set.values.end());
        std::reverse(set.tooltips.begin(), set.tooltips.end());
        std::reverse(set.refs.begin(), set.refs.end());
    }
}

// Each bar as 100 % of its own total, so that phase shares compare across backends whatever their speed.
void toPercentOfBar(ChartData& d) {
    for (std::size_t c = 0; c < d.categories.size(); ++c) {
        double total = 0.0;
        for (const BarSet& set : d.barSets)
            total += c < set.values.size() ? set.values[c] : 0.0;
        if (total <= 0.0) continue;
        for (BarSet& set : d.barSets) {
            if (c >= set.values.size()) continue;
            set.values[c] = 100.0 * set.values[c] / total;
            if (c < set.tooltips.size())
                set.tooltips[c] += QStringLiteral("\n%1 % of this bar").arg(set.values[c], 0, 'f', 1);
        }
    }
}

// With several results open, a bar's label starts with a short tag ("[2]") instead of the result's
// name, which would leave no room for the backend at 1366×768; a note says which tag is which and
// the tooltip names the result in full.
QString barTag(const std::vector<SweepResult>& results, int r) {
    return results.size() < 2 ? QString() : QStringLiteral("[%1] ").arg(r + 1);
}

QString barName(const std::vector<SweepResult>& results, int r, const PointResult& p) {
    return barTag(results, r) + QString::fromStdString(p.backend) + QLatin1Char(' ') +
           QString::fromUtf8(toString(p.mode).data());
}

struct Bar {
    QString label;
    QString full;
    double ms = 0.0;
    QString extra;
};

} // namespace

PointRef defaultBreakdownPoint(const std::vector<SweepResult>& results) {
    PointRef best;
    long long bestSize = -1;
    for (int r = 0; r < static_cast<int>(results.size()); ++r) {
        const auto& points = results[std::size_t(r)].points;
        for (int i = 0; i < static_cast<int>(points.size()); ++i) {
            const auto& p = points[std::size_t(i)];
            const long long size = static_cast<long long>(p.shape.batch) * p.shape.seqLen;
            if (p.ok() && size > bestSize) {
                bestSize = size;
                best = {r, i};
            }
        }
    }
    return best;
}

PointRef breakdownPoint(const std::vector<SweepResult>& results, const ChartSelection& s) {
    const PointResult* p = pointAt(results, s.selected);
    return p && p->ok() ? s.selected : defaultBreakdownPoint(results);
}

ChartData phaseBreakdown(const std::vector<SweepResult>& results, const ChartSelection& s) {
    ChartData d;
    d.kind = ChartData::Kind::HorizontalStackedBars;
    d.yTitle = QStringLiteral("ms per iteration");
    const PointRef ref = breakdownPoint(results, s);
    const PointResult* sel = pointAt(results, ref);
    if (!sel) {
        d.title = QStringLiteral("Phases per backend");
        d.notes << QStringLiteral("Nothing to show yet: select a successful point in a chart or the table.");
        return d;
    }
    d.title = QStringLiteral("Phases per backend at B=%1 T=%2").arg(sel->shape.batch).arg(sel->shape.seqLen);
    const ChartOptions options = chartOptions(results);
    for (int i = 0; i < kPhaseCount; ++i)
        d.barSets.push_back({QString::fromUtf8(toString(static_cast<Phase>(i)).data()), {}, {}, {}});
    bool deviceBars = false;
    // Every ok point of the same shape, in backend order, then mode, then result.
    for (const QString& backend : options.backends) {
        for (Mode mode : options.modes) {
            for (int r = 0; r < static_cast<int>(results.size()); ++r) {
                const auto& points = results[std::size_t(r)].points;
                for (int i = 0; i < static_cast<int>(points.size()); ++i) {
                    const auto& p = points[std::size_t(i)];
                    if (!p.ok() || p.shape != sel->shape || p.mode != mode ||
                        p.backend != backend.toStdString())
                        continue;
                    // GPU points: a bar of host wall time and one of GPU time (CUDA events)
                    // per phase; the gap is launch and synchronisation overhead.
                    const bool device = p.gpu && std::any_of(p.gpu->eventMs.begin(), p.gpu->eventMs.end(),
                                                             [](double v) { return v > 0.0; });
                    QString category = barName(results, r, p);
                    if (PointRef{r, i} == ref) category += QStringLiteral(" ◀");
                    d.categories.push_back(category);
                    for (int ph = 0; ph < kPhaseCount; ++ph) {
                        const double v = p.phaseMedianMs[std::size_t(ph)];
                        auto& set = d.barSets[std::size_t(ph)];
                        set.values.push_back(std::isfinite(v) ? v : 0.0);
                        set.tooltips.push_back(
                            QStringLiteral("%1\n%2: %3 host wall time (iteration %4)")
                                .arg(seriesName(results, r, p.backend, p.mode), set.name,
                                     std::isfinite(v) ? formatMs(v) : QStringLiteral("not run"),
                                     formatMs(p.iteration.median)));
                        set.refs.push_back({r, i});
                    }
                    if (!device) continue;
                    d.categories.push_back(barName(results, r, p) + QStringLiteral(" GPU"));
                    deviceBars = true;
                    for (int ph = 0; ph < kPhaseCount; ++ph) {
                        const double v = p.gpu->eventMs[std::size_t(ph)];
                        const double host = p.phaseMedianMs[std::size_t(ph)];
                        auto& set = d.barSets[std::size_t(ph)];
                        set.values.push_back(v);
                        set.tooltips.push_back(
                            QStringLiteral("%1\n%2: %3 GPU time (CUDA events); host wall time %4")
                                .arg(seriesName(results, r, p.backend, p.mode), set.name,
                                     v > 0.0 ? formatMs(v) : QStringLiteral("not run"),
                                     std::isfinite(host) ? formatMs(host) : QStringLiteral("-")));
                        set.refs.push_back({r, i});
                    }
                }
            }
        }
    }
    if (deviceBars)
        d.notes << QStringLiteral("Bars ending in GPU: GPU time per phase (CUDA events); the bar above "
                                  "it is the host's wall time, the gap launch and synchronisation");
    if (results.size() >= 2)
        for (int r = 0; r < static_cast<int>(results.size()); ++r)
            d.notes << barTag(results, r) + QStringLiteral("= ") + resultPrefix(results, r);
    // Inference has neither backward nor update: do not show empty sets in the legend.
    std::erase_if(d.barSets, [](const BarSet& set) {
        return std::all_of(set.values.begin(), set.values.end(), [](double v) { return v <= 0.0; });
    });
    if (s.phaseScale == PhaseScale::PercentOfBar) {
        toPercentOfBar(d);
        d.yTitle = QStringLiteral("% of each bar's iteration");
    } else if (s.phaseScale == PhaseScale::Log) {
        d.logY = true;
        d.yTitle = QStringLiteral("ms per iteration (log scale)");
    }
    labelBars(d);
    reverseCategories(d);
    dropUndrawable(d);
    return d;
}

QString phaseScaleLabel(PhaseScale scale) {
    switch (scale) {
    case PhaseScale::Linear:
        return QStringLiteral("ms, linear");
    case PhaseScale::Log:
        return QStringLiteral("ms, log");
    case PhaseScale::PercentOfBar:
        return QStringLiteral("% per bar");
    }
    return {};
}

ChartData topSubsteps(const std::vector<SweepResult>& results, const ChartSelection& s, int top) {
    ChartData d;
    d.kind = ChartData::Kind::HorizontalBars;
    d.yTitle = QStringLiteral("time per iteration [ms]");
    const PointRef ref = breakdownPoint(results, s);
    const PointResult* p = pointAt(results, ref);
    if (!p) {
        d.title = QStringLiteral("Where the time goes");
        d.notes << QStringLiteral("Nothing to show yet: select a successful point in a chart or the table.");
        return d;
    }
    std::vector<Bar> bars;
    const bool kernels = p->gpu && p->gpu->traced && !p->gpu->kernels.empty();
    if (kernels) {
        d.title = QStringLiteral("Top GPU kernels of %1").arg(pointTitle(*p));
        // Kernel names are long and the chart is half a page wide: the label is the name elided
        // in the middle, its phase after it only when the point ran several (training), so that
        // a kernel of forward and backward gets two distinct bars; the tooltip has it all.
        const bool severalPhases =
            std::any_of(p->gpu->kernels.begin(), p->gpu->kernels.end(),
                        [&](const KernelStat& k) { return k.phase != p->gpu->kernels.front().phase; });
        for (const KernelStat& k : p->gpu->kernels) {
            const QString phase = QString::fromUtf8(toString(k.phase).data());
            const QString name = phase + QStringLiteral(": ") + QString::fromStdString(k.name);
            const QString label =
                severalPhases ? elideMiddle(QString::fromStdString(k.name), kBreakdownLabelChars - 11) +
                                    QStringLiteral(" (") + phase + QLatin1Char(')')
                              : elideMiddle(QString::fromStdString(k.name), kBreakdownLabelChars);
            bars.push_back({label, name, k.count * k.meanUs / 1000.0,
                            QStringLiteral("%1 launches per iteration, mean %2, %3% of GPU kernel time")
                                .arg(k.count)
                                .arg(formatMs(k.meanUs / 1000.0))
                                .arg(k.share * 100.0, 0, 'f', 1)});
        }
    } else {
        d.title = QStringLiteral("Top sub-steps of %1").arg(pointTitle(*p));
        // The label is the step's name ("layer 0 backward", "SGD"), its phase after it only where
        // two phases have a step of that name: QtCharts cuts labels wider than a third of the chart.
        for (const StepStat& st : p->steps) {
            const QString phase = QString::fromUtf8(toString(st.phase).data());
            const QString step = QString::fromStdString(st.name);
            const QString name = phase + QStringLiteral(": ") + step;
            const bool shared = std::any_of(p->steps.begin(), p->steps.end(), [&](const StepStat& o) {
                return o.name == st.name && o.phase != st.phase;
            });
            bars.push_back({shared ? step + QStringLiteral(" (") + phase + QLatin1Char(')') : step, name,
                            st.medianMs,
                            QStringLiteral("%1 call(s) per iteration").arg(st.callsPerIteration)});
        }
        if (p->gpu && !p->gpu->traced && !p->gpu->unavailableReason.empty())
            d.notes << QString::fromStdString(p->gpu->unavailableReason);
    }
    std::stable_sort(bars.begin(), bars.end(), [](const Bar& a, const Bar& b) { return a.ms > b.ms; });
    if (static_cast<int>(bars.size()) > top) {
        Bar other{QStringLiteral("other (%1 more)").arg(bars.size() - std::size_t(top)), {}, 0.0, {}};
        for (std::size_t i = std::size_t(top); i < bars.size(); ++i)
            other.ms += bars[i].ms;
        other.full = other.label;
        bars.resize(std::size_t(top));
        bars.push_back(other);
    }
    BarSet set{kernels ? QStringLiteral("GPU kernel time") : QStringLiteral("median"), {}, {}, {}};
    // Horizontal bars draw the first category at the bottom: reverse so the largest is on top.
    for (auto it = bars.rbegin(); it != bars.rend(); ++it) {
        d.categories.push_back(elideMiddle(it->label, kBreakdownLabelChars));
        set.values.push_back(it->ms);
        set.tooltips.push_back(it->full + QLatin1Char('\n') + formatMs(it->ms) +
                               QStringLiteral(" per iteration") +
                               (it->extra.isEmpty() ? QString() : QLatin1Char('\n') + it->extra));
        set.refs.push_back(ref);
    }
    if (!bars.empty()) d.barSets.push_back(std::move(set));
    if (bars.empty()) d.notes << QStringLiteral("This point recorded no sub-steps.");
    dropUndrawable(d);
    return d;
}

} // namespace rnnprof::gui

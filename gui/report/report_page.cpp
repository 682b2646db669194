#include "gui/report/report_page.h"

#include "engine/host_memory.h"
#include "gui/models/chart_selection.h"
#include "gui/models/chart_speedup.h"
#include "profiling/analysis/busy_host.h"
#include "profiling/analysis/crossover.h"
#include "profiling/analysis/traced_headline.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace rnnprof::gui {
namespace {

QString esc(const std::string& text) {
    return QString::fromStdString(text).toHtmlEscaped();
}

QString esc(const QString& text) {
    return text.toHtmlEscaped();
}

QString tag(const char* name, const QString& escapedBody) {
    const QString n = QString::fromLatin1(name);
    return QLatin1Char('<') + n + QLatin1Char('>') + escapedBody + QStringLiteral("</") + n +
           QStringLiteral(">\n");
}

QString row(const QString& key, const QString& escapedValue) {
    return QStringLiteral("<tr><th>") + esc(key) + QStringLiteral("</th><td>") + escapedValue +
           QStringLiteral("</td></tr>\n");
}

template <typename T, typename F>
QString joined(const std::vector<T>& values, F text) {
    QStringList parts;
    for (const T& v : values)
        parts << text(v);
    return parts.join(QStringLiteral(", "));
}

QString ints(const std::vector<int>& values) {
    return joined(values, [](int v) { return QString::number(v); });
}

QString modeName(Mode mode) {
    return QString::fromUtf8(toString(mode).data());
}

constexpr const char* kStyle = R"(<style>
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 24px auto; max-width: 1200px; color: #1d1d1f; }
h1 { border-bottom: 2px solid #3465a4; padding-bottom: 6px; }
h2 { margin-top: 40px; border-bottom: 1px solid #bbb; }
table { border-collapse: collapse; margin: 8px 0 16px; }
th, td { border: 1px solid #ccc; padding: 4px 10px; text-align: left; vertical-align: top; }
th { background: #eef2f8; }
figure { margin: 16px 0 32px; }
figure svg { width: 100%; height: auto; max-width: 1100px; border: 1px solid #ddd; }
/* Qt names its font family "Sans Serif", which browsers do not know; DejaVu Sans is what Qt measured. */
figure svg * { font-family: "DejaVu Sans", sans-serif; }
figcaption { color: #555; font-size: 90%; }
.muted { color: #666; }
</style>
)";

// The machine a result was measured on: everything HostInfo records.
QString machineTable(const SweepResult& r) {
    const HostInfo& h = r.host;
    QString t = QStringLiteral("<table>\n");
    t += row(QStringLiteral("host"), esc(h.hostname.empty() ? std::string("unknown host") : h.hostname));
    t += row(QStringLiteral("CPU"), esc(h.cpuModel) + QStringLiteral(", %1 cores, ").arg(h.cpuCores) +
                                        esc(formatBytes(h.memoryBytes)) + QStringLiteral(" memory"));
    t += row(QStringLiteral("OS"), esc(h.os));
    t += row(QStringLiteral("CPU libraries"), esc(h.cpuLibraries));
    if (!h.gpu.available || h.gpu.devices.empty()) t += row(QStringLiteral("GPU"), esc(h.gpu.summary()));
    for (const GpuDevice& d : h.gpu.devices)
        t += row(QStringLiteral("GPU %1").arg(d.index),
                 esc(d.name) + QStringLiteral(" (sm_%1%2, ").arg(d.computeMajor).arg(d.computeMinor) +
                     esc(formatBytes(d.totalMemory)) + QStringLiteral(", %1 SMs)").arg(d.multiprocessors));
    t += row(QStringLiteral("GPU driver"), h.gpu.driverVersion.empty()
                                               ? QStringLiteral("none")
                                               : QStringLiteral("supports CUDA ") + esc(h.gpu.driverVersion));
    t += row(QStringLiteral("GPU libraries"), esc(h.gpu.toolkitSummary()));
    // What else ran: another busy process, and the points it starved (profiling/measure/starvation.h).
    const std::string busy = hostBusyWarning(h, r.plan.settings.threads);
    if (const std::string traced = tracedHeadlineBrief(r); !traced.empty())
        t += row(QStringLiteral("GPU times"), QStringLiteral("<b>traced</b> ") + esc(traced));
    t += row(QStringLiteral("load"), busy.empty() ? QStringLiteral("quiet: no other process kept a core busy")
                                                  : QStringLiteral("<b>busy</b> ") + esc(busy));
    int measured = 0;
    for (const PointResult& p : r.points)
        measured += p.measured() ? 1 : 0;
    const int disturbed = disturbedPointCount(r);
    t += row(QStringLiteral("disturbed points"),
             QStringLiteral("%1 of %2 measured (starved of CPU by other processes%3)")
                 .arg(disturbed)
                 .arg(measured)
                 .arg(r.plan.settings.remeasureDisturbed > 0 ? QStringLiteral(", after measuring them again")
                                                             : QString()));
    t += row(QStringLiteral("rnnprof"), esc(h.rnnprofVersion));
    t += row(QStringLiteral("measured"),
             esc(r.createdAt) +
                 (r.complete ? QString() : QStringLiteral(" (incomplete: stopped or recovered)")));
    return t + QStringLiteral("</table>\n");
}

QString modelTable(const SweepResult& r) {
    QString t = QStringLiteral("<table>\n");
    t += row(QStringLiteral("model"), esc(describe(r.plan.config)));
    for (const std::string& line : fastPathLines(r.fastPath()))
        t += row(QStringLiteral("framework fast path"), esc(line));
    t +=
        row(QStringLiteral("backends"), joined(r.plan.backends, [](const std::string& b) { return esc(b); }));
    t += row(QStringLiteral("modes"), joined(r.plan.modes, modeName));
    t += row(QStringLiteral("batch sizes"), ints(r.plan.batches));
    t += row(QStringLiteral("sequence lengths"), ints(r.plan.seqLens));
    int ok = 0;
    for (const PointResult& p : r.points)
        ok += p.ok() ? 1 : 0;
    t += row(QStringLiteral("points"),
             QStringLiteral("%1 measured, %2 not").arg(ok).arg(int(r.points.size()) - ok));
    return t + QStringLiteral("</table>\n");
}

// Every pair of the result's measured backends (the earlier in the GUI's backend order as the
// baseline: CPU before GPU), per mode and sequence length: profiling's findCrossovers(), worded as
// the crossover chart words it.
QString crossoverTable(const SweepResult& r) {
    const ChartOptions options = chartOptions({r});
    if (options.measured.size() < 2)
        return QStringLiteral(
            "<p class=\"muted\">Fewer than two backends measured: nothing to compare.</p>\n");
    QString t = QStringLiteral("<table>\n<tr><th>challenger over baseline</th><th>mode</th><th>sequence "
                               "length</th><th>crossover batch</th><th>note</th></tr>\n");
    for (qsizetype b = 0; b < options.measured.size(); ++b)
        for (qsizetype c = b + 1; c < options.measured.size(); ++c)
            for (Mode mode : options.modes)
                for (const Crossover& x : findCrossovers(r.points, options.measured[b].toStdString(),
                                                         options.measured[c].toStdString(), mode)) {
                    t += QStringLiteral("<tr><td>") + esc(options.measured[c]) + QStringLiteral(" over ") +
                         esc(options.measured[b]) + QStringLiteral("</td><td>") + modeName(mode) +
                         QStringLiteral("</td><td>%1</td><td>").arg(x.seqLen) +
                         (x.batch ? esc(QString::fromStdString(crossoverText(x))) : QStringLiteral("—")) +
                         QStringLiteral("</td><td>") + esc(x.note) + QStringLiteral("</td></tr>\n");
                }
    return t + QStringLiteral("</table>\n");
}

// The pair the GUI compares across files by default (the fastest CPU backend of one file against
// the fastest GPU backend of another), read from the GUI's own crossover chart: its series give
// the crossover batch per sequence length, its notes the hosts and what has none. Empty when the
// default pair is inside each file (the per-file tables hold it).
QString acrossFilesTable(const std::vector<SweepResult>& results) {
    ChartSelection pair;
    fitSelection(pair, chartOptions(results));
    if (pair.baselineResult < 0 || pair.challengerResult < 0 || pair.baselineResult == pair.challengerResult)
        return {};
    const ChartData chart = crossoverVsSeqLen(results, pair);
    QString t = tag("h2", esc(chart.title)) +
                QStringLiteral("<table>\n<tr><th>series</th><th>sequence length</th><th>crossover "
                               "batch</th></tr>\n");
    for (const ChartSeries& series : chart.series)
        for (const ChartSample& sample : series.samples)
            t +=
                QStringLiteral("<tr><td>") + esc(series.name) +
                QStringLiteral("</td><td>%1</td><td>≈ %2</td></tr>\n").arg(sample.x).arg(sample.y, 0, 'f', 1);
    t += QStringLiteral("</table>\n<ul>\n");
    for (const QString& note : chart.notes)
        t += QStringLiteral("<li>") + esc(note) + QStringLiteral("</li>\n");
    return t + QStringLiteral("</ul>\n");
}

// The answer first: the pair the GUI compares by default (the fastest CPU backend against the
// fastest GPU backend, across files where they are in different ones), per mode and sequence
// length, with the crossover's interval and flags, and whether a machine was busy.
QString answerSection(const std::vector<SweepResult>& results) {
    ChartSelection pair;
    fitSelection(pair, chartOptions(results));
    const bool same = pair.baseline == pair.challenger && pair.baselineResult == pair.challengerResult;
    if (pair.baseline.isEmpty() || pair.challenger.isEmpty() || same)
        return QStringLiteral(
            "<p class=\"muted\">Fewer than two backends measured: no crossover to report.</p>\n");
    const std::string base = pair.baseline.toStdString(), chal = pair.challenger.toStdString();
    const int bi = std::max(pair.baselineResult, 0), ci = std::max(pair.challengerResult, 0);
    const SweepResult& br = results[std::size_t(bi)];
    const SweepResult& cr = results[std::size_t(ci)];
    QString out = QStringLiteral("<p><b>") + esc(chal) + QStringLiteral("</b> on ") +
                  esc(hostBrief(cr.host)) + QStringLiteral(" against <b>") + esc(base) +
                  QStringLiteral("</b> on ") + esc(hostBrief(br.host)) + QStringLiteral(":</p>\n<ul>\n");
    const PairMatch m = matchPair(br, base, cr, chal);
    for (const std::string& note : m.notes)
        out += QStringLiteral("<li class=\"muted\">") + esc(note) + QStringLiteral("</li>\n");
    for (Mode mode : {Mode::Inference, Mode::Training})
        for (const Crossover& c : findCrossovers(m.points, mode))
            out += QStringLiteral("<li>") + modeName(mode) + QStringLiteral(" T=%1: ").arg(c.seqLen) +
                   esc(c.note) + QStringLiteral("</li>\n");
    for (const SweepResult* r : {&br, &cr})
        if (const std::string busy = hostBusyWarning(r->host, r->plan.settings.threads); !busy.empty())
            out += QStringLiteral("<li><b>busy machine</b> ") + esc(hostBrief(r->host)) +
                   QStringLiteral(": ") + esc(busy) + QStringLiteral("</li>\n");
    for (const SweepResult* r : {&br, &cr})
        if (const std::string traced = tracedHeadlineBrief(*r); !traced.empty())
            out += QStringLiteral("<li><b>traced times</b> ") + esc(r->label) + QStringLiteral(": ") +
                   esc(traced) + QStringLiteral("</li>\n");
    return out +
           QStringLiteral("</ul>\n<p class=\"muted\">Intervals come from the spread of each side's runs "
                          "(p10 to p90); a crossing next to a noisy or disturbed point is marked.</p>\n");
}

// What the point details of the GUI show besides numbers, per backend: the session's notes (with
// how many points carry each) and why points were not measured (with their shapes).
// Keys in the order they first appear (points are in measuring order: notes read as the sweep ran).
template <typename V>
V& entry(std::vector<std::pair<std::string, V>>& list, const std::string& key) {
    for (auto& [k, v] : list)
        if (k == key) return v;
    return list.emplace_back(key, V{}).second;
}

QString notesList(const SweepResult& r) {
    using Texts = std::vector<std::pair<std::string, QStringList>>; // text -> shapes
    std::vector<std::pair<std::string, Texts>> byBackend;
    for (const PointResult& p : r.points) {
        const QString shape =
            QStringLiteral("%1 B=%2 T=%3").arg(modeName(p.mode)).arg(p.shape.batch).arg(p.shape.seqLen);
        Texts& texts = entry(byBackend, p.backend);
        if (!p.ok() && !p.predicted())
            entry(texts, std::string(toString(p.status)) + (p.reason.empty() ? "" : ": " + p.reason))
                << shape;
        if (p.predicted() && p.prediction) entry(texts, predictedFromText(*p.prediction)) << shape;
        for (const std::string& note : p.notes)
            entry(texts, note) << shape;
    }
    std::erase_if(byBackend, [](const auto& b) { return b.second.empty(); });
    if (byBackend.empty()) return QStringLiteral("<p class=\"muted\">No notes.</p>\n");
    QString out = QStringLiteral("<ul>\n");
    for (const auto& [backend, texts] : byBackend) {
        out += QStringLiteral("<li><b>") + esc(backend) + QStringLiteral("</b><ul>\n");
        for (const auto& [text, shapes] : texts) {
            const QString where = shapes.size() <= 4 ? shapes.join(QStringLiteral(", "))
                                                     : QStringLiteral("%1 points").arg(shapes.size());
            out += QStringLiteral("<li>") + esc(text) + QStringLiteral(" <span class=\"muted\">(") + where +
                   QStringLiteral(")</span></li>\n");
        }
        out += QStringLiteral("</ul></li>\n");
    }
    return out + QStringLiteral("</ul>\n");
}

QString chartSection(const std::vector<ReportChart>& charts) {
    if (charts.empty()) return QStringLiteral("<p class=\"muted\">The results hold no charts to draw.</p>\n");
    QString out;
    QString page;
    for (const ReportChart& chart : charts) {
        if (chart.page != page) {
            page = chart.page;
            out += tag("h3", esc(page));
        }
        out += QStringLiteral("<figure id=\"") + esc(chart.name) + QStringLiteral("\">\n") +
               QString::fromUtf8(chart.svg) + QStringLiteral("\n<figcaption>") + esc(chart.name) +
               QStringLiteral(" (as rnnprof plot names it)</figcaption></figure>\n");
    }
    return out;
}

} // namespace

QString reportPage(const std::vector<SweepResult>& results, const QStringList& sources,
                   const std::vector<ReportChart>& charts, const QString& createdAt) {
    auto sourceOf = [&](std::size_t i) {
        return i < std::size_t(sources.size()) ? sources[qsizetype(i)] : QString();
    };
    QString html = QStringLiteral("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                                  "<title>rnnprof report</title>\n") +
                   QString::fromLatin1(kStyle) + QStringLiteral("</head>\n<body>\n<h1>rnnprof report</h1>\n");
    html += QStringLiteral("<p>Created ") + esc(createdAt) +
            QStringLiteral(" from %1 result file%2:</p>\n<ul>\n")
                .arg(results.size())
                .arg(results.size() == 1 ? QString() : QStringLiteral("s"));
    for (std::size_t i = 0; i < results.size(); ++i)
        html += QStringLiteral("<li><a href=\"#file-%1\">").arg(i + 1) + esc(sourceOf(i)) +
                QStringLiteral("</a> — ") + esc(hostBrief(results[i].host)) + QStringLiteral("</li>\n");
    html += QStringLiteral("<li><a href=\"#charts\">Charts</a></li>\n</ul>\n");
    html += tag("h2", QStringLiteral("Where the challenger overtakes the baseline")) + answerSection(results);
    for (std::size_t i = 0; i < results.size(); ++i) {
        const SweepResult& r = results[i];
        html +=
            QStringLiteral("<h2 id=\"file-%1\">").arg(i + 1) + esc(sourceOf(i)) + QStringLiteral("</h2>\n");
        html += tag("h3", QStringLiteral("Machine")) + machineTable(r);
        html += tag("h3", QStringLiteral("Model and sweep")) + modelTable(r);
        html += tag("h3", QStringLiteral("Crossovers")) + crossoverTable(r);
        html += tag("h3", QStringLiteral("Notes")) + notesList(r);
    }
    html += acrossFilesTable(results);
    html += QStringLiteral("<h2 id=\"charts\">Charts</h2>\n") + chartSection(charts);
    return html + QStringLiteral("</body>\n</html>\n");
}

} // namespace rnnprof::gui

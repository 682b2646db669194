#include "gui/models/chart_memory.h"

#include "gui/models/chart_lines.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace rnnprof::gui {
namespace {

struct Category {
    const char* name;
    std::uint64_t (*bytes)(const MemoryFootprint&);
};

const std::array<Category, 6> kCategories{{
    {"total", [](const MemoryFootprint& m) { return m.total(); }},
    {"weights", [](const MemoryFootprint& m) { return m.weights; }},
    {"gradients", [](const MemoryFootprint& m) { return m.gradients; }},
    {"activations / reserve", [](const MemoryFootprint& m) { return m.activations; }},
    {"workspace", [](const MemoryFootprint& m) { return m.workspace; }},
    {"inputs / outputs", [](const MemoryFootprint& m) { return m.io; }},
}};

} // namespace

ChartData memoryVsBatch(const std::vector<SweepResult>& results, const ChartSelection& s) {
    ChartData d;
    const QString mode = QString::fromUtf8(toString(s.mode).data());
    d.title =
        QStringLiteral("Memory of %1 %2 by category vs batch size (T=%3)").arg(s.backend, mode).arg(s.seqLen);
    d.xTitle = QStringLiteral("batch size");
    d.yTitle = QStringLiteral("memory [MiB]");
    d.yTitleShort = QStringLiteral("MiB");
    d.logX = d.logY = true;
    const std::string backend = s.backend.toStdString();
    const ChartOptions options = chartOptions(results);
    QStringList zero;
    bool onDevice = false;
    for (std::size_t c = 0; c < kCategories.size(); ++c) {
        const Category& cat = kCategories[c];
        auto series = linesPerBackendAndMode(
            results, {[&](const PointResult& p) {
                          return p.backend == backend && p.shape.seqLen == s.seqLen && p.mode == s.mode;
                      },
                      [](const PointResult& p) { return double(p.shape.batch); },
                      [&](const PointResult& p) { return double(cat.bytes(p.memory)) / (1024.0 * 1024.0); }});
        for (auto& line : series) {
            bool allZero = true;
            for (auto& sample : line.samples) {
                allZero = allZero && sample.y <= 0.0;
                const auto& p = results[std::size_t(sample.ref.result)].points[std::size_t(sample.ref.point)];
                onDevice = onDevice || p.memory.onDevice;
                sample.noisy = false; // timing noise says nothing about memory
                sample.tooltip = QStringLiteral("%1, %2\nB=%3 T=%4: %5")
                                     .arg(QString::fromUtf8(cat.name), line.name)
                                     .arg(p.shape.batch)
                                     .arg(p.shape.seqLen)
                                     .arg(formatBytesQ(double(cat.bytes(p.memory))));
            }
            // "cpu-blas infer" -> "weights": backend and mode are in the title already.
            const QString prefix = line.name.contains(QStringLiteral(": "))
                                       ? line.name.section(QStringLiteral(": "), 0, 0) + QStringLiteral(": ")
                                       : QString();
            line.colorIndex =
                static_cast<int>(c) + line.colorIndex / std::max<int>(1, options.backends.size()) * 6;
            line.name = prefix + QString::fromUtf8(cat.name);
            line.dashed = false;
            if (allZero)
                zero << line.name;
            else
                d.series.push_back(std::move(line));
        }
    }
    if (onDevice) d.yTitle = QStringLiteral("device memory [MiB]");
    if (!zero.isEmpty())
        d.notes << QStringLiteral("Zero at every batch size, not drawn: ") + zero.join(QStringLiteral(", "));
    dropUndrawable(d);
    noteWhenEmpty(d, QStringLiteral("of %1 %2 at sequence length %3").arg(s.backend, mode).arg(s.seqLen));
    return d;
}

} // namespace rnnprof::gui

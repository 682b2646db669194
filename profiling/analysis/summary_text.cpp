#include "profiling/analysis/summary_text.h"

#include "engine/error.h"
#include "engine/host_memory.h"
#include "profiling/analysis/busy_host.h"
#include "profiling/analysis/traced_headline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

namespace rnnprof {
namespace {

std::string fixed(double v, int digits) {
    if (!std::isfinite(v)) return "-";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

std::string scientific(double v) {
    if (!std::isfinite(v)) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1e", v);
    return buf;
}

// Three significant digits: 0.0123, 1.23, 123, 12345.
std::string sig3(double v) {
    if (!std::isfinite(v)) return "-";
    const double a = std::abs(v);
    return fixed(v, a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : a >= 0.1 ? 3 : 4);
}

} // namespace

std::string formatDuration(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0) return "?";
    const long s = std::lround(seconds);
    char buf[32];
    if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, (s % 3600) / 60);
    else if (s >= 60)
        std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
    else
        std::snprintf(buf, sizeof buf, "%lds", s);
    return buf;
}

std::string progressLine(const SweepProgress& p) {
    std::ostringstream s;
    const int width = int(std::to_string(p.total).size());
    char counter[64];
    std::snprintf(counter, sizeof counter, "[%*d/%d]", width, p.done, p.total);
    s << counter << " " << (p.total > 0 ? 100 * p.done / p.total : 100) << "%";
    if (p.etaSeconds >= 0 && p.done < p.total) s << " · ETA " << formatDuration(p.etaSeconds);
    s << " · elapsed " << formatDuration(p.elapsedSeconds);
    if (!p.current.empty()) s << " · " << p.current;
    return s.str();
}

std::string summaryTable(const SweepResult& result) {
    const std::vector<std::string> header{"backend",    "mode",  "B",       "T",      "status",  "median ms",
                                          "p10-p90 ms", "seq/s", "GFLOP/s", "memory", "rel err", "note"};
    std::vector<std::vector<std::string>> rows;
    for (const PointResult& p : result.points) {
        std::vector<std::string> row{p.backend, std::string(toString(p.mode)), std::to_string(p.shape.batch),
                                     std::to_string(p.shape.seqLen), std::string(toString(p.status))};
        if (p.measured()) { // a cancelled point: the runs measured before the stop
            row.push_back(sig3(p.iteration.median));
            row.push_back(sig3(p.iteration.p10) + "-" + sig3(p.iteration.p90));
            row.push_back(sig3(p.sequencesPerSecond));
            row.push_back(sig3(p.gflopsPerSecond));
            row.push_back(formatBytes(p.memory.total()));
            row.push_back(p.numerics.checked ? scientific(p.numerics.maxRelErr) : "-");
            std::string note = disturbedText(p.disturbance);
            if (p.noisy)
                note += (note.empty() ? "" : "; ") + std::string("noisy (p10-p90 spread ") +
                        fixed(100 * relativeSpread(p.iteration), 0) + "%)";
            if (p.gpu && !p.gpu->traced && !p.gpu->unavailableReason.empty())
                note += (note.empty() ? "" : "; ") + p.gpu->unavailableReason;
            if (!p.ok()) note += (note.empty() ? "" : "; ") + p.reason;
            row.push_back(note);
        } else if (p.predicted() && p.prediction) {
            // The predicted time and its band where the measured median and spread would be.
            row.push_back(sig3(p.iteration.median));
            row.push_back(sig3(p.prediction->lowMs) + "-" +
                          (std::isfinite(p.prediction->highMs) ? sig3(p.prediction->highMs) : "?"));
            for (int i = 0; i < 4; ++i)
                row.push_back("-");
            row.push_back(predictedFromText(*p.prediction));
        } else {
            for (int i = 0; i < 6; ++i)
                row.push_back("-");
            row.push_back(p.reason);
        }
        // Backend ids, reasons and notes may come from a file: no escape sequence reaches the terminal.
        for (std::string& cell : row)
            cell = oneLine(cell);
        rows.push_back(std::move(row));
    }
    std::vector<std::size_t> width(header.size());
    for (std::size_t c = 0; c < header.size(); ++c)
        width[c] = header[c].size();
    for (const auto& row : rows)
        for (std::size_t c = 0; c + 1 < row.size(); ++c)
            width[c] = std::max(width[c], row[c].size());
    std::ostringstream s;
    auto emit = [&](const std::vector<std::string>& row) {
        for (std::size_t c = 0; c < row.size(); ++c) {
            const bool numeric = c >= 2 && c <= 3;
            const std::size_t pad = c + 1 < row.size() ? width[c] - std::min(width[c], row[c].size()) : 0;
            if (numeric)
                s << std::string(pad, ' ') << row[c];
            else
                s << row[c] << std::string(pad, ' ');
            if (c + 1 < row.size()) s << "  ";
        }
        s << "\n";
    };
    emit(header);
    for (const auto& row : rows)
        emit(row);
    int ok = 0;
    int predicted = 0;
    for (const auto& p : result.points) {
        ok += p.ok() ? 1 : 0;
        predicted += p.predicted() ? 1 : 0;
    }
    const int disturbed = disturbedPointCount(result);
    s << ok << " of " << result.points.size() << " points measured";
    if (disturbed > 0) s << ", " << disturbed << " disturbed by other processes (see each point's note)";
    if (predicted > 0) s << ", " << predicted << " predicted (not measured)";
    s << (result.complete ? "" : " (sweep stopped early)") << "\n";
    s << "cuDNN in the frameworks, for this model (" << describe(result.plan.config) << "):\n";
    for (const std::string& line : fastPathLines(result.fastPath()))
        s << "  " << oneLine(line) << "\n";
    // Warnings about the GPU trace (the same for every traced point): once each, after the table.
    std::vector<std::string> warnings;
    for (const auto& p : result.points)
        if (p.gpu)
            for (const std::string& w : p.gpu->warnings)
                if (std::find(warnings.begin(), warnings.end(), w) == warnings.end()) warnings.push_back(w);
    for (const std::string& w : warnings)
        s << "warning: " << oneLine(w) << "\n";
    if (const std::string busy = hostBusyWarning(result.host, result.plan.settings.threads); !busy.empty())
        s << "warning: " << busy << "\n";
    if (const std::string traced = tracedHeadlineBrief(result); !traced.empty())
        s << "warning: " << traced << "\n";
    return s.str();
}

} // namespace rnnprof

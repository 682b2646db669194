// results.csv: one row per point with stable column names (README "Result files"). Empty cells
// where a value does not apply: points that were not measured, phases that did not run, checks
// that were not made. RFC 4180 quoting, so that pandas and spreadsheets read it unmodified.
#include "engine/atomic_file.h"
#include "profiling/result_files.h"

#include <charconv>
#include <cmath>

namespace rnnprof {
namespace {

// Shortest text that reads back as the same double; empty for NaN and infinities.
std::string num(double v) {
    if (!std::isfinite(v)) return {};
    char text[32];
    const auto [end, ec] = std::to_chars(text, text + sizeof text, v);
    return ec == std::errc() ? std::string(text, end) : std::string();
}

std::string num(std::uint64_t v) {
    return std::to_string(v);
}

std::string boolean(bool v) {
    return v ? "true" : "false";
}

std::string quoted(const std::string& field) {
    if (field.find_first_of(",\"\r\n") == std::string::npos) return field;
    std::string out = "\"";
    for (char c : field) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

std::string phaseMs(const PointResult& p, Phase phase) {
    return num(p.phaseMedianMs[std::size_t(phase)]);
}

// One row in csvColumns() order. Measurement columns stay empty unless the point was measured.
std::vector<std::string> row(const SweepResult& r, const PointResult& p) {
    const RnnConfig& c = r.plan.config;
    const bool ok = p.ok();
    const bool checked = ok && p.numerics.checked;
    auto measured = [ok](std::string value) { return ok ? std::move(value) : std::string(); };
    return {
        p.backend,
        std::string(toString(p.mode)),
        std::string(toString(c.cell)),
        std::to_string(c.inputSize),
        std::to_string(c.hiddenSize),
        std::to_string(c.layers),
        boolean(c.bidirectional),
        std::to_string(p.shape.batch),
        std::to_string(p.shape.seqLen),
        std::string(toString(p.status)),
        measured(num(p.iteration.median)),
        measured(num(p.iteration.p10)),
        measured(num(p.iteration.p90)),
        measured(num(p.iteration.min)),
        measured(phaseMs(p, Phase::Forward)),
        measured(phaseMs(p, Phase::Backward)),
        measured(phaseMs(p, Phase::Update)),
        measured(num(p.sequencesPerSecond)),
        measured(num(p.tokensPerSecond)),
        measured(num(p.gflopsPerSecond)),
        measured(num(p.memory.weights)),
        measured(num(p.memory.activations)),
        measured(num(p.memory.workspace)),
        measured(num(p.peakRssGrowthBytes)),
        checked ? num(p.numerics.maxAbsErr) : std::string(),
        checked ? num(p.numerics.maxRelErr) : std::string(),
        measured(boolean(p.noisy)),
        p.reason,
        // Columns after the list.
        measured(num(p.iteration.max)),
        measured(num(p.iteration.mean)),
        measured(num(p.iteration.cv)),
        measured(std::to_string(p.measuredRuns)),
        measured(std::to_string(p.warmupRuns)),
        measured(num(p.flopsPerIteration)),
        measured(num(p.memory.gradients)),
        measured(num(p.memory.io)),
        measured(boolean(p.memory.onDevice)),
        ok ? p.numerics.note : std::string(),
    };
}

} // namespace

const std::vector<std::string>& csvColumns() {
    static const std::vector<std::string> columns{"backend",
                                                  "mode",
                                                  "cell",
                                                  "input_size",
                                                  "hidden_size",
                                                  "layers",
                                                  "bidirectional",
                                                  "batch",
                                                  "seq_len",
                                                  "status",
                                                  "median_ms",
                                                  "p10_ms",
                                                  "p90_ms",
                                                  "min_ms",
                                                  "forward_ms",
                                                  "backward_ms",
                                                  "update_ms",
                                                  "sequences_per_s",
                                                  "tokens_per_s",
                                                  "gflops",
                                                  "weights_bytes",
                                                  "activations_bytes",
                                                  "workspace_bytes",
                                                  "peak_rss_bytes",
                                                  "max_abs_err",
                                                  "max_rel_err",
                                                  "noisy",
                                                  "reason",
                                                  "max_ms",
                                                  "mean_ms",
                                                  "cv",
                                                  "repeats",
                                                  "warmup",
                                                  "flops",
                                                  "gradients_bytes",
                                                  "io_bytes",
                                                  "memory_on_device",
                                                  "numerics_note"};
    return columns;
}

std::string toCsv(const SweepResult& result) {
    std::string out;
    auto appendRow = [&out](const std::vector<std::string>& fields) {
        for (std::size_t i = 0; i < fields.size(); ++i) {
            if (i > 0) out += ',';
            out += quoted(fields[i]);
        }
        out += '\n';
    };
    appendRow(csvColumns());
    for (const auto& p : result.points)
        appendRow(row(result, p));
    return out;
}

void saveResultCsv(const std::string& path, const SweepResult& result) {
    writeFileAtomically(path, toCsv(result));
}

} // namespace rnnprof

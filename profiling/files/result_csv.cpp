// results.csv: one row per point with stable column names (docs/user-guide.md "Result files"). Empty cells
// where a value does not apply: points that were not measured, phases that did not run, checks
// that were not made. RFC 4180 quoting, so that pandas and spreadsheets read it unmodified. The
// results table shows the same typed cells (csvRow()), so the table and the file never disagree.
#include "engine/atomic_file.h"
#include "profiling/files/result_files.h"

#include <array>
#include <charconv>
#include <cmath>
#include <functional>

namespace rnnprof {
namespace {

// Which points a column has a value for; the others get an empty cell.
enum class Shown {
    Always,
    Measured,  // measured points: ok, or cancelled after some runs (PointResult::measured())
    Checked,   // ok points whose numerics were checked
    Timed,     // measured and predicted points: the time, measured or predicted (status says which)
    Predicted, // predicted points: the band and where it came from
};

// What a cell is read from: the sweep's result (its model and framework verdicts) and the point.
struct Source {
    const SweepResult& result;
    const RnnConfig& model;
    const PointResult& point;
    const FastPathTexts* fastPath; // the result's verdicts when a whole row is made; else derived
    [[nodiscard]] FastPathTexts verdicts() const { return fastPath ? *fastPath : result.fastPath(); }
};

struct Column {
    std::string_view name;
    Shown shown;
    CsvValue (*value)(const Source&);
};

CsvValue text(std::string_view v) {
    return std::string(v);
}
CsvValue flag(bool v) {
    return v;
}
CsvValue whole(std::int64_t v) {
    return v;
}
CsvValue count(std::uint64_t v) {
    return v;
}
// NaN and infinities are values that are not there: an empty cell.
CsvValue real(double v) {
    return std::isfinite(v) ? CsvValue(v) : CsvValue();
}
CsvValue phaseMs(const PointResult& p, Phase phase) {
    return real(p.phaseMedianMs[std::size_t(phase)]);
}

// The columns in file order: the core columns, then the ones appended after them (readers that go
// by position keep working).
const std::array<Column, 49> kColumns{{
    {"backend", Shown::Always, [](const Source& s) { return text(s.point.backend); }},
    {"mode", Shown::Always, [](const Source& s) { return text(toString(s.point.mode)); }},
    {"cell", Shown::Always, [](const Source& s) { return text(toString(s.model.cell)); }},
    {"input_size", Shown::Always, [](const Source& s) { return whole(s.model.inputSize); }},
    {"hidden_size", Shown::Always, [](const Source& s) { return whole(s.model.hiddenSize); }},
    {"layers", Shown::Always, [](const Source& s) { return whole(s.model.layers); }},
    {"bidirectional", Shown::Always, [](const Source& s) { return flag(s.model.bidirectional); }},
    {"batch", Shown::Always, [](const Source& s) { return whole(s.point.shape.batch); }},
    {"seq_len", Shown::Always, [](const Source& s) { return whole(s.point.shape.seqLen); }},
    {"status", Shown::Always, [](const Source& s) { return text(toString(s.point.status)); }},
    {"median_ms", Shown::Timed, [](const Source& s) { return real(s.point.iteration.median); }},
    {"p10_ms", Shown::Measured, [](const Source& s) { return real(s.point.iteration.p10); }},
    {"p90_ms", Shown::Measured, [](const Source& s) { return real(s.point.iteration.p90); }},
    {"min_ms", Shown::Measured, [](const Source& s) { return real(s.point.iteration.min); }},
    {"forward_ms", Shown::Measured, [](const Source& s) { return phaseMs(s.point, Phase::Forward); }},
    {"backward_ms", Shown::Measured, [](const Source& s) { return phaseMs(s.point, Phase::Backward); }},
    {"update_ms", Shown::Measured, [](const Source& s) { return phaseMs(s.point, Phase::Update); }},
    {"sequences_per_s", Shown::Measured, [](const Source& s) { return real(s.point.sequencesPerSecond); }},
    {"tokens_per_s", Shown::Measured, [](const Source& s) { return real(s.point.tokensPerSecond); }},
    {"gflops", Shown::Measured, [](const Source& s) { return real(s.point.gflopsPerSecond); }},
    {"weights_bytes", Shown::Measured, [](const Source& s) { return count(s.point.memory.weights); }},
    {"activations_bytes", Shown::Measured, [](const Source& s) { return count(s.point.memory.activations); }},
    {"workspace_bytes", Shown::Measured, [](const Source& s) { return count(s.point.memory.workspace); }},
    {"peak_rss_bytes", Shown::Measured, [](const Source& s) { return count(s.point.peakRssGrowthBytes); }},
    {"max_abs_err", Shown::Checked, [](const Source& s) { return real(s.point.numerics.maxAbsErr); }},
    {"max_rel_err", Shown::Checked, [](const Source& s) { return real(s.point.numerics.maxRelErr); }},
    {"noisy", Shown::Measured, [](const Source& s) { return flag(s.point.noisy); }},
    {"reason", Shown::Always, [](const Source& s) { return text(s.point.reason); }},
    // Columns appended after the core ones.
    {"max_ms", Shown::Measured, [](const Source& s) { return real(s.point.iteration.max); }},
    {"mean_ms", Shown::Measured, [](const Source& s) { return real(s.point.iteration.mean); }},
    {"cv", Shown::Measured, [](const Source& s) { return real(s.point.iteration.cv); }},
    {"repeats", Shown::Measured, [](const Source& s) { return whole(s.point.measuredRuns); }},
    {"warmup", Shown::Measured, [](const Source& s) { return whole(s.point.warmupRuns); }},
    {"flops", Shown::Measured, [](const Source& s) { return count(s.point.flopsPerIteration); }},
    {"gradients_bytes", Shown::Measured, [](const Source& s) { return count(s.point.memory.gradients); }},
    {"io_bytes", Shown::Measured, [](const Source& s) { return count(s.point.memory.io); }},
    {"memory_on_device", Shown::Measured, [](const Source& s) { return flag(s.point.memory.onDevice); }},
    {"numerics_note", Shown::Measured, [](const Source& s) { return text(s.point.numerics.note); }},
    // Starved of CPU by other processes (starvation.h): the flag and how many runs were.
    {"disturbed", Shown::Measured, [](const Source& s) { return flag(s.point.disturbed); }},
    {"starved_runs", Shown::Measured, [](const Source& s) { return whole(s.point.disturbance.starvedRuns); }},
    // The rest of the model, so that rows of models that differ only there tell them apart.
    {"activation", Shown::Always, [](const Source& s) { return text(activationText(s.model)); }},
    {"recurrent_activation", Shown::Always,
     [](const Source& s) { return text(toString(s.model.recurrentActivation)); }},
    {"dropout", Shown::Always, [](const Source& s) { return real(s.model.dropout); }},
    {"recurrent_dropout", Shown::Always, [](const Source& s) { return real(s.model.recurrentDropout); }},
    // Whether Keras and PyTorch would run this model on cuDNN: the sweep's, on every row.
    {"keras_cudnn", Shown::Always, [](const Source& s) { return text(s.verdicts().keras); }},
    {"pytorch_cudnn", Shown::Always, [](const Source& s) { return text(s.verdicts().pytorch); }},
    // Predicted rows (status=predicted): the band of the fit's residuals and the file it came from.
    {"predicted_low_ms", Shown::Predicted, [](const Source& s) { return real(s.point.prediction->lowMs); }},
    {"predicted_high_ms", Shown::Predicted, [](const Source& s) { return real(s.point.prediction->highMs); }},
    {"predicted_from", Shown::Predicted,
     [](const Source& s) { return text(predictedFromText(*s.point.prediction)); }},
}};

struct TextOf {
    std::string operator()(std::monostate) const { return {}; }
    std::string operator()(bool v) const { return v ? "true" : "false"; }
    std::string operator()(std::int64_t v) const { return std::to_string(v); }
    std::string operator()(std::uint64_t v) const { return std::to_string(v); }
    // Shortest text that reads back as the same double.
    std::string operator()(double v) const {
        if (!std::isfinite(v)) return {};
        char digits[32];
        const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, v);
        return ec == std::errc() ? std::string(digits, end) : std::string();
    }
    std::string operator()(const std::string& v) const { return v; }
};

std::string quoted(const std::string& field) {
    if (field.find_first_of(",\"\r\n") == std::string::npos) return field;
    std::string out = "\"";
    for (char c : field) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

} // namespace

const std::vector<std::string>& csvColumns() {
    static const std::vector<std::string> columns = [] {
        std::vector<std::string> names;
        for (const Column& c : kColumns)
            names.emplace_back(c.name);
        return names;
    }();
    return columns;
}

namespace {

CsvValue cellOf(const Source& source, std::size_t column) {
    const Column& c = kColumns.at(column);
    const PointResult& point = source.point;
    bool shown = false;
    switch (c.shown) {
    case Shown::Always:
        shown = true;
        break;
    case Shown::Measured:
        shown = point.measured();
        break;
    case Shown::Checked:
        shown = point.ok() && point.numerics.checked;
        break;
    case Shown::Timed:
        shown = point.measured() || (point.predicted() && point.prediction.has_value());
        break;
    case Shown::Predicted:
        shown = point.predicted() && point.prediction.has_value();
        break;
    }
    return shown ? c.value(source) : CsvValue();
}

} // namespace

CsvValue csvCell(const SweepResult& result, const PointResult& point, std::size_t column) {
    return cellOf(Source{result, result.plan.config, point, nullptr}, column);
}

std::vector<CsvValue> csvRow(const SweepResult& result, const PointResult& point) {
    const FastPathTexts verdicts = result.fastPath(); // derived once for the row
    const Source source{result, result.plan.config, point, &verdicts};
    std::vector<CsvValue> row;
    row.reserve(kColumns.size());
    for (std::size_t c = 0; c < kColumns.size(); ++c)
        row.push_back(cellOf(source, c));
    return row;
}

std::string csvText(const CsvValue& value) {
    return std::visit(TextOf{}, value);
}

namespace {

// The header and rows of `results`, each row led by `source(result index)` when it is given.
std::string csvTable(const std::vector<const SweepResult*>& results,
                     const std::function<std::string(std::size_t)>& source) {
    std::string out;
    auto appendField = [&out](bool first, const std::string& text) {
        if (!first) out += ',';
        out += quoted(text);
    };
    if (source) appendField(true, "source");
    for (std::size_t i = 0; i < csvColumns().size(); ++i)
        appendField(i == 0 && !source, csvColumns()[i]);
    out += '\n';
    for (std::size_t r = 0; r < results.size(); ++r) {
        const std::string from = source ? source(r) : std::string();
        for (const auto& p : results[r]->points) {
            if (source) appendField(true, from);
            const std::vector<CsvValue> row = csvRow(*results[r], p);
            for (std::size_t i = 0; i < row.size(); ++i)
                appendField(i == 0 && !source, csvText(row[i]));
            out += '\n';
        }
    }
    return out;
}

} // namespace

std::string toCsv(const SweepResult& result) {
    return csvTable({&result}, {});
}

std::string toCombinedCsv(const std::vector<SweepResult>& results) {
    std::vector<const SweepResult*> all;
    for (const auto& r : results)
        all.push_back(&r);
    return csvTable(all, [&results](std::size_t r) {
        return results[r].label.empty() ? "result " + std::to_string(r + 1) : results[r].label;
    });
}

void saveCombinedCsv(const std::string& path, const std::vector<SweepResult>& results) {
    writeFileAtomically(path, toCombinedCsv(results));
}

void saveResultCsv(const std::string& path, const SweepResult& result) {
    writeFileAtomically(path, toCsv(result));
}

std::string toCrossoverCsv(const SweepResult& result) {
    std::string out =
        "baseline,challenger,mode,seq_len,batch,low,high,verdict,flags,measured_batches,grid_batches\n";
    const TextOf text;
    for (const CrossoverRecord& c : result.crossovers) {
        std::string flags;
        for (const std::string& f : c.flags)
            flags += (flags.empty() ? "" : "; ") + f;
        const std::vector<std::string> row{quoted(c.baseline),
                                           quoted(c.challenger),
                                           std::string(toString(c.mode)),
                                           std::to_string(c.seqLen),
                                           text(c.batch),
                                           text(c.low),
                                           text(c.high),
                                           quoted(c.verdict),
                                           quoted(flags),
                                           c.gridBatches > 0 ? std::to_string(c.measuredBatches)
                                                             : std::string(),
                                           c.gridBatches > 0 ? std::to_string(c.gridBatches) : std::string()};
        for (std::size_t i = 0; i < row.size(); ++i)
            out += (i == 0 ? "" : ",") + row[i];
        out += '\n';
    }
    return out;
}

void saveCrossoverCsv(const std::string& path, const SweepResult& result) {
    writeFileAtomically(path, toCrossoverCsv(result));
}

} // namespace rnnprof

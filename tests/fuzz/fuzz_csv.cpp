// libFuzzer target: the CSV file and the results table are both built from csvRow()'s typed cells,
// and the text of a result (backend ids, reasons, notes) comes from files a user opens. A
// SweepResult whose strings and numbers come from the input is written by toCsv() and read back by
// a strict RFC 4180 reader here: one header row plus one row per point, each with every column,
// each field exactly its cell's csvText(), and numbers that read back as the same value.
#include "fuzz_support.h"
#include "profiling/files/result_files.h"
#include "tests/support/strict_csv.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <charconv>
#include <cmath>
#include <limits>

using namespace rnnprof;

namespace {

using Row = test::CsvRow;

std::vector<Row> readCsv(const std::string& text) {
    test::StrictCsv csv = test::readStrictCsv(text);
    fuzz::require(csv.problem.empty(), csv.problem);
    return std::move(csv.rows);
}

template <class T>
void requireReadsBack(const std::string& text, T value) {
    T back{};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), back);
    fuzz::require(ec == std::errc() && end == text.data() + text.size() && back == value,
                  [&] { return "CSV number '" + text + "' does not read back as its value"; });
}

double anyDouble(FuzzedDataProvider& in) {
    switch (in.ConsumeIntegralInRange<int>(0, 4)) {
    case 0:
        return std::numeric_limits<double>::quiet_NaN();
    case 1:
        return std::numeric_limits<double>::infinity();
    default:
        return in.ConsumeFloatingPoint<double>();
    }
}

PointResult anyPoint(FuzzedDataProvider& in) {
    PointResult p;
    p.backend = in.ConsumeRandomLengthString(40);
    p.mode = in.ConsumeBool() ? Mode::Training : Mode::Inference;
    p.shape = {in.ConsumeIntegral<int>(), in.ConsumeIntegral<int>()};
    p.status = static_cast<PointStatus>(in.ConsumeIntegralInRange<int>(0, 5));
    p.reason = in.ConsumeRandomLengthString(80);
    p.iteration.median = anyDouble(in);
    p.iteration.p10 = anyDouble(in);
    p.iteration.cv = anyDouble(in);
    p.phaseMedianMs = {anyDouble(in), anyDouble(in), anyDouble(in)};
    p.flopsPerIteration = in.ConsumeIntegral<std::uint64_t>();
    p.sequencesPerSecond = anyDouble(in);
    p.memory.workspace = in.ConsumeIntegral<std::uint64_t>();
    p.numerics.checked = in.ConsumeBool();
    p.numerics.maxAbsErr = anyDouble(in);
    p.numerics.note = in.ConsumeRandomLengthString(40);
    p.noisy = in.ConsumeBool();
    return p;
}

} // namespace

// The first byte is skipped, as in the earlier two-mode target, so that its seeds keep their meaning.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    FuzzedDataProvider in(data + 1, size - 1);
    SweepResult result;
    result.plan.config.inputSize = in.ConsumeIntegral<int>();
    const int count = in.ConsumeIntegralInRange<int>(0, 8);
    for (int i = 0; i < count; ++i)
        result.points.push_back(anyPoint(in));
    const auto rows = readCsv(toCsv(result));
    fuzz::require(rows.size() == result.points.size() + 1, [&] {
        return "toCsv() has " + std::to_string(rows.size()) + " rows for " +
               std::to_string(result.points.size()) + " points";
    });
    fuzz::require(rows.front() == csvColumns(), "the CSV header is not csvColumns()");
    for (std::size_t r = 0; r < result.points.size(); ++r) {
        const std::vector<CsvValue> cells = csvRow(result, result.points[r]);
        const Row& row = rows[r + 1];
        fuzz::require(row.size() == csvColumns().size() && cells.size() == csvColumns().size(), [&] {
            return "a CSV row has " + std::to_string(row.size()) + " fields and " +
                   std::to_string(cells.size()) + " cells, the header " + std::to_string(csvColumns().size());
        });
        for (std::size_t c = 0; c < row.size(); ++c) {
            fuzz::require(row[c] == csvText(cells[c]),
                          [&] { return "CSV field " + csvColumns()[c] + " is not its cell's text"; });
            if (const auto* v = std::get_if<double>(&cells[c])) {
                fuzz::require(std::isfinite(*v), "a non-finite number in a cell (it must be empty)");
                requireReadsBack(row[c], *v);
            } else if (const auto* n = std::get_if<std::int64_t>(&cells[c])) {
                requireReadsBack(row[c], *n);
            } else if (const auto* u = std::get_if<std::uint64_t>(&cells[c])) {
                requireReadsBack(row[c], *u);
            }
        }
    }
    return 0;
}

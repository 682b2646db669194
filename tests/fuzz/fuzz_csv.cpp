// libFuzzer target: CSV is read back inside rnnprof — the results table shows exactly what the CSV
// export writes by parsing toCsv() with gui::parseCsv() — and the text of a loaded result (backend
// ids, reasons, notes) comes from files a user opens. The first byte picks the mode:
//   even: parseCsv() over arbitrary text (must not crash);
//   odd:  a SweepResult whose strings and numbers come from the input, written by toCsv() and read
//         by parseCsv(): one header row plus one row per point, each with every column.
#include "fuzz_support.h"
#include "gui/csv_text.h"
#include "profiling/result_files.h"

#include <fuzzer/FuzzedDataProvider.h>

using namespace rnnprof;

namespace {

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

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    if (data[0] % 2 == 0) {
        const auto rows =
            gui::parseCsv(QString::fromUtf8(reinterpret_cast<const char*>(data + 1), qsizetype(size - 1)));
        for (const QStringList& row : rows)
            fuzz::require(!row.isEmpty(), "parseCsv returned a row without fields");
        return 0;
    }
    FuzzedDataProvider in(data + 1, size - 1);
    SweepResult result;
    const int count = in.ConsumeIntegralInRange<int>(0, 8);
    for (int i = 0; i < count; ++i)
        result.points.push_back(anyPoint(in));
    const auto rows = gui::parseCsv(QString::fromStdString(toCsv(result)));
    fuzz::require(rows.size() == result.points.size() + 1,
                  "parseCsv(toCsv()) has " + std::to_string(rows.size()) + " rows for " +
                      std::to_string(result.points.size()) + " points");
    for (const QStringList& row : rows)
        fuzz::require(std::size_t(row.size()) == csvColumns().size(),
                      "a CSV row has " + std::to_string(row.size()) + " fields, the header " +
                          std::to_string(csvColumns().size()));
    return 0;
}

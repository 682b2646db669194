// results.csv: the exact header, one row per point with as many cells as the header after
// RFC 4180 parsing, numbers that parse as numbers, and empty cells where nothing applies.
#include "profiling/files/result_files.h"
#include "sample_results.h"
#include "support/strict_csv.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <variant>

namespace rnnprof {
namespace {

using Row = test::CsvRow;

std::vector<Row> parseCsv(const std::string& text) {
    test::StrictCsv csv = test::readStrictCsv(text);
    EXPECT_EQ(csv.problem, "");
    return std::move(csv.rows);
}

bool isNumber(const std::string& s) {
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && end == s.data() + s.size();
}

std::size_t column(const std::string& name) {
    const auto& cols = csvColumns();
    return std::size_t(std::find(cols.begin(), cols.end(), name) - cols.begin());
}

const std::set<std::string> kTextColumns{"backend",
                                         "mode",
                                         "cell",
                                         "bidirectional",
                                         "status",
                                         "noisy",
                                         "reason",
                                         "memory_on_device",
                                         "numerics_note",
                                         "keras_cudnn",
                                         "pytorch_cudnn",
                                         "predicted_from",
                                         "disturbed",
                                         "activation",
                                         "recurrent_activation"};

TEST(ResultCsv, HeaderStartsExactlyWithTheDocumentedColumns) {
    const std::string documented =
        "backend,mode,cell,input_size,hidden_size,layers,bidirectional,batch,seq_len,status,median_ms,p10_ms,"
        "p90_ms,min_ms,forward_ms,backward_ms,update_ms,sequences_per_s,tokens_per_s,gflops,weights_bytes,"
        "activations_bytes,workspace_bytes,peak_rss_bytes,max_abs_err,max_rel_err,noisy,reason";
    const std::string csv = toCsv(test::sampleResult());
    EXPECT_EQ(csv.substr(0, documented.size() + 1), documented + ",");
    const Row header = parseCsv(csv).front();
    EXPECT_EQ(header, csvColumns());
    EXPECT_EQ(std::set<std::string>(header.begin(), header.end()).size(), header.size()) << "unique names";
}

TEST(ResultCsv, EveryRowHasTheHeadersColumnCount) {
    const SweepResult r = test::sampleResult();
    const auto rows = parseCsv(toCsv(r));
    ASSERT_EQ(rows.size(), r.points.size() + 1);
    for (const Row& row : rows)
        EXPECT_EQ(row.size(), csvColumns().size());
}

TEST(ResultCsv, NumericColumnsParseAsNumbersOrAreEmpty) {
    const auto rows = parseCsv(toCsv(test::sampleResult()));
    for (std::size_t r = 1; r < rows.size(); ++r)
        for (std::size_t c = 0; c < csvColumns().size(); ++c) {
            if (kTextColumns.contains(csvColumns()[c])) continue;
            const std::string& cell = rows[r][c];
            EXPECT_TRUE(cell.empty() || isNumber(cell))
                << csvColumns()[c] << " = '" << cell << "' in row " << r;
        }
}

TEST(ResultCsv, ReasonsWithCommasQuotesAndNewlinesSurviveQuoting) {
    const SweepResult r = test::sampleResult();
    const auto rows = parseCsv(toCsv(r));
    EXPECT_EQ(rows[4][column("reason")], r.points[3].reason);
    EXPECT_EQ(rows[4][column("status")], "failed");
    EXPECT_EQ(rows[5][column("status")], "ineligible");
}

TEST(ResultCsv, ValuesAreWrittenExactly) {
    const SweepResult r = test::sampleResult();
    const auto rows = parseCsv(toCsv(r));
    const Row& gpu = rows[2];
    EXPECT_EQ(gpu[column("backend")], "gpu-cudnn");
    EXPECT_EQ(gpu[column("mode")], "train");
    EXPECT_EQ(gpu[column("cell")], "gru");
    EXPECT_EQ(gpu[column("bidirectional")], "false");
    EXPECT_EQ(gpu[column("batch")], "64");
    EXPECT_EQ(gpu[column("seq_len")], "20");
    EXPECT_EQ(gpu[column("noisy")], "false");
    EXPECT_EQ(gpu[column("memory_on_device")], "true");
    EXPECT_EQ(gpu[column("peak_rss_bytes")], "8589934592");
    EXPECT_EQ(gpu[column("flops")], "123456789012");
    EXPECT_EQ(std::stod(gpu[column("median_ms")]), r.points[1].iteration.median);
    EXPECT_EQ(std::stod(gpu[column("gflops")]), r.points[1].gflopsPerSecond);
    EXPECT_EQ(std::stod(gpu[column("max_rel_err")]), 2.25e-6);
    EXPECT_EQ(rows[1][column("mode")], "infer");
}

TEST(ResultCsv, CellsThatDoNotApplyAreEmpty) {
    SweepResult r = test::sampleResult();
    r.points[2].numerics.checked = false;
    const auto rows = parseCsv(toCsv(r));
    // Inference: no backward or update phase.
    EXPECT_EQ(rows[1][column("backward_ms")], "");
    EXPECT_EQ(rows[1][column("update_ms")], "");
    EXPECT_NE(rows[1][column("forward_ms")], "");
    // No numeric check made.
    EXPECT_EQ(rows[3][column("max_abs_err")], "");
    // A point that was not measured has only its identity, status and reason.
    const Row& failed = rows[4];
    for (const char* name : {"median_ms", "p10_ms", "forward_ms", "sequences_per_s", "gflops",
                             "weights_bytes", "peak_rss_bytes", "max_abs_err", "noisy", "flops", "repeats"})
        EXPECT_EQ(failed[column(name)], "") << name;
    EXPECT_EQ(failed[column("backend")], "gpu-generic");
    EXPECT_EQ(failed[column("hidden_size")], "64");
}

// The file and the results table are built from the same typed cells: each field of the file is
// its cell's text, and the cells hold the point's values with their types.
TEST(ResultCsv, EachFieldIsTheTextOfItsTypedCell) {
    SweepResult r = test::sampleResult();
    r.points[2].numerics.checked = false;
    const auto rows = parseCsv(toCsv(r));
    ASSERT_EQ(rows.size(), r.points.size() + 1);
    for (std::size_t p = 0; p < r.points.size(); ++p) {
        const std::vector<CsvValue> cells = csvRow(r, r.points[p]);
        ASSERT_EQ(cells.size(), csvColumns().size());
        for (std::size_t c = 0; c < cells.size(); ++c) {
            EXPECT_EQ(csvText(cells[c]), rows[p + 1][c]) << csvColumns()[c] << " in row " << p + 1;
            const bool text =
                std::holds_alternative<std::string>(cells[c]) || std::holds_alternative<bool>(cells[c]);
            if (!std::holds_alternative<std::monostate>(cells[c])) {
                EXPECT_EQ(text, kTextColumns.contains(csvColumns()[c])) << csvColumns()[c];
            }
        }
    }
    const auto gpu = csvRow(r, r.points[1]);
    EXPECT_EQ(std::get<std::string>(gpu[column("mode")]), "train");
    EXPECT_EQ(std::get<std::int64_t>(gpu[column("hidden_size")]), 64);
    EXPECT_EQ(std::get<std::int64_t>(gpu[column("batch")]), 64);
    EXPECT_EQ(std::get<std::uint64_t>(gpu[column("flops")]), 123456789012ULL);
    EXPECT_EQ(std::get<double>(gpu[column("median_ms")]), 1.3);
    EXPECT_EQ(std::get<bool>(gpu[column("memory_on_device")]), true);
    const auto inference = csvRow(r, r.points[0]);
    EXPECT_TRUE(std::holds_alternative<std::monostate>(inference[column("backward_ms")]));
    EXPECT_TRUE(std::holds_alternative<std::monostate>(csvRow(r, r.points[2])[column("max_abs_err")]));
    const auto failed = csvRow(r, r.points[3]);
    for (const char* name : {"median_ms", "weights_bytes", "noisy", "repeats", "numerics_note"})
        EXPECT_TRUE(std::holds_alternative<std::monostate>(failed[column(name)])) << name;
    EXPECT_EQ(std::get<std::string>(failed[column("reason")]), r.points[3].reason);
}

// The last two columns: whether Keras and PyTorch would run the sweep's model on cuDNN, the same
// on every row, measured or not. Here an LSTM with relu and without bias.
TEST(ResultCsv, EveryRowEndsWithTheFrameworkVerdictsOfTheModel) {
    SweepResult r = test::sampleResult();
    r.plan.config.cell = CellType::Lstm;
    r.plan.config.activation = Activation::Relu;
    r.plan.config.bias = false;
    const std::string keras =
        "no: activation=relu (Keras needs tanh for cuDNN and falls back to the generic kernel); bias=false "
        "(Keras needs use_bias=True for cuDNN and falls back to the generic kernel)";
    const std::string pytorch = "no: activation=relu (nn.LSTM has no activation option: it always uses tanh)";
    const auto& cols = csvColumns();
    ASSERT_GE(cols.size(), 5u);
    // The verdicts come before the three columns of predicted rows, added after them.
    EXPECT_EQ(cols[cols.size() - 5], "keras_cudnn");
    EXPECT_EQ(cols[cols.size() - 4], "pytorch_cudnn");
    EXPECT_EQ(cols.back(), "predicted_from");
    const auto rows = parseCsv(toCsv(r));
    ASSERT_EQ(rows.size(), r.points.size() + 1);
    for (std::size_t i = 1; i < rows.size(); ++i) {
        EXPECT_EQ(rows[i][column("keras_cudnn")], keras) << "row " << i;
        EXPECT_EQ(rows[i][column("pytorch_cudnn")], pytorch) << "row " << i;
        EXPECT_EQ(std::get<std::string>(csvRow(r, r.points[i - 1])[column("keras_cudnn")]), keras);
    }
    // The sample's default GRU is on both fast paths; a recorded verdict is written as recorded.
    const auto sample = parseCsv(toCsv(test::sampleResult()));
    EXPECT_EQ(sample[1][column("keras_cudnn")], "yes");
    EXPECT_EQ(sample[4][column("pytorch_cudnn")], "yes");
    r.recordedFastPath = FastPathTexts{"no: as recorded", "yes"};
    EXPECT_EQ(parseCsv(toCsv(r))[2][column("keras_cudnn")], "no: as recorded");
}

TEST(ResultCsv, CellTextIsExactAndEmptyForValuesThatAreNotThere) {
    EXPECT_EQ(csvText(CsvValue()), "");
    EXPECT_EQ(csvText(CsvValue(true)), "true");
    EXPECT_EQ(csvText(CsvValue(false)), "false");
    EXPECT_EQ(csvText(CsvValue(std::int64_t{-2147483648LL})), "-2147483648");
    EXPECT_EQ(csvText(CsvValue(std::uint64_t{18446744073709551615ULL})), "18446744073709551615");
    EXPECT_EQ(csvText(CsvValue(0.1)), "0.1");
    EXPECT_EQ(csvText(CsvValue(1e300)), "1e+300");
    EXPECT_EQ(csvText(CsvValue(std::nan(""))), "");
    EXPECT_EQ(csvText(CsvValue(std::string("a,\"b\""))), "a,\"b\"")
        << "quoting is the file's, not the cell's";
}

TEST(ResultCsv, EmptySweepIsTheHeaderAlone) {
    const auto rows = parseCsv(toCsv(SweepResult{}));
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0], csvColumns());
}

TEST(ResultCsv, SavesAtomically) {
    test::TempDir dir;
    saveResultCsv(dir.file("r.csv"), test::sampleResult());
    std::ifstream in(dir.file("r.csv"));
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), toCsv(test::sampleResult()));
}

TEST(ResultCsv, APredictedRowSaysPredictedWithItsTimeBandAndSourceAndNoMeasuredValues) {
    SweepResult r = test::sampleResult();
    r.points = {test::predictedSamplePoint()};
    const auto rows = parseCsv(toCsv(r));
    ASSERT_EQ(rows.size(), 2u);
    const Row& row = rows[1];
    EXPECT_EQ(row[column("status")], "predicted");
    EXPECT_EQ(row[column("median_ms")], "0.42");
    EXPECT_EQ(row[column("predicted_low_ms")], "0.35");
    EXPECT_EQ(row[column("predicted_high_ms")], "") << "an open upper bound is an empty cell";
    EXPECT_EQ(row[column("predicted_from")],
              "predicted from h100-quick-start.json (NVIDIA H100 80GB HBM3) \u2014 not measured");
    EXPECT_EQ(row[column("reason")], row[column("predicted_from")]);
    // Nothing a measurement gives is filled in: not the spread, not the throughput, not memory.
    for (const char* measuredOnly : {"p10_ms", "p90_ms", "min_ms", "sequences_per_s", "gflops", "repeats"})
        EXPECT_EQ(row[column(measuredOnly)], "") << measuredOnly;
    // And a measured row leaves the predicted columns empty.
    const auto sample = parseCsv(toCsv(test::sampleResult()));
    EXPECT_EQ(sample[1][column("predicted_from")], "");
    EXPECT_EQ(sample[1][column("predicted_low_ms")], "");
}

} // namespace
} // namespace rnnprof

namespace rnnprof {
namespace {

TEST(CombinedCsv, ASourceColumnLeadsTheRowsOfEveryResultInOrder) {
    SweepResult a = test::sampleResult();
    a.label = "laptop, \"fast\" run"; // a label CSV must quote
    SweepResult b = test::sampleResult();
    b.label.clear(); // no label: named by its position
    const auto rows = parseCsv(toCombinedCsv({a, b}));
    const auto single = parseCsv(toCsv(a));
    ASSERT_EQ(rows.size(), 1 + 2 * a.points.size());
    ASSERT_FALSE(rows[0].empty());
    EXPECT_EQ(rows[0][0], "source");
    EXPECT_EQ(Row(rows[0].begin() + 1, rows[0].end()), single[0]);
    for (std::size_t i = 0; i < a.points.size(); ++i) {
        EXPECT_EQ(rows[1 + i][0], a.label);
        EXPECT_EQ(Row(rows[1 + i].begin() + 1, rows[1 + i].end()), single[1 + i]);
        EXPECT_EQ(rows[1 + a.points.size() + i][0], "result 2");
    }
}

} // namespace
} // namespace rnnprof

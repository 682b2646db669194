// gpu-cudnn's size estimates against cuDNN's own answers (cudnnGetRNNWeightSpaceSize and
// cudnnGetRNNTempSpaceSizes of cuDNN 9.14 on an H100), in two tables measured on the GPU machine:
//   cudnn-rnn-sizes-session-h100.csv  8,016 configurations asked through the session's own
//       descriptors by tests/bench/cudnn_sizes (a sample of the 164,160 the estimate was fitted
//       to), with dropout between layers;
//   cudnn-rnn-sizes-h100.csv          5,760 configurations (4,608 accepted) from a standalone
//       program whose descriptors are not recorded: its workspaces are up to 4.2x smaller in
//       training (no copy of the inputs), so it bounds the estimate from below only.
// The estimate is gpu-cudnn's estimateMemory(), the footprint a point has before a session can
// ask cuDNN (the verdict's, what a refused point records): it must never fall short, and must not
// be so high that it calls points too large that fit. No GPU needed.
#include "engine/gpu/cudnn_memory.h"
#include "engine/gpu/cudnn_weight_map.h"
#include "support/strict_csv.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>

namespace rnnprof {
namespace {

CudnnAlgo algoOf(const std::string& name) {
    const std::optional<CudnnAlgo> algo = parseCudnnAlgo(name);
    EXPECT_TRUE(algo.has_value()) << name;
    return algo.value_or(CudnnAlgo::Standard);
}

struct CudnnRow {
    std::string algo;
    Problem problem;
    int status = 0;
    std::uint64_t weightSpace = 0;
    std::uint64_t workspace = 0;
    std::uint64_t reserve = 0;
    std::string text; // the row as written, for messages
};

constexpr const char* kShippedTable = "cudnn-rnn-sizes-h100.csv";
constexpr const char* kSessionTable = "cudnn-rnn-sizes-session-h100.csv";

std::vector<CudnnRow> readRows(const std::string& table = kShippedTable) {
    const std::string path = std::string(RNNPROF_TEST_DATA) + "/cudnn/" + table;
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    const test::StrictCsv csv = test::readStrictCsv(text.str());
    EXPECT_TRUE(csv.problem.empty()) << path << ": " << csv.problem;
    EXPECT_FALSE(csv.rows.empty()) << "cannot read " << path;
    if (csv.rows.empty()) return {};
    const test::CsvRow& header = csv.rows.front();
    // The session table has a dropout column before the status; the rest is the same.
    const bool withDropout = header.size() == 15;
    test::CsvRow expected{"cudnn_version",   "cell",         "algo",          "input_size",
                          "hidden_size",     "layers",       "bidirectional", "batch",
                          "seq_len",         "mode",         "status",        "weight_space_bytes",
                          "workspace_bytes", "reserve_bytes"};
    if (withDropout) expected.insert(expected.begin() + 10, "dropout");
    EXPECT_EQ(header, expected);
    const std::size_t at = withDropout ? 11 : 10; // the status column
    std::vector<CudnnRow> rows;
    for (std::size_t i = 1; i < csv.rows.size(); ++i) {
        const test::CsvRow& f = csv.rows[i];
        if (f.size() != expected.size()) {
            ADD_FAILURE() << "row " << i << " has " << f.size() << " fields";
            continue;
        }
        CudnnRow r;
        r.algo = f[2];
        RnnConfig& c = r.problem.config;
        c.cell = f[1] == "gru" ? CellType::Gru : CellType::Lstm;
        c.inputSize = std::stoi(f[3]);
        c.hiddenSize = std::stoi(f[4]);
        c.layers = std::stoi(f[5]);
        c.bidirectional = f[6] == "1";
        r.problem.shape = {std::stoi(f[7]), std::stoi(f[8])};
        r.problem.mode = f[9] == "train" ? Mode::Training : Mode::Inference;
        if (withDropout) c.dropout = std::stod(f[10]);
        r.problem.options.cudnnAlgo = algoOf(r.algo);
        r.status = std::stoi(f[at]);
        r.weightSpace = std::stoull(f[at + 1]);
        r.workspace = std::stoull(f[at + 2]);
        r.reserve = std::stoull(f[at + 3]);
        for (const std::string& field : f)
            r.text += (r.text.empty() ? "" : ",") + field;
        rows.push_back(std::move(r));
    }
    return rows;
}

// estimate / cuDNN over the accepted rows of one algorithm, with the row of the extremes.
struct Ratios {
    std::vector<double> values;
    double min = 1e300, max = 0;
    std::string minRow, maxRow;
    void add(double r, const std::string& row) {
        values.push_back(r);
        if (r < min) min = r, minRow = row;
        if (r > max) max = r, maxRow = row;
    }
    [[nodiscard]] double median() const {
        std::vector<double> v = values;
        std::sort(v.begin(), v.end());
        return v.empty() ? 0.0 : v[v.size() / 2];
    }
    [[nodiscard]] std::string describe() const {
        std::ostringstream s;
        s << values.size() << " rows, estimate/cuDNN median " << median() << ", lowest " << min << " ("
          << minRow << "), highest " << max << " (" << maxRow << ")";
        return s.str();
    }
};

TEST(CudnnSizes, TheTableHoldsEveryConfigurationOnce) {
    const std::vector<CudnnRow> rows = readRows();
    EXPECT_EQ(rows.size(), 5760u);
    std::size_t accepted = 0;
    std::map<std::string, int> algos;
    for (const CudnnRow& r : rows) {
        accepted += r.status == 0 ? 1 : 0;
        ++algos[r.algo];
    }
    EXPECT_EQ(accepted, 4608u);
    EXPECT_EQ(algos, (std::map<std::string, int>{
                         {"persist_static", 1920}, {"persist_static_small_h", 1920}, {"standard", 1920}}));
}

TEST(CudnnSizes, TheSessionTableHoldsEveryAlgorithmModeAndDropout) {
    std::map<std::string, int> algos;
    int accepted = 0, withDropout = 0;
    const std::vector<CudnnRow> rows = readRows(kSessionTable);
    for (const CudnnRow& r : rows) {
        ++algos[r.algo];
        accepted += r.status == 0 ? 1 : 0;
        withDropout += r.problem.config.dropout > 0 ? 1 : 0;
    }
    EXPECT_EQ(rows.size(), 8016u);
    EXPECT_EQ(accepted, 6720);
    EXPECT_EQ(withDropout, 768);
    EXPECT_EQ(algos.size(), 3u);
}

TEST(CudnnSizes, WeightSpaceIsExactlyTheDenseParameterCount) {
    int checked = 0;
    for (const CudnnRow& r : readRows()) {
        if (r.status != 0) continue;
        ASSERT_EQ(gpu::estimateCudnnSpaces(r.problem).weightSpace, r.weightSpace) << r.text;
        ASSERT_EQ(std::uint64_t(gpu::cudnnDenseParameterCount(r.problem.config)) * sizeof(float),
                  r.weightSpace)
            << r.text;
        ++checked;
    }
    EXPECT_EQ(checked, 4608);
}

// estimate / cuDNN per algorithm over the accepted rows of a table.
struct TableRatios {
    std::map<std::string, Ratios> workspace, reserve;
};

TableRatios ratiosOver(const std::string& table) {
    TableRatios t;
    auto& [workspace, reserve] = t;
    for (const CudnnRow& r : readRows(table)) {
        if (r.status != 0) continue;
        const gpu::CudnnSpaceSizes e = gpu::estimateCudnnSpaces(r.problem);
        EXPECT_EQ(e.weightSpace, r.weightSpace) << r.text;
        EXPECT_GT(r.workspace, 0u) << r.text;
        workspace[r.algo].add(double(e.workspace) / double(std::max<std::uint64_t>(r.workspace, 1)), r.text);
        if (r.problem.mode == Mode::Training) {
            EXPECT_GT(r.reserve, 0u) << r.text;
            if (r.reserve > 0) reserve[r.algo].add(double(e.reserve) / double(r.reserve), r.text);
        } else {
            EXPECT_EQ(r.reserve, 0u) << r.text;
            EXPECT_EQ(e.reserve, 0u) << "inference keeps no reserve space: " << r.text;
        }
    }
    return t;
}

TEST(CudnnSizes, EstimateIsNeverBelowCudnnOnTheH100ThroughTheSessionsDescriptors) {
    const auto [workspace, reserve] = ratiosOver(kSessionTable);
    ASSERT_EQ(workspace.size(), 3u);
    for (const auto& [algo, ratios] : workspace) {
        SCOPED_TRACE("workspace, " + algo + ": " + ratios.describe());
        EXPECT_GE(ratios.min, 1.0) << "the estimate falls short of cuDNN";
        // Not absurdly high: a point the estimate refuses should not fit by a wide margin.
        EXPECT_LE(ratios.median(), 1.12);
        EXPECT_LE(ratios.max, 1.9);
    }
    for (const auto& [algo, ratios] : reserve) {
        SCOPED_TRACE("reserve, " + algo + ": " + ratios.describe());
        EXPECT_GE(ratios.min, 1.0) << "the estimate falls short of cuDNN";
        EXPECT_LE(ratios.max, 1.01) << "cuDNN's reserve rule is known exactly";
    }
    // The numbers, for the record (ctest --output-on-failure -V shows them).
    for (const auto& [algo, ratios] : workspace)
        std::printf("workspace %s: %s\n", algo.c_str(), ratios.describe().c_str());
    for (const auto& [algo, ratios] : reserve)
        std::printf("reserve %s: %s\n", algo.c_str(), ratios.describe().c_str());
}

TEST(CudnnSizes, EstimateIsNeverBelowTheStandaloneTable) {
    const auto [workspace, reserve] = ratiosOver(kShippedTable);
    ASSERT_EQ(workspace.size(), 3u);
    for (const auto& [algo, ratios] : workspace) {
        SCOPED_TRACE("workspace, " + algo + ": " + ratios.describe());
        EXPECT_GE(ratios.min, 1.0) << "the estimate falls short of cuDNN";
        EXPECT_LE(ratios.median(), 1.25);
    }
    for (const auto& [algo, ratios] : reserve) {
        SCOPED_TRACE("reserve, " + algo + ": " + ratios.describe());
        EXPECT_GE(ratios.min, 1.0);
        EXPECT_LE(ratios.max, 1.01);
    }
}

TEST(CudnnSizes, WorkspaceGrowsWithTheShapeAndTheModel) {
    Problem p;
    p.config.inputSize = 128;
    p.config.hiddenSize = 256;
    p.shape = {64, 100};
    p.mode = Mode::Training;
    const std::uint64_t base = gpu::estimateCudnnSpaces(p).workspace;
    for (auto grow : std::vector<void (*)(Problem&)>{
             [](Problem& q) { q.shape.batch *= 2; }, [](Problem& q) { q.shape.seqLen *= 2; },
             [](Problem& q) { q.config.hiddenSize *= 2; }, [](Problem& q) { q.config.layers = 2; },
             [](Problem& q) { q.config.bidirectional = true; }}) {
        Problem q = p;
        grow(q);
        EXPECT_GT(gpu::estimateCudnnSpaces(q).workspace, base) << describe(q.config);
    }
    // The persistent algorithms take more than STANDARD for the same problem.
    p.options.cudnnAlgo = CudnnAlgo::PersistStatic;
    EXPECT_GT(gpu::estimateCudnnSpaces(p).workspace, base);
}

} // namespace
} // namespace rnnprof

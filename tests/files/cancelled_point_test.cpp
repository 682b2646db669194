// A point stopped after k measured runs (status cancelled, measured_runs k, the statistics of those
// k runs) in every file: JSON and the journal read it back as written, the CSV and the summary
// show its k runs; a point stopped before its first measured run has no figures anywhere.
#include "profiling/analysis/summary_text.h"
#include "profiling/files/result_files.h"
#include "sample_results.h"
#include "support/strict_csv.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace rnnprof {
namespace {

const char* const kReason = "stopped by request after 3 of at least 7 measured runs; the run in progress "
                            "was abandoned in forward, layer 1 of 1, before time step 13 of 20";

// The runs before the stop: 12, 10 and 11 ms; their statistics as summarize() gives them.
PointResult stoppedAfterThreeRuns() {
    PointResult p = test::measuredPoint("cpu-blas", Mode::Inference, {16, 20}, 11.0);
    p.status = PointStatus::Cancelled;
    p.reason = kReason;
    p.measuredRuns = 3;
    p.iteration = {3, 11.0, 10.2, 11.8, 10.0, 12.0, 11.0, 1.0, 1.0 / 11.0};
    p.numerics = {}; // not checked: the sweep was stopped
    return p;
}

SweepResult stoppedSweep() {
    SweepResult r = test::sampleResult();
    r.complete = false;
    r.points = {test::measuredPoint("cpu-blas", Mode::Inference, {16, 20}, 9.0), stoppedAfterThreeRuns()};
    return r;
}

std::string csvCell(const std::string& csv, std::size_t row, const std::string& name) {
    const test::StrictCsv parsed = test::readStrictCsv(csv);
    const auto& cols = parsed.rows.at(0);
    const auto col = std::size_t(std::find(cols.begin(), cols.end(), name) - cols.begin());
    return parsed.rows.at(row).at(col);
}

TEST(CancelledPoint, TheJsonFileReadsItBackWithItsRunsAndStatistics) {
    const SweepResult r = stoppedSweep();
    const SweepResult back = resultFromJson(toJson(r), "r.json");
    ASSERT_EQ(back.points.size(), 2u);
    EXPECT_EQ(back.points[1], r.points[1]);
    EXPECT_EQ(back.points[1].status, PointStatus::Cancelled);
    EXPECT_EQ(back.points[1].measuredRuns, 3);
    EXPECT_EQ(back.points[1].iteration.median, 11.0);
    EXPECT_TRUE(back.points[1].measured());
    EXPECT_FALSE(back.complete);
}

TEST(CancelledPoint, TheJournalReadsItBackWithItsRunsAndStatistics) {
    test::TempDir dir;
    const std::string path = dir.file("r.json.journal");
    const SweepResult r = stoppedSweep();
    {
        Journal journal(path, r);
        for (const PointResult& p : r.points)
            journal.append(p);
    }
    const SweepResult back = loadResultFile(path);
    EXPECT_EQ(back.points, r.points);
}

TEST(CancelledPoint, TheCsvShowsTheStatisticsOfItsRunsAndNoNumericCheck) {
    const std::string csv = toCsv(stoppedSweep());
    EXPECT_EQ(csvCell(csv, 2, "status"), "cancelled");
    EXPECT_EQ(csvCell(csv, 2, "median_ms"), "11");
    EXPECT_EQ(csvCell(csv, 2, "min_ms"), "10");
    EXPECT_EQ(csvCell(csv, 2, "max_ms"), "12");
    EXPECT_EQ(csvCell(csv, 2, "repeats"), "3");
    EXPECT_EQ(csvCell(csv, 2, "max_rel_err"), "");
    EXPECT_EQ(csvCell(csv, 2, "reason"), kReason);
}

TEST(CancelledPoint, StoppedBeforeItsFirstRunItHasNoFiguresInTheCsvOrTheSummary) {
    SweepResult r = stoppedSweep();
    r.points[1] = test::unmeasuredPoint("cpu-blas", PointStatus::Cancelled,
                                        "stopped by request after 0 of at least 7 measured runs");
    EXPECT_FALSE(r.points[1].measured());
    const std::string csv = toCsv(r);
    EXPECT_EQ(csvCell(csv, 2, "median_ms"), "");
    EXPECT_EQ(csvCell(csv, 2, "repeats"), "");
    EXPECT_EQ(resultFromJson(toJson(r), "r.json").points[1], r.points[1]);
    const std::string summary = summaryTable(r);
    EXPECT_NE(summary.find("stopped by request after 0 of at least 7"), std::string::npos) << summary;
}

TEST(CancelledPoint, TheSummaryShowsItsMedianAndWhyItStopped) {
    const std::string summary = summaryTable(stoppedSweep());
    std::istringstream lines(summary);
    std::string line, row;
    while (std::getline(lines, line))
        if (line.find("cancelled") != std::string::npos) row = line;
    EXPECT_NE(row.find(" 11.0 "), std::string::npos) << row;
    EXPECT_NE(row.find("stopped by request after 3 of at least 7"), std::string::npos) << row;
}

} // namespace
} // namespace rnnprof

#pragma once
// Result files: JSON (schema-versioned, lossless round trip), CSV (one row per point, stable
// columns that pandas reads unmodified), Chrome trace JSON (Perfetto / chrome://tracing), and the
// journal (JSON Lines next to the output, one finished point per line, so a crash loses nothing).
// Loading never crashes: malformed or newer files throw Error(InvalidInput) with the reason.
#include "profiling/result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace rnnprof {

[[nodiscard]] std::string toJson(const SweepResult& result);
[[nodiscard]] SweepResult resultFromJson(std::string_view text, const std::string& source);
void saveResultJson(const std::string& path, const SweepResult& result); // atomic
[[nodiscard]] SweepResult loadResultFile(const std::string& path);       // JSON or journal

// One cell of the CSV file and of the results table: empty where the value does not apply (a
// point that was not measured, a phase that did not run, a check that was not made, a number that
// is not finite), else a flag, a whole number, a byte or FLOP count, a real number or text.
using CsvValue = std::variant<std::monostate, bool, std::int64_t, std::uint64_t, double, std::string>;

// The CSV header, exactly; more columns may follow in later versions.
[[nodiscard]] const std::vector<std::string>& csvColumns();
// The cells of `point`, a point of `result`, one per column of csvColumns().
[[nodiscard]] std::vector<CsvValue> csvRow(const SweepResult& result, const PointResult& point);
// A cell as the file spells it before quoting: empty, true or false, the shortest text that reads
// back as the same number, or the text itself.
[[nodiscard]] std::string csvText(const CsvValue& value);
[[nodiscard]] std::string toCsv(const SweepResult& result);
void saveResultCsv(const std::string& path, const SweepResult& result); // atomic

[[nodiscard]] std::string toChromeTrace(const SweepResult& result);
void saveChromeTrace(const std::string& path, const SweepResult& result); // atomic

// The journal: first line holds the header (schema, host, plan), every further line one point.
class Journal {
public:
    // Creates (truncates) the journal and writes its header; throws Error(Io).
    Journal(std::string path, const SweepResult& header);
    ~Journal();
    Journal(const Journal&) = delete;
    Journal& operator=(const Journal&) = delete;
    // Appends one line and flushes it to disk; throws Error(Io) (the journal so far stays valid).
    void append(const PointResult& point);
    [[nodiscard]] const std::string& path() const { return m_path; }

private:
    std::string m_path;
    int m_fd = -1;
};

// Reads a journal; a torn last line (the process died while writing) is ignored, any other bad
// line is an error. The result has complete = false.
[[nodiscard]] SweepResult journalFromText(std::string_view text, const std::string& source);
// "results.json" -> "results.json.journal"
[[nodiscard]] std::string journalPathFor(const std::string& outputPath);

} // namespace rnnprof

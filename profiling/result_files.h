#pragma once
// Result files: JSON (schema-versioned, lossless round trip), CSV (one row per point, stable
// columns that pandas reads unmodified), Chrome trace JSON (Perfetto / chrome://tracing), and the
// journal (JSON Lines next to the output, one finished point per line, so a crash loses nothing).
// Loading never crashes: malformed or newer files throw Error(InvalidInput) with the reason.
#include "profiling/result.h"

#include <string>
#include <string_view>

namespace rnnprof {

[[nodiscard]] std::string toJson(const SweepResult& result);
[[nodiscard]] SweepResult resultFromJson(std::string_view text, const std::string& source);
void saveResultJson(const std::string& path, const SweepResult& result); // atomic
[[nodiscard]] SweepResult loadResultFile(const std::string& path);        // JSON or journal

// The CSV header, exactly; more columns may follow in later versions.
[[nodiscard]] const std::vector<std::string>& csvColumns();
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

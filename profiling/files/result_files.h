#pragma once
// Result files: JSON (schema-versioned, lossless round trip), CSV (one row per point, stable
// columns that pandas reads unmodified), Chrome trace JSON (Perfetto / chrome://tracing), and the
// journal (JSON Lines next to the output, one finished point per line, so a crash loses nothing).
// Loading never crashes: malformed or newer files throw Error(InvalidInput) with the reason.
#include "engine/atomic_file.h"
#include "engine/file_read.h"
#include "engine/unique_fd.h"
#include "profiling/result.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace rnnprof {

[[nodiscard]] std::string toJson(const SweepResult& result);
// The same text handed to `out` a piece at a time (the header, then one point after another).
void writeJson(const SweepResult& result, const ByteSink& out);
[[nodiscard]] SweepResult resultFromJson(std::string_view text, const std::string& source);
void saveResultJson(const std::string& path, const SweepResult& result); // atomic
[[nodiscard]] SweepResult loadResultFile(const std::string& path);       // JSON or journal
// A result file or journal's header (host, plan, ...; no points) and how many points it holds,
// read without keeping any point: what a command counts its charts or points from before it loads
// a file that may hold a million. Throws as loadResultFile() for a file that is not one.
struct ResultOutline {
    SweepResult header; // points empty
    std::size_t points = 0;
};
[[nodiscard]] ResultOutline loadResultOutline(const std::string& path);
// The same for a file's text, `source` naming it in errors.
[[nodiscard]] ResultOutline resultOutlineFromText(std::string_view text, const std::string& source);
// How a result is named wherever it is shown (legends, footers, the report, the terminal): its
// file's name and host, "laptop.json (laptop)"; loadResultFile() labels a result so.
[[nodiscard]] std::string resultLabel(const std::string& path, const HostInfo& host);

// One cell of the CSV file and of the results table: empty where the value does not apply (a
// point that was not measured, a phase that did not run, a check that was not made, a number that
// is not finite), else a flag, a whole number, a byte or FLOP count, a real number or text.
using CsvValue = std::variant<std::monostate, bool, std::int64_t, std::uint64_t, double, std::string>;

// The CSV header, exactly; more columns may follow in later versions.
[[nodiscard]] const std::vector<std::string>& csvColumns();
// The cells of `point`, a point of `result`, one per column of csvColumns().
[[nodiscard]] std::vector<CsvValue> csvRow(const SweepResult& result, const PointResult& point);
// One of those cells: that of column `column`, an index of csvColumns().
[[nodiscard]] CsvValue csvCell(const SweepResult& result, const PointResult& point, std::size_t column);
// A cell as the file spells it before quoting: empty, true or false, the shortest text that reads
// back as the same number, or the text itself.
[[nodiscard]] std::string csvText(const CsvValue& value);
[[nodiscard]] std::string toCsv(const SweepResult& result);
void saveResultCsv(const std::string& path, const SweepResult& result); // atomic
// Several results in one file: a first column "source" (each row's result label, or "result N"
// when it has none), then the columns of toCsv(); the rows of each result in order.
[[nodiscard]] std::string toCombinedCsv(const std::vector<SweepResult>& results);
void saveCombinedCsv(const std::string& path, const std::vector<SweepResult>& results); // atomic

// A result's crossover records (rnnprof crossover, sweep --compare) as CSV, one row each: baseline,
// challenger, mode, seq_len, batch, low, high (empty: none or open), verdict, flags ("; "-joined),
// measured_batches and grid_batches (a search only).
[[nodiscard]] std::string toCrossoverCsv(const SweepResult& result);
void saveCrossoverCsv(const std::string& path, const SweepResult& result); // atomic

[[nodiscard]] std::string toChromeTrace(const SweepResult& result);
void saveChromeTrace(const std::string& path, const SweepResult& result); // atomic

// The journal: first line holds the header (schema, host, plan), every further line one point.
// One writer per journal: the file is locked for as long as the object lives, so a second process
// aimed at the same output is refused instead of interleaving its lines with ours. An existing
// journal is never truncated: it may hold the only copy of an earlier run's points.
class Journal {
public:
    // Opens `path` for appending: creates it, or opens the regular file there, and locks it.
    // Throws Error(Io) when the file cannot be made or read; Error(InvalidInput) when `path` is a
    // symbolic link, not a regular file, has other hard links, or another process holds the lock
    // (naming its process id when known). A new file is made only through its own name, never
    // through a link planted at it.
    explicit Journal(std::string path);
    // A new journal: opens `path` as above and writes the header; refuses (Error(InvalidInput)) a
    // file that holds anything already.
    Journal(std::string path, const SweepResult& header);
    ~Journal();
    Journal(const Journal&) = delete;
    Journal& operator=(const Journal&) = delete;

    // What the file held when it was opened; empty for a new (or empty) file.
    [[nodiscard]] const std::string& earlierText() const { return m_earlierText; }
    // Cuts the file to its first `length` bytes: a torn line of a killed run must not be followed
    // by our own lines. Throws Error(Io).
    void keepOnly(std::size_t length);
    // Writes the header line into an empty journal; throws Error(Io).
    void begin(const SweepResult& header);
    // Appends one line and flushes it to disk; throws Error(Io) (the journal so far stays valid).
    void append(const PointResult& point);
    // Removes the file while still holding its lock (the results file holds every point now), so
    // no other run can start on it in between. Quiet when it is gone already.
    void remove();
    [[nodiscard]] const std::string& path() const { return m_path; }

private:
    std::string m_path;
    UniqueFd m_fd;
    std::string m_earlierText;
};

// The process id that holds the lock of the journal at `path`: 0 when nobody does (or the file
// cannot be opened), -1 when a holder exists whose id is unknown.
[[nodiscard]] long journalHolder(const std::string& path);

// Reads a journal; a torn last line (the process died while writing) is ignored. Any other bad
// point line is an error, or, given `skipped`, left out and described there ("r.json.journal line
// 7: not valid JSON"); a bad header is always an error. The result has complete = false.
[[nodiscard]] SweepResult journalFromText(std::string_view text, const std::string& source,
                                          std::vector<std::string>* skipped = nullptr);
// The same read a line at a time from a file (every bad line an error), never holding it whole.
[[nodiscard]] SweepResult journalFromChars(FileChars& chars, const std::string& source);
// "results.json" -> "results.json.journal"
[[nodiscard]] std::string journalPathFor(const std::string& outputPath);

} // namespace rnnprof

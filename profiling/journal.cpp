// The journal: JSON Lines next to a sweep's output, one fsync()ed line per finished point, so a
// crash loses nothing already measured. Reading forgives only a torn last line.
#include "engine/atomic_file.h"
#include "engine/error.h"
#include "profiling/result_files.h"
#include "profiling/result_json_codec.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rnnprof {
namespace {

using jsonio::Json;

std::string compactLine(const Json& j) {
    return j.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

[[noreturn]] void throwIo(const std::string& what, const std::string& path, int err) {
    throw Error(ErrorKind::Io, "cannot " + what + " journal " + path + ": " + std::strerror(err));
}

// Writes all of `bytes` and flushes them to disk; on failure the file is cut back to where it
// was, so a later append does not follow a partial line. Returns errno or 0.
int appendDurably(int fd, std::string_view bytes) {
    const off_t start = ::lseek(fd, 0, SEEK_END);
    if (start < 0) return errno;
    if (const int err = writeAll(fd, bytes); err != 0) {
        if (::ftruncate(fd, start) != 0) {
            // The partial line stays; the reader treats it as torn only if it is the last.
        }
        return err;
    }
    return ::fsync(fd) == 0 ? 0 : errno;
}

struct Line {
    std::string_view text;
    bool terminated;    // followed by '\n'
    std::size_t number; // 1-based, for messages
};

std::vector<Line> splitLines(std::string_view text) {
    std::vector<Line> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) {
            lines.push_back({text.substr(start), false, lines.size() + 1});
            break;
        }
        lines.push_back({text.substr(start, end - start), true, lines.size() + 1});
        start = end + 1;
    }
    // Blank lines carry nothing (an editor may add one at the end).
    std::erase_if(lines,
                  [](const Line& l) { return l.text.find_first_not_of(" \t\r") == std::string_view::npos; });
    return lines;
}

// nullopt when the line is not a complete JSON value.
std::optional<Json> parseLine(std::string_view line) {
    Json j = Json::parse(line.begin(), line.end(), nullptr, false);
    if (j.is_discarded()) return std::nullopt;
    return j;
}

std::string lineName(const std::string& source, const Line& line) {
    return source + " line " + std::to_string(line.number);
}

} // namespace

Journal::Journal(std::string path, const SweepResult& header) : m_path(std::move(path)) {
    m_fd = ::open(m_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (m_fd < 0) throwIo("create", m_path, errno);
    Json head = jsonio::headerToJson(header, jsonio::kJournalFormat);
    if (const int err = appendDurably(m_fd, compactLine(head)); err != 0) {
        ::close(m_fd);
        m_fd = -1;
        throwIo("write", m_path, err);
    }
}

Journal::~Journal() {
    if (m_fd >= 0) ::close(m_fd);
}

void Journal::append(const PointResult& point) {
    if (const int err = appendDurably(m_fd, compactLine(jsonio::pointToJson(point))); err != 0)
        throwIo("append to", m_path, err);
}

SweepResult journalFromText(std::string_view text, const std::string& source) {
    std::vector<Line> lines = splitLines(text);
    // Only the last line can be torn: every earlier one was fsync()ed before the next began.
    if (!lines.empty() && !lines.back().terminated && !parseLine(lines.back().text)) lines.pop_back();
    if (lines.empty())
        throw Error(ErrorKind::InvalidInput, source + ": the journal is empty (the sweep stopped before "
                                                      "its header was written)");
    jsonio::Problems problems;
    SweepResult result;
    const auto header = parseLine(lines.front().text);
    if (!header)
        throw Error(ErrorKind::InvalidInput,
                    lineName(source, lines.front()) + ": the journal header is not valid JSON");
    jsonio::ObjectReader root(*header, "", problems, false);
    jsonio::readFormat(root, jsonio::kJournalFormat, jsonio::Need::Required);
    jsonio::readHeader(*header, source, problems, result);
    problems.throwIfAny(lineName(source, lines.front()));
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const auto record = parseLine(lines[i].text);
        if (!record)
            throw Error(ErrorKind::InvalidInput, lineName(source, lines[i]) +
                                                     ": not valid JSON (only the last "
                                                     "line of a journal may be torn)");
        PointResult point;
        jsonio::readPoint(*record, "", problems, point);
        problems.throwIfAny(lineName(source, lines[i]));
        result.points.push_back(std::move(point));
    }
    result.complete = false;
    return result;
}

std::string journalPathFor(const std::string& outputPath) {
    return outputPath + ".journal";
}

} // namespace rnnprof

// The journal: JSON Lines next to a sweep's output, one fsync()ed line per finished point, so a
// crash loses nothing already measured. Reading forgives only a torn last line.
#include "engine/atomic_file.h"
#include "engine/error.h"
#include "engine/file_read.h"
#include "profiling/files/result_files.h"
#include "profiling/files/result_json_codec.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <tuple>

namespace rnnprof {
namespace {

using jsonio::Json;

std::string compactLine(const Json& j) {
    return j.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

[[noreturn]] void throwIo(const std::string& what, const std::string& path, int err) {
    throw Error(ErrorKind::Io, "cannot " + what + " journal " + path + ": " + std::strerror(err));
}

// Writes all of `bytes` at the end (the descriptor is O_APPEND) and flushes them to disk; on
// failure the file is cut back to where it was, so a later append does not follow a partial line.
// Returns errno or 0.
int appendDurably(int fd, std::string_view bytes) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) return errno;
    if (const int err = writeAll(fd, bytes); err != 0) {
        if (::ftruncate(fd, st.st_size) != 0) {
            // The partial line stays; the reader treats it as torn only if it is the last.
        }
        return err;
    }
    return ::fsync(fd) == 0 ? 0 : errno;
}

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
    throw Error(ErrorKind::InvalidInput, "journal " + path + " " + why);
}

// The owner of a POSIX record lock on `fd`, from the kernel: 0 when there is none.
long posixLockOwner(int fd) {
    struct flock probe {};
    probe.l_type = F_WRLCK;
    probe.l_whence = SEEK_SET;
    if (::fcntl(fd, F_GETLK, &probe) != 0 || probe.l_type == F_UNLCK) return 0;
    return long(probe.l_pid);
}

// Opens the journal without ever following a symbolic link at `path`: exclusively when it is new,
// else the file that is there. O_APPEND: every line goes to the end, whatever the offset.
UniqueFd openWithoutFollowing(const std::string& path) {
    constexpr int kFlags = O_RDWR | O_APPEND | O_NOFOLLOW | O_CLOEXEC;
    for (int attempt = 0; attempt < 3; ++attempt) { // another process may remove it in between
        UniqueFd fd(::open(path.c_str(), kFlags | O_CREAT | O_EXCL, 0644));
        if (fd) return fd;
        if (errno != EEXIST) throwIo("create", path, errno);
        fd.reset(::open(path.c_str(), kFlags));
        if (fd) return fd;
        if (errno == ELOOP)
            refuse(path, "is a symbolic link; a journal is never written through one: remove the link");
        if (errno != ENOENT) throwIo("open", path, errno);
    }
    throwIo("create", path, EEXIST);
}

std::string readAll(int fd, const std::string& path) {
    std::string text;
    char buffer[65536];
    for (off_t offset = 0;;) {
        const ssize_t n = ::pread(fd, buffer, sizeof buffer, offset);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throwIo("read", path, errno);
        if (n == 0) return text;
        if (text.size() + std::size_t(n) > kMaxResultFileBytes)
            refuse(path, "is larger than a journal can be (" + std::to_string(kMaxResultFileBytes >> 20) +
                             " MiB); move or delete it");
        text.append(buffer, std::size_t(n));
        offset += n;
    }
}

struct Line {
    std::string_view text;
    bool terminated;    // followed by '\n'
    std::size_t number; // 1-based, for messages
};

// Gives the next line that is not blank (an editor may add a blank one at the end), numbered over
// all lines; false at the end. The line's text is valid until the next call.
using NextLine = std::function<bool(Line&)>;

// `line` (without its '\n') is blank: it carries nothing.
bool blank(std::string_view line) {
    return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

std::string lineName(const std::string& source, const Line& line) {
    return source + " line " + std::to_string(line.number);
}

// nullopt when the line is not a complete JSON value.
std::optional<Json> parseLine(const std::string& source, const Line& line) {
    return jsonio::parseIfComplete(line.text, lineName(source, line));
}

} // namespace

Journal::Journal(std::string path) : m_path(std::move(path)), m_fd(openWithoutFollowing(m_path)) {
    struct stat st {};
    if (::fstat(m_fd.get(), &st) != 0) throwIo("open", m_path, errno);
    // A character device (only root can make one) is written through; it holds no earlier run.
    if (!S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode))
        refuse(m_path, "is not a regular file: remove it or write the results elsewhere");
    // A hard link planted at the name would make our lines land in another file.
    if (S_ISREG(st.st_mode) && st.st_nlink != 1)
        refuse(m_path, "has other hard links: remove it or write the results elsewhere");
    if (::flock(m_fd.get(), LOCK_EX | LOCK_NB) != 0) {
        if (errno != EWOULDBLOCK) throwIo("lock", m_path, errno);
        const long holder = posixLockOwner(m_fd.get());
        refuse(m_path, "is being written by another sweep" +
                           (holder > 0 ? " (process " + std::to_string(holder) + ")" : std::string()) +
                           ": wait until it ends, or give this sweep another output file");
    }
    // flock() is the lock; a POSIX record lock beside it only lets the refused process name us
    // (F_GETLK reports the holder's id, flock() does not).
    struct flock record {};
    record.l_type = F_WRLCK;
    record.l_whence = SEEK_SET;
    (void)::fcntl(m_fd.get(), F_SETLK, &record);
    if (S_ISREG(st.st_mode)) m_earlierText = readAll(m_fd.get(), m_path);
}

Journal::Journal(std::string path, const SweepResult& header) : Journal(std::move(path)) {
    if (!m_earlierText.empty())
        refuse(m_path, "holds the lines of an earlier run; a journal is never overwritten");
    begin(header);
}

Journal::~Journal() = default;

void Journal::keepOnly(std::size_t length) {
    if (length >= m_earlierText.size()) return;
    if (::ftruncate(m_fd.get(), off_t(length)) != 0) throwIo("cut the torn line of", m_path, errno);
    m_earlierText.resize(length);
}

void Journal::begin(const SweepResult& header) {
    Json head = jsonio::headerToJson(header, jsonio::kJournalFormat);
    if (const int err = appendDurably(m_fd.get(), compactLine(head)); err != 0) throwIo("write", m_path, err);
}

void Journal::append(const PointResult& point) {
    if (const int err = appendDurably(m_fd.get(), compactLine(jsonio::pointToJson(point))); err != 0)
        throwIo("append to", m_path, err);
}

void Journal::remove() {
    // Only the file we hold: a file put at the name since then is someone else's.
    struct stat ours {
    }, there{};
    if (::fstat(m_fd.get(), &ours) == 0 && ::lstat(m_path.c_str(), &there) == 0 &&
        ours.st_dev == there.st_dev && ours.st_ino == there.st_ino)
        ::unlink(m_path.c_str());
}

long journalHolder(const std::string& path) {
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
    if (!fd) return 0;
    if (::flock(fd.get(), LOCK_EX | LOCK_NB) == 0) return 0; // released with the descriptor
    const long holder = posixLockOwner(fd.get());
    return holder > 0 ? holder : -1;
}

namespace {

SweepResult journalFromLines(const NextLine& next, const std::string& source,
                             std::vector<std::string>* skipped) {
    // A line and its JSON; false at the end, and for a torn last line (the process died while
    // writing it): only the last line can be torn, every earlier one was fsync()ed before the next.
    const auto nextRecord = [&](Line& line, std::optional<Json>& json) {
        if (!next(line)) return false;
        json = parseLine(source, line);
        return json.has_value() || line.terminated;
    };
    Line first{};
    std::optional<Json> header;
    if (!nextRecord(first, header))
        throw Error(ErrorKind::InvalidInput, source + ": the journal is empty (the sweep stopped before "
                                                      "its header was written)");
    jsonio::Problems problems;
    SweepResult result;
    if (!header)
        throw Error(ErrorKind::InvalidInput,
                    lineName(source, first) + ": the journal header is not valid JSON");
    jsonio::ObjectReader root(*header, "", problems, false);
    jsonio::readFormat(root, jsonio::kJournalFormat, jsonio::Need::Required);
    jsonio::readHeader(*header, source, problems, result);
    problems.throwIfAny(lineName(source, first));
    // Where each ok point is in result.points, by what makes it the same point: found in one
    // lookup, so a journal of 100,000 points reads in linear time.
    using OkPointKey = std::tuple<std::string, Mode, int, int>;
    std::map<OkPointKey, std::size_t> okPoints;
    Line line{};
    std::optional<Json> record;
    while (nextRecord(line, record)) {
        if (!record) {
            const std::string why = lineName(source, line) + ": not valid JSON (only the last line of a "
                                                             "journal may be torn)";
            if (!skipped) throw Error(ErrorKind::InvalidInput, why);
            skipped->push_back(why);
            continue;
        }
        PointResult point;
        jsonio::Problems pointProblems;
        jsonio::readPoint(*record, "", pointProblems, point);
        jsonio::checkHostIndex(result, point, "", pointProblems);
        if (skipped && !pointProblems.empty()) {
            try {
                pointProblems.throwIfAny(lineName(source, line));
            } catch (const Error& e) {
                skipped->push_back(e.what());
            }
            continue;
        }
        pointProblems.throwIfAny(lineName(source, line));
        // A later ok record of an ok point is its re-measurement (a disturbed one): it replaces.
        if (!point.ok()) {
            result.points.push_back(std::move(point));
            continue;
        }
        const auto [at, added] =
            okPoints.try_emplace(OkPointKey{point.backend, point.mode, point.shape.batch, point.shape.seqLen},
                                 result.points.size());
        if (added)
            result.points.push_back(std::move(point));
        else
            result.points[at->second] = std::move(point);
    }
    result.complete = false;
    return result;
}

} // namespace

SweepResult journalFromText(std::string_view text, const std::string& source,
                            std::vector<std::string>* skipped) {
    std::size_t start = 0, number = 0;
    return journalFromLines(
        [&](Line& line) {
            while (start < text.size()) {
                const std::size_t end = text.find('\n', start);
                const bool terminated = end != std::string_view::npos;
                const std::string_view piece =
                    text.substr(start, terminated ? end - start : std::string_view::npos);
                start = terminated ? end + 1 : text.size();
                line = {piece, terminated, ++number};
                if (!blank(piece)) return true;
            }
            return false;
        },
        source, skipped);
}

SweepResult journalFromChars(FileChars& chars, const std::string& source) {
    std::string text;
    std::size_t number = 0;
    return journalFromLines(
        [&](Line& line) {
            bool terminated = false;
            while (chars.nextLine(text, terminated)) {
                line = {text, terminated, ++number};
                if (!blank(text)) return true;
            }
            return false;
        },
        source, nullptr);
}

std::string journalPathFor(const std::string& outputPath) {
    return outputPath + ".journal";
}

} // namespace rnnprof

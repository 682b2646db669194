// results.json: the header (format, schema, creation time, host, plan) and one record per point.
#include "engine/atomic_file.h"
#include "engine/error.h"
#include "engine/file_read.h"
#include "profiling/files/json_reader.h"
#include "profiling/files/result_files.h"
#include "profiling/files/result_json_codec.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace rnnprof {
namespace {

using jsonio::Json;

constexpr const char* kPointsKey = "points";

// A journal's first line is its compact header, which names its format near the start.
bool looksLikeJournal(std::string_view text) {
    const std::string_view firstLine = text.substr(0, text.find('\n'));
    std::string needle = "\"";
    needle.append(jsonio::kFormatKey).append("\":\"").append(jsonio::kJournalFormat).append("\"");
    return firstLine.find(needle) != std::string_view::npos;
}

std::string fileName(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

void writeJson(const SweepResult& result, const ByteSink& out) {
    // Replacing invalid UTF-8 (a backend's message) instead of throwing keeps the file writable.
    const auto dump = [](const Json& j) { return j.dump(1, ' ', false, Json::error_handler_t::replace); };
    Json doc = jsonio::headerToJson(result, jsonio::kResultsFormat);
    doc[kPointsKey] = Json::array();
    std::string text = dump(doc);
    // The header ends in `"points": []` and "\n}". Each point is dumped on its own and indented as
    // the whole document's dump would: one point's JSON tree and text at a time, never all of them.
    const std::string emptyPoints = "[]\n}";
    text.resize(text.size() - emptyPoints.size());
    text += '[';
    out(text);
    for (std::size_t i = 0; i < result.points.size(); ++i) {
        text = i == 0 ? "\n  " : ",\n  ";
        const std::string point = dump(jsonio::pointToJson(result.points[i]));
        std::size_t at = 0;
        for (std::size_t line = point.find('\n'); line != std::string::npos; line = point.find('\n', at)) {
            text.append(point, at, line + 1 - at).append("  ");
            at = line + 1;
        }
        text.append(point, at);
        out(text);
    }
    out(result.points.empty() ? "]\n}\n" : "\n ]\n}\n");
}

std::string toJson(const SweepResult& result) {
    std::string text;
    writeJson(result, [&](std::string_view piece) { text.append(piece); });
    return text;
}

namespace {

// A results file's header and points from `parse`, a parseEachPoint() over its text or its file.
template <class Parse>
SweepResult readResult(const std::string& source, Parse parse) {
    jsonio::Problems problems;
    SweepResult result;
    result.complete = false;
    // Each point is read into its record as soon as the parser has it, so a file is never held as
    // a whole JSON tree (which costs several times the file).
    const Json doc = parse([&](std::size_t i, const Json& point) {
        jsonio::readPoint(point, jsonio::indexPath(kPointsKey, i), problems, result.points.emplace_back());
    });
    jsonio::ObjectReader root(doc, "", problems, false);
    if (root.isObject()) {
        jsonio::readFormat(root, jsonio::kResultsFormat, jsonio::Need::Optional);
        jsonio::readHeader(doc, source, problems, result);
        if (root.array(kPointsKey, jsonio::Need::Required))
            for (std::size_t i = 0; i < result.points.size(); ++i)
                jsonio::checkHostIndex(result, result.points[i], jsonio::indexPath(kPointsKey, i), problems);
    }
    problems.throwIfAny(source);
    return result;
}

} // namespace

SweepResult resultFromJson(std::string_view text, const std::string& source) {
    return readResult(source, [&](const jsonio::PointVisitor& onPoint) {
        return jsonio::parseEachPoint(text, source, onPoint);
    });
}

void saveResultJson(const std::string& path, const SweepResult& result) {
    writeFileAtomically(path, [&](const ByteSink& out) { writeJson(result, out); });
}

SweepResult loadResultFile(const std::string& path) {
    RegularFile file(path, kMaxResultFileBytes);
    FileChars chars(file);
    SweepResult result;
    if (looksLikeJournal(chars.start())) {
        result = journalFromChars(chars, path); // a line at a time
    } else {
        result = readResult(path, [&](const jsonio::PointVisitor& onPoint) {
            return jsonio::parseEachPoint(chars, path, onPoint);
        });
    }
    result.label = resultLabel(path, result.host);
    return result;
}

ResultOutline resultOutlineFromText(std::string_view text, const std::string& source) {
    ResultOutline outline;
    if (looksLikeJournal(text)) { // its header line, then a line per point (the last may be torn)
        const std::size_t headerEnd = text.find('\n');
        outline.header = journalFromText(text.substr(0, headerEnd), source);
        if (headerEnd != std::string_view::npos)
            outline.points =
                std::size_t(std::count(text.begin() + std::ptrdiff_t(headerEnd) + 1, text.end(), '\n'));
    } else {
        const Json doc = jsonio::parseWithoutPoints(text, source, outline.points);
        outline.header = resultFromJson(doc.dump(), source);
    }
    return outline;
}

ResultOutline loadResultOutline(const std::string& path) {
    ResultOutline outline = resultOutlineFromText(readRegularFile(path, kMaxResultFileBytes), path);
    outline.header.label = resultLabel(path, outline.header.host);
    return outline;
}

std::string resultLabel(const std::string& path, const HostInfo& host) {
    return fileName(path) + (host.hostname.empty() ? "" : " (" + host.hostname + ")");
}

} // namespace rnnprof

#pragma once
// Reading typed values out of parsed JSON documents (config files, presets, result files, the
// journal) so that every problem is reported with its key path ("sweep.batch[2]: expected an
// integer, got string") instead of an nlohmann exception. Internal to profiling/; not for
// writing JSON and not a general schema validator.
#include "engine/enum_names.h"
#include "engine/file_read.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace rnnprof::jsonio {

using Json = nlohmann::ordered_json; // files keep the order written: identity first

// Every problem found in one document; thrown together as one Error(InvalidInput).
class Problems {
public:
    void add(const std::string& path, const std::string& message);
    [[nodiscard]] bool empty() const { return m_items.empty(); }
    [[nodiscard]] const std::vector<std::string>& items() const { return m_items; }
    // "<source>: <problem>; <problem>; ..." as Error(InvalidInput) when there is any.
    void throwIfAny(const std::string& source) const;

private:
    std::vector<std::string> m_items;
};

// The most keys one JSON object may hold. Every object rnnprof writes has fewer than 50; the cap
// keeps parsing linear in the input, since an ordered object looks up each new key among those
// before it (300,000 keys took 81 s). Documented in docs/reliability.md.
inline constexpr std::size_t kMaxJsonObjectKeys = 256;

// Parses `text`; a syntax error throws Error(InvalidInput) naming `source` and the byte offset, an
// object with more than kMaxJsonObjectKeys keys names its key path and the cap.
[[nodiscard]] Json parse(std::string_view text, const std::string& source);
// parse(), but every element of the top-level "points" array is handed to `onPoint` (its index and
// value) as soon as it is read and then left out of the document: a file of a million points is
// read without ever holding more than one of them as JSON.
using PointVisitor = std::function<void(std::size_t index, const Json& point)>;
[[nodiscard]] Json parseEachPoint(std::string_view text, const std::string& source,
                                  const PointVisitor& onPoint);
// The same, reading a file a chunk at a time: neither the file's text nor its points as JSON are
// ever held whole.
[[nodiscard]] Json parseEachPoint(FileChars& chars, const std::string& source, const PointVisitor& onPoint);
// parseEachPoint() that only counts the points into `points`: the header of a file of a million
// points in a few MB of memory.
[[nodiscard]] Json parseWithoutPoints(std::string_view text, const std::string& source, std::size_t& points);
// As parse(), but nullopt when `text` is not one complete JSON value (a journal's torn last line).
// An object with too many keys still throws.
[[nodiscard]] std::optional<Json> parseIfComplete(std::string_view text, const std::string& source);

// "a.b" + "c" -> "a.b.c"; "" + "c" -> "c"
[[nodiscard]] std::string childPath(const std::string& path, std::string_view key);
[[nodiscard]] std::string indexPath(const std::string& path, std::size_t index);

// A key path as a problem names it ("points[3].iteration_ms.median"), made into text only when a
// problem is reported: reading a valid file of 100,000 points builds none. Refers to the texts it
// is made from, so it lives only for the call it is passed to.
class KeyPath {
public:
    KeyPath(const std::string& path) : m_base(path) {} // NOLINT(google-explicit-constructor)
    KeyPath(const std::string& parent, std::string_view key) : m_base(parent), m_key(key), m_child(true) {}
    [[nodiscard]] std::string text() const { return m_child ? childPath(m_base, m_key) : m_base; }

private:
    const std::string& m_base;
    std::string_view m_key;
    bool m_child = false;
};

// Scalar readers: on a wrong type or range they report at `path` and leave `out` unchanged.
bool read(const Json& v, const KeyPath& path, Problems& p, int& out);
bool read(const Json& v, const KeyPath& path, Problems& p, std::uint64_t& out);
bool read(const Json& v, const KeyPath& path, Problems& p, double& out); // null reads as NaN
bool read(const Json& v, const KeyPath& path, Problems& p, bool& out);
bool read(const Json& v, const KeyPath& path, Problems& p, std::string& out);
bool read(const Json& v, const KeyPath& path, Problems& p, std::vector<int>& out);
bool read(const Json& v, const KeyPath& path, Problems& p, std::vector<std::string>& out);

// The bounds of result files and journals (profiling/files/recorded_limits.h) on a value already read:
// numbers null or between 0 and kMaxRecordedValue (between -kMaxRecordedValue and it when
// `mayBeNegative`), whole numbers 0 or more, texts at most kMaxRecordedText bytes. Reports at
// `path`; returns whether the value is within them.
bool checkRecorded(const KeyPath& path, Problems& p, double v, bool mayBeNegative = false);
bool checkRecorded(const KeyPath& path, Problems& p, int v, bool = false);
bool checkRecorded(const KeyPath& path, Problems& p, const std::string& v, bool = false);
bool checkRecorded(const KeyPath& path, Problems& p, const std::vector<std::string>& v, bool = false);
bool checkRecorded(const KeyPath& path, Problems& p, const std::vector<int>& v, bool = false);
inline bool checkRecorded(const KeyPath&, Problems&, std::uint64_t, bool = false) {
    return true;
}
inline bool checkRecorded(const KeyPath&, Problems&, bool, bool = false) {
    return true;
}

// An enum spelled as text, one of the spellings in its table; the message lists them.
template <class E, std::size_t N>
bool readEnum(const Json& v, const KeyPath& path, Problems& p, E& out, const Spellings<E, N>& names) {
    std::string text;
    if (!read(v, path, p, text)) return false;
    if (auto parsed = parseSpelling(names, text)) {
        out = *parsed;
        return true;
    }
    p.add(path.text(), "'" + text + "' is not one of " + spellingList(names));
    return false;
}

enum class Need { Optional, Required };

// One JSON object at a key path. Remembers which keys were asked for, so that finish() can name
// the unknown ones in strict documents (config files) and ignore them in lenient ones.
class ObjectReader {
public:
    ObjectReader(const Json& value, std::string path, Problems& problems, bool strict);
    [[nodiscard]] bool isObject() const { return m_object; }
    [[nodiscard]] const std::string& path() const { return m_path; }
    [[nodiscard]] Problems& problems() { return m_problems; }
    [[nodiscard]] std::string pathOf(std::string_view key) const { return childPath(m_path, key); }

    // The value of `key`, or nullptr when it is absent (reported when required).
    [[nodiscard]] const Json* find(const char* key, Need need = Need::Optional);
    // `key` holding an object or an array; nullptr (reported) when it holds something else.
    [[nodiscard]] const Json* object(const char* key, Need need = Need::Optional);
    [[nodiscard]] const Json* array(const char* key, Need need = Need::Optional);

    template <class T>
    bool get(const char* key, T& out, Need need = Need::Optional) {
        const Json* v = find(key, need);
        return v && read(*v, KeyPath(m_path, key), m_problems, out);
    }
    // Strict readers report every key that was never asked for.
    void finish();

private:
    const Json& m_value;
    std::string m_path;
    Problems& m_problems;
    bool m_strict;
    bool m_object;
    std::set<std::string, std::less<>> m_known;
};

// Numbers for files: NaN and infinities become null (JSON has no spelling for them).
[[nodiscard]] Json number(double v);

} // namespace rnnprof::jsonio

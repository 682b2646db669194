#pragma once
// Each JSON record is described once, by a function that lists its keys in file order and ties
// each to its member:
//
//     template <class Io>
//     void fields(Io& io, Ref<Io, Numerics> n) {
//         io("checked", n.checked);
//         io("max_abs_err", n.maxAbsErr);
//     }
//
// FieldWriter runs it to build the object, FieldReader to read one back (every problem reported
// at its key path), KeyLister to say where a key lives. A key is spelled once, so the writer and
// the reader cannot disagree about it. The fields() overloads live in namespace jsonio in the
// codec that owns the record and are found by argument-dependent lookup, so records nest.
// Internal to profiling/.
#include "engine/enum_names.h"
#include "engine/phase_hook.h"
#include "profiling/files/json_reader.h"

#include <array>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace rnnprof::jsonio {

// What FieldReader checks beyond types and required keys. Recorded: the records of result files
// and journals, whose numbers and texts must stay within what a measurement makes
// (checkRecorded(), profiling/files/recorded_limits.h).
enum class Bounds { TypesOnly, Recorded };

// The record as an Io sees it: const when writing, mutable when reading.
template <class Io, class T>
using Ref = std::conditional_t<Io::kReading, T&, const T&>;

// Values that json_reader's read() takes as they are: numbers, flags, text and lists of them.
template <class T>
concept Scalar = requires(const Json& v, const std::string& path, Problems& p, T& out) {
    read(v, path, p, out);
};

template <class T>
inline constexpr bool kIsVector = false;
template <class T>
inline constexpr bool kIsVector<std::vector<T>> = true;
template <class T>
inline constexpr bool kIsOptional = false;
template <class T>
inline constexpr bool kIsOptional<std::optional<T>> = true;
// A record: a struct with its own fields() (not a value, not a list of records, not an optional one).
template <class T>
inline constexpr bool kIsRecord = !Scalar<T> && !kIsVector<T> && !kIsOptional<T>;

inline constexpr std::array<Phase, kPhaseCount> kAllPhases{Phase::Forward, Phase::Backward, Phase::Update};

class FieldWriter {
public:
    static constexpr bool kReading = false;

    FieldWriter() = default;
    explicit FieldWriter(Json start) : m_json(std::move(start)) {} // keys already written stay first

    [[nodiscard]] Json take() { return std::move(m_json); }

    template <class T>
    bool operator()(const char* key, const T& value, Need = Need::Optional) {
        m_json[key] = toJson(value);
        return true;
    }
    template <class E, std::size_t N>
    bool operator()(const char* key, const E& value, const Spellings<E, N>& names, Need = Need::Optional) {
        m_json[key] = spellingOf(names, value);
        return true;
    }
    template <class E, std::size_t N>
    bool operator()(const char* key, const std::vector<E>& values, const Spellings<E, N>& names,
                    Need = Need::Optional) {
        Json list = Json::array();
        for (E v : values)
            list.push_back(spellingOf(names, v));
        m_json[key] = std::move(list);
        return true;
    }
    // A nested object whose keys describe(io) lists, for sections of one struct.
    template <class F>
    void object(const char* key, F&& describe) {
        FieldWriter section;
        describe(section);
        m_json[key] = section.take();
    }
    // A key that readers accept but that is neither kept nor written.
    void ignored(const char*) {}
    // A key of older files, accepted with any value, neither kept nor written.
    void retired(const char*) {}
    // The next number read may be below zero in a bounded reader (a time relative to an origin).
    void mayBeNegative() {}
    // A value with converters of its own: write(value) -> Json, read(json, path, problems, value).
    template <class T, class Write, class Read>
    void via(const char* key, const T& value, Write write, Read, Need = Need::Optional) {
        m_json[key] = write(value);
    }

    template <class T>
    [[nodiscard]] static Json toJson(const T& v) {
        if constexpr (std::is_same_v<T, double>) {
            return number(v);
        } else if constexpr (Scalar<T>) {
            return Json(v);
        } else if constexpr (kIsVector<T>) {
            Json list = Json::array();
            for (const auto& item : v)
                list.push_back(toJson(item));
            return list;
        } else if constexpr (kIsOptional<T>) {
            return v ? toJson(*v) : Json(nullptr);
        } else {
            FieldWriter record;
            fields(record, v);
            return record.take();
        }
    }

private:
    Json m_json = Json::object();
};

// Reads the keys a record lists: absent keys keep the record's values, wrong ones are reported at
// their path. Strict readers (config files) also report every key nobody asked for.
class FieldReader {
public:
    static constexpr bool kReading = true;

    FieldReader(const Json& value, std::string path, Problems& problems, bool strict,
                Bounds bounds = Bounds::TypesOnly)
        : m_reader(value, std::move(path), problems, strict), m_strict(strict), m_bounds(bounds) {}

    [[nodiscard]] bool isObject() const { return m_reader.isObject(); }
    [[nodiscard]] Problems& problems() { return m_reader.problems(); }
    [[nodiscard]] std::string pathOf(std::string_view key) const { return m_reader.pathOf(key); }
    [[nodiscard]] ObjectReader& reader() { return m_reader; }
    void finish() { m_reader.finish(); }

    template <class T>
    bool operator()(const char* key, T& value, Need need = Need::Optional) {
        if constexpr (Scalar<T>) {
            const bool negativeAllowed = std::exchange(m_negativeAllowed, false);
            if (!m_reader.get(key, value, need)) return false;
            if (m_bounds == Bounds::Recorded)
                checkRecorded(KeyPath(m_reader.path(), key), problems(), value, negativeAllowed);
            return true;
        } else if constexpr (kIsVector<T>) {
            const Json* v = m_reader.array(key, need);
            if (!v) return false;
            value.assign(v->size(), typename T::value_type{});
            for (std::size_t i = 0; i < v->size(); ++i)
                readRecord((*v)[i], indexPath(pathOf(key), i), value[i]);
            return true;
        } else if constexpr (kIsOptional<T>) {
            const Json* v = m_reader.find(key, need);
            if (!v || v->is_null()) return false;
            value.emplace();
            readRecord(*v, pathOf(key), *value);
            return true;
        } else {
            const Json* v = m_reader.object(key, need);
            if (!v) return false;
            readRecord(*v, pathOf(key), value);
            return true;
        }
    }
    template <class E, std::size_t N>
    bool operator()(const char* key, E& value, const Spellings<E, N>& names, Need need = Need::Optional) {
        const Json* v = m_reader.find(key, need);
        return v && readEnum(*v, KeyPath(m_reader.path(), key), problems(), value, names);
    }
    // All or nothing: the list is replaced only when every element is a known spelling.
    template <class E, std::size_t N>
    bool operator()(const char* key, std::vector<E>& values, const Spellings<E, N>& names,
                    Need need = Need::Optional) {
        const Json* v = m_reader.array(key, need);
        if (!v) return false;
        std::vector<E> parsed(v->size());
        bool ok = true;
        for (std::size_t i = 0; i < v->size(); ++i)
            ok = readEnum((*v)[i], indexPath(pathOf(key), i), problems(), parsed[i], names) && ok;
        if (ok) values = std::move(parsed);
        return ok;
    }
    template <class F>
    void object(const char* key, F&& describe) {
        const Json* v = m_reader.object(key);
        if (!v) return;
        FieldReader section(*v, pathOf(key), problems(), m_strict, m_bounds);
        describe(section);
        section.finish();
    }
    void ignored(const char* key) {
        std::string unused;
        m_reader.get(key, unused);
    }
    void retired(const char* key) { (void)m_reader.find(key); }
    void mayBeNegative() { m_negativeAllowed = true; }
    template <class T, class Write, class Read>
    void via(const char* key, T& value, Write, Read readValue, Need need = Need::Optional) {
        if (const Json* v = m_reader.find(key, need)) readValue(*v, pathOf(key), problems(), value);
    }

private:
    template <class T>
    void readRecord(const Json& value, std::string path, T& out) {
        FieldReader record(value, std::move(path), problems(), m_strict, m_bounds);
        if (record.isObject()) fields(record, out);
        record.finish();
    }

    ObjectReader m_reader;
    bool m_strict;
    Bounds m_bounds;
    bool m_negativeAllowed = false; // for the next scalar only (mayBeNegative())
};

// The key path of every key a record lists, nested records and sections included: "model.cell",
// "sweep.batch", ... Lists the keys a default value writes.
class KeyLister {
public:
    static constexpr bool kReading = false;

    KeyLister() = default;
    [[nodiscard]] const std::vector<std::string>& paths() const { return m_paths; }

    template <class T>
    bool operator()(const char* key, const T& value, Need = Need::Optional) {
        add(key);
        if constexpr (kIsRecord<T>) {
            KeyLister record(childPath(m_prefix, key));
            fields(record, value);
            m_paths.insert(m_paths.end(), record.m_paths.begin(), record.m_paths.end());
        }
        return true;
    }
    template <class V, class E, std::size_t N>
    bool operator()(const char* key, const V&, const Spellings<E, N>&, Need = Need::Optional) {
        add(key);
        return true;
    }
    template <class F>
    void object(const char* key, F&& describe) {
        add(key);
        KeyLister section(childPath(m_prefix, key));
        describe(section);
        m_paths.insert(m_paths.end(), section.m_paths.begin(), section.m_paths.end());
    }
    void ignored(const char* key) { add(key); }
    void retired(const char*) {} // not written, so not listed
    void mayBeNegative() {}
    template <class T, class Write, class Read>
    void via(const char* key, const T&, Write, Read, Need = Need::Optional) {
        add(key);
    }

private:
    explicit KeyLister(std::string prefix) : m_prefix(std::move(prefix)) {}
    void add(const char* key) { m_paths.push_back(childPath(m_prefix, key)); }

    std::string m_prefix;
    std::vector<std::string> m_paths;
};

// An array indexed by Phase, as an object keyed by the phases' names.
template <class Io, class A>
void perPhase(Io& io, const char* key, A& values) {
    io.object(key, [&](auto& phases) {
        for (Phase p : kAllPhases)
            phases(toString(p).data(), values[std::size_t(p)]);
    });
}

} // namespace rnnprof::jsonio

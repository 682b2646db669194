#include "profiling/files/json_reader.h"

#include "engine/error.h"
#include "profiling/files/recorded_limits.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <sstream>

namespace rnnprof::jsonio {
namespace {

constexpr std::size_t kMaxListed = 20;

std::string typeOf(const Json& v) {
    if (v.is_number_integer()) return "integer";
    if (v.is_number_float()) return "number";
    return v.type_name();
}

void wrongType(const Json& v, const KeyPath& path, Problems& p, const char* expected) {
    p.add(path.text(), std::string("expected ") + expected + ", got " + typeOf(v));
}

} // namespace

void Problems::add(const std::string& path, const std::string& message) {
    m_items.push_back(path.empty() ? message : path + ": " + message);
}

void Problems::throwIfAny(const std::string& source) const {
    if (m_items.empty()) return;
    std::string text = source + ": ";
    for (std::size_t i = 0; i < m_items.size() && i < kMaxListed; ++i) {
        if (i > 0) text += "; ";
        text += m_items[i];
    }
    if (m_items.size() > kMaxListed)
        text += "; and " + std::to_string(m_items.size() - kMaxListed) + " more problems";
    throw Error(ErrorKind::InvalidInput, text);
}

std::string childPath(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string indexPath(const std::string& path, std::size_t index) {
    return path + "[" + std::to_string(index) + "]";
}

bool read(const Json& v, const KeyPath& path, Problems& p, int& out) {
    if (!v.is_number_integer()) {
        wrongType(v, path, p, "an integer");
        return false;
    }
    const bool fits = v.is_number_unsigned()
                          ? v.get<std::uint64_t>() <= std::uint64_t(std::numeric_limits<int>::max())
                          : v.get<std::int64_t>() >= std::numeric_limits<int>::min() &&
                                v.get<std::int64_t>() <= std::numeric_limits<int>::max();
    if (!fits) {
        p.add(path.text(), "integer " + v.dump() + " is out of range");
        return false;
    }
    out = v.get<int>();
    return true;
}

bool read(const Json& v, const KeyPath& path, Problems& p, std::uint64_t& out) {
    if (!v.is_number_integer()) {
        wrongType(v, path, p, "a non-negative integer");
        return false;
    }
    if (!v.is_number_unsigned()) {
        p.add(path.text(), "expected a non-negative integer, got " + v.dump());
        return false;
    }
    out = v.get<std::uint64_t>();
    return true;
}

bool read(const Json& v, const KeyPath& path, Problems& p, double& out) {
    if (v.is_null()) {
        out = std::numeric_limits<double>::quiet_NaN();
        return true;
    }
    if (!v.is_number()) {
        wrongType(v, path, p, "a number");
        return false;
    }
    out = v.get<double>();
    return true;
}

bool read(const Json& v, const KeyPath& path, Problems& p, bool& out) {
    if (!v.is_boolean()) {
        wrongType(v, path, p, "true or false");
        return false;
    }
    out = v.get<bool>();
    return true;
}

bool read(const Json& v, const KeyPath& path, Problems& p, std::string& out) {
    if (!v.is_string()) {
        wrongType(v, path, p, "a string");
        return false;
    }
    out = v.get<std::string>();
    return true;
}

template <class T>
bool readList(const Json& v, const KeyPath& path, Problems& p, std::vector<T>& out, const char* expected) {
    if (!v.is_array()) {
        wrongType(v, path, p, expected);
        return false;
    }
    std::vector<T> values(v.size());
    bool ok = true;
    for (std::size_t i = 0; i < v.size(); ++i)
        ok = read(v[i], indexPath(path.text(), i), p, values[i]) && ok;
    if (ok) out = std::move(values);
    return ok;
}

bool read(const Json& v, const KeyPath& path, Problems& p, std::vector<int>& out) {
    return readList(v, path, p, out, "an array of integers");
}

bool read(const Json& v, const KeyPath& path, Problems& p, std::vector<std::string>& out) {
    return readList(v, path, p, out, "an array of strings");
}

bool checkRecorded(const KeyPath& path, Problems& p, double v, bool mayBeNegative) {
    if (std::isnan(v)) return true; // null: no value
    if (isWithinRecordedRange(v) && (mayBeNegative || v >= 0.0)) return true;
    std::ostringstream text;
    text << "must be null or a number from " << (mayBeNegative ? -kMaxRecordedValue : 0.0) << " to "
         << kMaxRecordedValue;
    text.precision(17); // the value as written, also when it only just exceeds the bound
    text << " (got " << v << ")";
    p.add(path.text(), text.str());
    return false;
}

bool checkRecorded(const KeyPath& path, Problems& p, int v, bool) {
    if (v >= 0) return true;
    p.add(path.text(), "must be 0 or more (got " + std::to_string(v) + ")");
    return false;
}

bool checkRecorded(const KeyPath& path, Problems& p, const std::string& v, bool) {
    if (v.size() <= kMaxRecordedText) return true;
    p.add(path.text(), "text of " + std::to_string(v.size()) + " bytes, at most " +
                           std::to_string(kMaxRecordedText) + " are allowed");
    return false;
}

bool checkRecorded(const KeyPath& path, Problems& p, const std::vector<std::string>& v, bool) {
    bool ok = true;
    for (std::size_t i = 0; i < v.size(); ++i)
        ok = checkRecorded(indexPath(path.text(), i), p, v[i]) && ok;
    return ok;
}

bool checkRecorded(const KeyPath& path, Problems& p, const std::vector<int>& v, bool) {
    bool ok = true;
    for (std::size_t i = 0; i < v.size(); ++i)
        ok = checkRecorded(indexPath(path.text(), i), p, v[i]) && ok;
    return ok;
}

ObjectReader::ObjectReader(const Json& value, std::string path, Problems& problems, bool strict)
    : m_value(value), m_path(std::move(path)), m_problems(problems), m_strict(strict),
      m_object(value.is_object()) {
    if (!m_object) wrongType(value, m_path, m_problems, "an object");
}

const Json* ObjectReader::find(const char* key, Need need) {
    if (m_strict) m_known.insert(key); // only finish() asks, and only in strict documents
    if (!m_object) return nullptr;
    if (auto it = m_value.find(key); it != m_value.end()) return &*it;
    if (need == Need::Required) m_problems.add(pathOf(key), "missing required key");
    return nullptr;
}

const Json* ObjectReader::object(const char* key, Need need) {
    const Json* v = find(key, need);
    if (v && !v->is_object()) {
        wrongType(*v, pathOf(key), m_problems, "an object");
        return nullptr;
    }
    return v;
}

const Json* ObjectReader::array(const char* key, Need need) {
    const Json* v = find(key, need);
    if (v && !v->is_array()) {
        wrongType(*v, pathOf(key), m_problems, "an array");
        return nullptr;
    }
    return v;
}

void ObjectReader::finish() {
    if (!m_strict || !m_object) return;
    std::string allowed;
    for (const auto& k : m_known)
        allowed += (allowed.empty() ? "" : ", ") + k;
    for (const auto& [key, value] : m_value.items())
        if (!m_known.contains(key))
            m_problems.add(pathOf(key), "unknown key (allowed here: " + allowed + ")");
}

Json number(double v) {
    return std::isfinite(v) ? Json(v) : Json(nullptr);
}

} // namespace rnnprof::jsonio

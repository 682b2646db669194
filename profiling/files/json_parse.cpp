// Parsing JSON documents for the readers of json_reader.h: nlohmann's SAX parser with our own
// document builder, which refuses an object with too many keys or a key given twice (naming its
// key path) and, for result files, hands each point to the reader as soon as it is complete instead
// of keeping it.
#include "engine/error.h"
#include "profiling/files/json_reader.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

namespace rnnprof::jsonio {
namespace {

class DocumentBuilder {
public:
    using number_integer_t = Json::number_integer_t;
    using number_unsigned_t = Json::number_unsigned_t;
    using number_float_t = Json::number_float_t;
    using string_t = Json::string_t;
    using binary_t = Json::binary_t;

    // `onPoint`: what receives the elements of the top-level "points" array; none keeps them.
    DocumentBuilder(const std::string& source, const PointVisitor* onPoint)
        : m_source(source), m_onPoint(onPoint) {}

    bool null() { return add(Json(nullptr)); }
    bool boolean(bool v) { return add(Json(v)); }
    bool number_integer(number_integer_t v) { return add(Json(v)); }
    bool number_unsigned(number_unsigned_t v) { return add(Json(v)); }
    bool number_float(number_float_t v, const string_t&) { return add(Json(v)); }
    bool string(string_t& v) { return add(Json(std::move(v))); }
    bool binary(binary_t& v) { return add(Json::binary(std::move(v))); }
    bool start_object(std::size_t) {
        // A member (pair<const string, Json>) is copied, not moved, when its vector grows: room for
        // the keys of the objects rnnprof writes, so that it rarely does.
        Json object = Json::object();
        object.get_ref<Json::object_t&>().reserve(32);
        return open(std::move(object));
    }
    bool start_array(std::size_t) { return open(Json::array()); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }

    bool key(string_t& key) {
        Open& object = m_open.back();
        if (++object.count > kMaxJsonObjectKeys) refuseSize();
        object.key = std::move(key);
        const auto& members = object.value.get_ref<const Json::object_t&>();
        if (std::any_of(members.begin(), members.end(), [&](const auto& m) { return m.first == object.key; }))
            refuseDuplicate();
        return true;
    }

    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) {
        // e.what() reads "[json.exception.parse_error.101] parse error at line 3, column 5: ...".
        m_error = e.what();
        if (const auto at = m_error.find("] "); at != std::string::npos) m_error = m_error.substr(at + 2);
        return false;
    }

    [[nodiscard]] const std::string& error() const { return m_error; }
    [[nodiscard]] Json take() { return std::move(m_root); }

private:
    struct Open {
        Json value;
        std::size_t count = 0; // keys so far, or elements so far
        std::string key;       // the latest key of an object
        bool points = false;   // the top-level "points" array, whose elements go to m_onPoint
    };

    // A complete value: into the open container, to the point visitor, or the document itself.
    // `counted`: a container, counted in its array when it opened (so that paths inside it name it).
    bool add(Json value, bool counted = false) {
        if (m_open.empty()) {
            m_root = std::move(value);
            return true;
        }
        Open& parent = m_open.back();
        if (parent.value.is_object()) {
            parent.value.get_ref<Json::object_t&>().emplace_back(std::move(parent.key), std::move(value));
            return true;
        }
        if (!counted) ++parent.count;
        if (parent.points)
            (*m_onPoint)(parent.count - 1, value);
        else
            parent.value.get_ref<Json::array_t&>().push_back(std::move(value));
        return true;
    }

    bool open(Json container) {
        const bool points = m_onPoint && container.is_array() && m_open.size() == 1 &&
                            m_open.front().value.is_object() && m_open.front().key == "points";
        if (!m_open.empty() && m_open.back().value.is_array()) ++m_open.back().count;
        m_open.push_back({std::move(container), 0, {}, points});
        return true;
    }

    bool close() {
        Json done = std::move(m_open.back().value);
        m_open.pop_back();
        return add(std::move(done), true);
    }

    // The path of the innermost open container, or of its latest key (`withKey`).
    [[nodiscard]] std::string openPath(bool withKey) const {
        std::string path;
        const std::size_t n = m_open.size() - (withKey ? 0 : 1);
        for (std::size_t i = 0; i < n; ++i)
            path = m_open[i].value.is_object() ? childPath(path, m_open[i].key)
                                               : indexPath(path, m_open[i].count - 1);
        return path;
    }

    [[noreturn]] void refuseDuplicate() const {
        throw Error(ErrorKind::InvalidInput, m_source + ": " + openPath(true) +
                                                 " is given twice in one object: a file must say each thing "
                                                 "once (which value was meant is unknown)");
    }

    [[noreturn]] void refuseSize() const {
        const std::string path = openPath(false);
        throw Error(ErrorKind::InvalidInput,
                    m_source + ": " + (path.empty() ? "the top-level object" : path) + " has more than " +
                        std::to_string(kMaxJsonObjectKeys) + " keys, the most one object may hold");
    }

    const std::string& m_source;
    const PointVisitor* m_onPoint;
    std::vector<Open> m_open;
    Json m_root;
    std::string m_error;
};

// The document in `chars` (a text or a FileChars), or nullopt with the parser's message in `error`.
template <class Chars>
std::optional<Json> build(Chars&& chars, const std::string& source, const PointVisitor* onPoint,
                          std::string& error) {
    DocumentBuilder builder(source, onPoint);
    try {
        if (!Json::sax_parse(chars.begin(), chars.end(), &builder)) {
            error = builder.error();
            return std::nullopt;
        }
    } catch (const Json::exception& e) { // what the parser throws besides its errors
        error = e.what();
        return std::nullopt;
    }
    return builder.take();
}

template <class Chars>
Json parseOrThrow(Chars&& chars, const std::string& source, const PointVisitor* onPoint) {
    std::string error;
    std::optional<Json> doc = build(chars, source, onPoint, error);
    if (!doc) throw Error(ErrorKind::InvalidInput, source + ": not valid JSON (" + error + ")");
    return std::move(*doc);
}

} // namespace

Json parse(std::string_view text, const std::string& source) {
    return parseOrThrow(text, source, nullptr);
}

Json parseEachPoint(std::string_view text, const std::string& source, const PointVisitor& onPoint) {
    return parseOrThrow(text, source, &onPoint);
}

Json parseEachPoint(FileChars& chars, const std::string& source, const PointVisitor& onPoint) {
    return parseOrThrow(chars, source, &onPoint);
}

Json parseWithoutPoints(std::string_view text, const std::string& source, std::size_t& points) {
    points = 0;
    return parseEachPoint(text, source, [&points](std::size_t, const Json&) { ++points; });
}

std::optional<Json> parseIfComplete(std::string_view text, const std::string& source) {
    std::string error;
    return build(text, source, nullptr, error);
}

} // namespace rnnprof::jsonio

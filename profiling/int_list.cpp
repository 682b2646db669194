#include "profiling/int_list.h"

#include <charconv>
#include <optional>
#include <set>

namespace rnnprof {
namespace {

bool isSeparator(char c) {
    return c == ',' || c == ';' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::vector<std::string_view> items(std::string_view text) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && isSeparator(text[i]))
            ++i;
        const std::size_t start = i;
        while (i < text.size() && !isSeparator(text[i]))
            ++i;
        if (i > start) out.push_back(text.substr(start, i - start));
    }
    return out;
}

std::optional<long long> wholeNumber(std::string_view s) {
    long long v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
}

std::string quoted(std::string_view item) {
    std::string out(1, '\''); // appended piecewise: GCC 12 misreads "'" + s + "'" (-Wrestrict)
    out.append(item);
    out += '\'';
    return out;
}

// The values of one item, or an error naming it.
IntListParse expand(std::string_view item, int max) {
    const std::string bounds = "1 <= FROM <= TO <= " + std::to_string(max);
    const std::size_t dots = item.find("..");
    const std::size_t dash = item.find('-', 1); // a leading '-' is a sign, not a range
    if (dots == std::string_view::npos && dash == std::string_view::npos) {
        const auto v = wholeNumber(item);
        if (!v) return {{}, quoted(item) + " is not a whole number (e.g. 1, 4, 16 or 1..256)"};
        if (*v < 1 || *v > max)
            return {{}, std::string(item) + " is out of range (1.." + std::to_string(max) + ")"};
        return {{int(*v)}, {}};
    }
    const bool pow2 = dots != std::string_view::npos;
    const std::size_t at = pow2 ? dots : dash;
    const auto from = wholeNumber(item.substr(0, at));
    const auto to = wholeNumber(item.substr(at + (pow2 ? 2 : 1)));
    if (!from || !to || *from < 1 || *to < *from || *to > max)
        return {{},
                quoted(item) +
                    " is not a range: write FROM-TO (every value) or FROM..TO (powers of two), with " +
                    bounds};
    if (!pow2 && *to - *from + 1 > kMaxListValues)
        return {{}, quoted(item) + " gives too many values (at most " + std::to_string(kMaxListValues) + ")"};
    IntListParse out;
    out.values = pow2 ? powersOfTwo(int(*from), int(*to)) : linearRange(int(*from), int(*to), 1);
    if (pow2 && out.values.back() != *to) out.values.push_back(int(*to));
    return out;
}

} // namespace

IntListParse parseIntList(std::string_view text, int max) {
    const auto list = items(text);
    if (list.empty()) return {{}, "give at least one value, e.g. 1, 4, 16 or 1..256 (powers of two)"};
    IntListParse out;
    std::set<int> seen;
    for (std::string_view item : list) {
        IntListParse one = expand(item, max);
        if (!one.ok()) return {{}, one.error};
        for (int v : one.values) {
            if (!seen.insert(v).second)
                return {{}, std::to_string(v) + " is given twice (" + quoted(item) + " repeats it)"};
            if (out.values.size() == std::size_t(kMaxListValues))
                return {{}, "too many values (at most " + std::to_string(kMaxListValues) + ")"};
            out.values.push_back(v);
        }
    }
    return out;
}

std::string formatIntList(const std::vector<int>& values) {
    std::string out;
    for (int v : values) {
        if (!out.empty()) out += ", ";
        out += std::to_string(v);
    }
    return out;
}

std::vector<int> powersOfTwo(int from, int to) {
    std::vector<int> out;
    if (from < 1 || to < from) return out;
    for (long long v = from; v <= to; v *= 2)
        out.push_back(static_cast<int>(v));
    return out;
}

std::vector<int> linearRange(int from, int to, int step) {
    std::vector<int> out;
    if (step < 1 || to < from) return out;
    for (long long v = from; v <= to && out.size() < std::size_t(kMaxListValues); v += step)
        out.push_back(static_cast<int>(v));
    return out;
}

} // namespace rnnprof

#pragma once
// The spellings of an enum in files, flags and messages, as one table per enum: toString(),
// parsing and the "one of ..." lists of error messages all read it, so each spelling is written
// once and a new value cannot be printable but unreadable.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace rnnprof {

template <class E>
struct Spelling {
    E value;
    std::string_view text;
    bool alias = false; // accepted when parsing, never written or listed ("inference" for "infer")
};

template <class E, std::size_t N>
using Spellings = std::array<Spelling<E>, N>;

// The written spelling of `value`; empty when the table lacks it (a corrupt cast).
template <class E, std::size_t N>
[[nodiscard]] constexpr std::string_view spellingOf(const Spellings<E, N>& table, E value) {
    for (const auto& s : table)
        if (s.value == value && !s.alias) return s.text;
    return {};
}

template <class E, std::size_t N>
[[nodiscard]] constexpr std::optional<E> parseSpelling(const Spellings<E, N>& table, std::string_view text) {
    for (const auto& s : table)
        if (s.text == text) return s.value;
    return std::nullopt;
}

// "lstm, gru" (or "lstm or gru" with separator " or "): the written spellings, aliases left out.
template <class E, std::size_t N>
[[nodiscard]] std::string spellingList(const Spellings<E, N>& table, std::string_view separator = ", ") {
    std::string out;
    for (const auto& s : table) {
        if (s.alias) continue;
        if (!out.empty()) out += separator;
        out += s.text;
    }
    return out;
}

} // namespace rnnprof

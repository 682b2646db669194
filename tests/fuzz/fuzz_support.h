#pragma once
// Helpers shared by the libFuzzer targets: turning fuzz bytes into text or a command line, and
// failing loudly when a property of a parser does not hold (libFuzzer then saves the input).
// Only for tests/fuzz; not for product code.
#include "engine/error.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace rnnprof::fuzz {

inline std::string_view asText(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

// A violated property is a crash for libFuzzer: print why, then abort (ASan prints the stack).
[[noreturn]] inline void propertyFailed(const std::string& what) {
    std::fprintf(stderr, "fuzz property violated: %s\n", what.c_str());
    std::fflush(stderr);
    std::abort();
}

// `what` is the message, or a function that builds it: either is turned into text only when the
// property fails. Checks run for every field of millions of inputs, and building a message each
// time (a heap allocation or several) cost more than the check itself.
template <class What>
void require(bool condition, What&& what) {
    if (condition) return;
    if constexpr (std::is_invocable_v<What>)
        propertyFailed(what());
    else
        propertyFailed(what);
}

// Rejected inputs must be rejected with rnnprof::Error (a message for the user), never with a
// stray exception type: anything else escaping a parser is reported as a violation.
template <class F>
void expectOnlyRnnprofErrors(F&& parse) {
    try {
        parse();
    } catch (const Error&) {
        // the documented way to refuse input
    } catch (const std::exception& e) {
        propertyFailed(std::string("a parser threw a non-rnnprof exception: ") + e.what());
    }
}

// The arguments of a command line: one per line of the input ('\n'), at most `maxArgs`.
inline std::vector<std::string> splitArguments(std::string_view text, std::size_t maxArgs = 64) {
    std::vector<std::string> args;
    while (!text.empty() && args.size() < maxArgs) {
        const std::size_t end = text.find('\n');
        args.emplace_back(text.substr(0, end));
        if (end == std::string_view::npos) break;
        text.remove_prefix(end + 1);
    }
    return args;
}

} // namespace rnnprof::fuzz

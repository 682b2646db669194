#pragma once
// The one error type of rnnprof. Every failure a user can cause or meet carries a category and a
// message that says what was wrong and what is allowed; a failing point never ends a sweep.
#include <stdexcept>
#include <string>
#include <string_view>

namespace rnnprof {

enum class ErrorKind {
    InvalidConfig,     // a configuration field or shape out of range
    InvalidInput,      // a file or flag that cannot be used
    Unsupported,       // the backend cannot run this configuration
    OutOfMemory,       // refused before allocation, or an allocation failed
    DeviceUnavailable, // no driver, no device, library missing
    BackendFailure,    // a library call failed while running
    Io,                // reading or writing a file failed
    Cancelled,         // a stop was requested
};

[[nodiscard]] const char* toString(ErrorKind kind);

// Text from outside (a file name, a reason read from a file) made fit for a terminal line: its
// lines joined with "; " and any other control character (an ESC, a tab, ...) written as "\x1b",
// so none reaches the terminal.
[[nodiscard]] std::string oneLine(std::string_view message);

class Error : public std::runtime_error {
public:
    Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), m_kind(kind) {}
    [[nodiscard]] ErrorKind kind() const { return m_kind; }

private:
    ErrorKind m_kind;
};

} // namespace rnnprof

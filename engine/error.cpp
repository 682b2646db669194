#include "engine/error.h"

namespace rnnprof {

const char* toString(ErrorKind kind) {
    switch (kind) {
    case ErrorKind::InvalidConfig:
        return "invalid configuration";
    case ErrorKind::InvalidInput:
        return "invalid input";
    case ErrorKind::Unsupported:
        return "unsupported";
    case ErrorKind::OutOfMemory:
        return "out of memory";
    case ErrorKind::DeviceUnavailable:
        return "device unavailable";
    case ErrorKind::BackendFailure:
        return "backend failure";
    case ErrorKind::Io:
        return "i/o error";
    case ErrorKind::Cancelled:
        return "cancelled";
    }
    return "error";
}

std::string oneLine(std::string_view message) {
    std::string out;
    for (char ch : message) {
        const auto byte = static_cast<unsigned char>(ch);
        if (ch == '\n' || ch == '\r') {
            if (!out.empty() && out.back() != ' ') out += "; ";
        } else if (byte < 0x20 || byte == 0x7f) { // a file name's escape sequence must not reach the terminal
            static constexpr char kHex[] = "0123456789abcdef";
            out += {'\\', 'x', kHex[byte >> 4], kHex[byte & 15]};
        } else {
            out.push_back(ch);
        }
    }
    while (!out.empty() && (out.back() == ' ' || out.back() == ';'))
        out.pop_back();
    return out;
}

} // namespace rnnprof

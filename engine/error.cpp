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

} // namespace rnnprof

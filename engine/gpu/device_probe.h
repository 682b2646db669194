#pragma once
// A minimal kernel launch (fill a device buffer and read it back): proves that the CUDA code
// path works on this machine. Returns an empty string on success, otherwise the reason.
#include <string>

namespace rnnprof {

[[nodiscard]] std::string runDeviceProbe();

} // namespace rnnprof

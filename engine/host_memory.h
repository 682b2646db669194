#pragma once
// Host memory facts for refusals made before allocating: "needs 12.4 GiB, 9.1 GiB available".
#include <cstdint>
#include <optional>
#include <string>

namespace rnnprof {

// MemAvailable from /proc/meminfo; nullopt when it cannot be read.
[[nodiscard]] std::optional<std::uint64_t> availableHostMemory();
// "512 B", "3.0 KiB", "12.4 GiB"
[[nodiscard]] std::string formatBytes(std::uint64_t bytes);
// Throws Error(OutOfMemory) naming `what`, the bytes needed and the bytes available when
// `needed` exceeds `available`.
void requireFits(std::uint64_t needed, std::uint64_t available, const std::string& what);

} // namespace rnnprof

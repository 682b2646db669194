#pragma once
// Host memory facts for refusals made before allocating: "needs 12.4 GiB, 9.1 GiB available".
#include <cstdint>
#include <optional>
#include <string>

namespace rnnprof {

// What this process may still allocate: MemAvailable from /proc/meminfo, or less where the
// address-space limit (RLIMIT_AS, `ulimit -v`) leaves less above what the process maps already;
// nullopt when neither can be read.
[[nodiscard]] std::optional<std::uint64_t> availableHostMemory();
// The address space RLIMIT_AS leaves this process above its current size (VmSize); nullopt when
// there is no limit.
[[nodiscard]] std::optional<std::uint64_t> addressSpaceHeadroom();
// "512 B", "3.0 KiB", "12.4 GiB"
[[nodiscard]] std::string formatBytes(std::uint64_t bytes);
// Throws Error(OutOfMemory) naming `what`, the bytes needed and the bytes available when
// `needed` exceeds `available`, and the address-space limit when that is what leaves too little.
void requireFits(std::uint64_t needed, std::uint64_t available, const std::string& what);

} // namespace rnnprof

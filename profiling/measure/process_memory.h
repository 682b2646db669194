#pragma once
// Resident memory of this process, for the "peak RSS growth" of a point: the peak is reset before
// the point (Linux /proc/self/clear_refs) and read after it.
#include <cstdint>
#include <optional>

namespace rnnprof {

struct ProcessMemory {
    std::uint64_t rssBytes = 0;  // VmRSS
    std::uint64_t peakBytes = 0; // VmHWM
};

[[nodiscard]] std::optional<ProcessMemory> readProcessMemory();
// Resets VmHWM to the current RSS; false where the kernel does not allow it.
bool resetPeakRss();

} // namespace rnnprof

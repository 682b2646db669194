#pragma once
// Reading input files with bounds: the one place that decides what a reader accepts as a file.
// Before any data is read it refuses what is not a regular file — a directory, a FIFO (which would
// block forever), a device such as /dev/zero (which never ends), a socket — and a file larger than
// the caller's cap, naming the path, what it is and the cap. Opening never blocks, even on a FIFO.
#include "engine/unique_fd.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace rnnprof {

// Documented caps (docs/reliability.md "Limits"): plans and presets are a few kB; a result file or journal of
// the largest sweep (100,000 points with their trace slices) stays well under 1 GiB; an .npy input
// is bounded by what its header says, at most 2^31 float64 elements.
inline constexpr std::uint64_t kMaxConfigFileBytes = std::uint64_t(1) << 20;
inline constexpr std::uint64_t kMaxResultFileBytes = std::uint64_t(1) << 30;
inline constexpr std::uint64_t kMaxNpyFileBytes = (std::uint64_t(1) << 34) + (std::uint64_t(1) << 16);

// "a directory", "a FIFO (named pipe)", "a character device", ... for a file mode.
[[nodiscard]] std::string_view describeFileType(unsigned mode);

// An open regular file of at most `cap` bytes. Every error says "cannot read <path>: <why>":
// Error(Io) with the system's reason for a file that cannot be opened or read, Error(InvalidInput)
// for one that is not a regular file or is larger than `cap`.
class RegularFile {
public:
    RegularFile(const std::string& path, std::uint64_t cap);
    [[nodiscard]] std::uint64_t size() const { return m_size; }
    [[nodiscard]] const std::string& path() const { return m_path; }
    // Reads exactly `bytes` more bytes into `out`; a file that ends first is reported truncated.
    void readExactly(char* out, std::size_t bytes);

private:
    std::string m_path;
    UniqueFd m_fd;
    std::uint64_t m_size = 0;
};

// The whole of a regular file of at most `cap` bytes (see RegularFile).
[[nodiscard]] std::string readRegularFile(const std::string& path, std::uint64_t cap);

} // namespace rnnprof

#pragma once
// Reading input files with bounds: the one place that decides what a reader accepts as a file.
// Before any data is read it refuses what is not a regular file — a directory, a FIFO (which would
// block forever), a device such as /dev/zero (which never ends), a socket — and a file larger than
// the caller's cap, naming the path, what it is and the cap. Opening never blocks, even on a FIFO.
#include "engine/unique_fd.h"

#include <cstddef>
#include <cstdint>
#include <iterator>
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

// The bytes of a RegularFile, read a chunk at a time, as an input iterator range: what a parser
// reads a file of hundreds of MB through without holding all of it. One pass; the iterators of
// one FileChars share its position.
class FileChars {
public:
    static constexpr std::size_t kChunkBytes = std::size_t(1) << 20;
    explicit FileChars(RegularFile& file);
    // The first bytes of the file (all of it, or the first chunk), before any is consumed.
    [[nodiscard]] std::string_view start();
    // Every byte not consumed yet, read at once; the range is at its end afterwards.
    [[nodiscard]] std::string rest();
    // The next line (without its '\n') into `line`; false at the end. `terminated` says whether a
    // '\n' followed it (only a file's last line can lack one).
    bool nextLine(std::string& line, bool& terminated);

    class Iterator {
    public:
        using iterator_category = std::input_iterator_tag;
        using value_type = char;
        using difference_type = std::ptrdiff_t;
        using pointer = const char*;
        using reference = const char&;
        Iterator() = default; // the end
        explicit Iterator(FileChars* chars) : m_chars(chars) {}
        reference operator*() const { return *m_chars->m_at; }
        Iterator& operator++() {
            ++m_chars->m_at;
            return *this;
        }
        Iterator operator++(int) {
            Iterator before = *this;
            ++*this;
            return before;
        }
        bool operator==(const Iterator& other) const { return atEnd() == other.atEnd(); }

    private:
        [[nodiscard]] bool atEnd() const { return m_chars == nullptr || m_chars->atEnd(); }
        FileChars* m_chars = nullptr;
    };
    [[nodiscard]] Iterator begin() { return Iterator(this); }
    [[nodiscard]] Iterator end() { return Iterator(); }

private:
    void fill(); // the next chunk, when the current one is used up and the file holds more
    [[nodiscard]] bool atEnd() {
        if (m_at == m_chunkEnd) fill();
        return m_at == m_chunkEnd;
    }

    RegularFile& m_file;
    std::uint64_t m_left = 0; // bytes not read yet
    std::string m_chunk;
    const char* m_at = nullptr; // the next byte in m_chunk, or m_chunkEnd
    const char* m_chunkEnd = nullptr;
};

// The whole of a regular file of at most `cap` bytes (see RegularFile).
[[nodiscard]] std::string readRegularFile(const std::string& path, std::uint64_t cap);

} // namespace rnnprof

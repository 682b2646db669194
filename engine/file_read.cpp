#include "engine/file_read.h"

#include "engine/error.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace rnnprof {

std::string_view describeFileType(unsigned mode) {
    if (S_ISREG(mode)) return "a regular file";
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

namespace {

std::string sizeText(std::uint64_t bytes) {
    if (bytes >= (std::uint64_t(1) << 30)) return std::to_string(bytes >> 30) + " GiB";
    if (bytes >= (std::uint64_t(1) << 20)) return std::to_string(bytes >> 20) + " MiB";
    return std::to_string(bytes) + " bytes";
}

} // namespace

RegularFile::RegularFile(const std::string& path, std::uint64_t cap) : m_path(path) {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
    m_fd.reset(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (!m_fd) throw Error(ErrorKind::Io, "cannot read " + path + ": " + std::strerror(errno));
    struct stat st {};
    if (::fstat(m_fd.get(), &st) != 0)
        throw Error(ErrorKind::Io, "cannot read " + path + ": " + std::strerror(errno));
    if (!S_ISREG(st.st_mode))
        throw Error(ErrorKind::InvalidInput, "cannot read " + path + ": it is " +
                                                 std::string(describeFileType(st.st_mode)) +
                                                 ", not a regular file");
    m_size = std::uint64_t(st.st_size);
    if (m_size > cap)
        throw Error(ErrorKind::InvalidInput, "cannot read " + path + ": its " + sizeText(m_size) +
                                                 " are more than this reader accepts (" + sizeText(cap) +
                                                 ")");
    // Regular files never block; reads are plain from here on.
    (void)::fcntl(m_fd.get(), F_SETFL, ::fcntl(m_fd.get(), F_GETFL) & ~O_NONBLOCK);
}

void RegularFile::readExactly(char* out, std::size_t bytes) {
    std::size_t done = 0;
    while (done < bytes) {
        const ssize_t n = ::read(m_fd.get(), out + done, bytes - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw Error(ErrorKind::Io, "cannot read " + m_path + ": " + std::strerror(errno));
        if (n == 0)
            throw Error(ErrorKind::InvalidInput, "cannot read " + m_path + ": it shrank while being read (" +
                                                     std::to_string(done) + " of " + std::to_string(bytes) +
                                                     " more bytes)");
        done += std::size_t(n);
    }
}

FileChars::FileChars(RegularFile& file) : m_file(file), m_left(file.size()) {
    fill();
}

std::string_view FileChars::start() {
    return {m_at, std::size_t(m_chunkEnd - m_at)};
}

std::string FileChars::rest() {
    std::string text(start());
    const std::size_t before = text.size();
    text.resize(before + std::size_t(m_left));
    m_file.readExactly(text.data() + before, std::size_t(m_left));
    m_left = 0;
    m_at = m_chunkEnd;
    return text;
}

bool FileChars::nextLine(std::string& line, bool& terminated) {
    line.clear();
    if (atEnd()) return false;
    while (!atEnd()) {
        const auto* newline =
            static_cast<const char*>(std::memchr(m_at, '\n', std::size_t(m_chunkEnd - m_at)));
        if (newline) {
            line.append(m_at, newline);
            m_at = newline + 1;
            terminated = true;
            return true;
        }
        line.append(m_at, m_chunkEnd);
        m_at = m_chunkEnd;
    }
    terminated = false;
    return true;
}

void FileChars::fill() {
    if (m_at != m_chunkEnd || m_left == 0) return;
    m_chunk.resize(std::size_t(std::min<std::uint64_t>(m_left, kChunkBytes)));
    m_file.readExactly(m_chunk.data(), m_chunk.size());
    m_left -= m_chunk.size();
    m_at = m_chunk.data();
    m_chunkEnd = m_at + m_chunk.size();
}

std::string readRegularFile(const std::string& path, std::uint64_t cap) {
    RegularFile file(path, cap);
    std::string text(std::size_t(file.size()), '\0');
    file.readExactly(text.data(), text.size());
    return text;
}

} // namespace rnnprof

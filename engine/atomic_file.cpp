#include "engine/atomic_file.h"

#include "engine/error.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rnnprof {

void writeFileAtomically(const std::string& path, std::string_view bytes) {
    const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) throw Error(ErrorKind::Io, "cannot write " + path + ": " + std::strerror(errno));
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            const int err = errno;
            ::close(fd);
            ::unlink(tmp.c_str());
            throw Error(ErrorKind::Io, "cannot write " + path + ": " + std::strerror(err));
        }
        done += std::size_t(n);
    }
    const bool synced = ::fsync(fd) == 0;
    int err = errno;
    const bool closed = ::close(fd) == 0;
    if (!closed && synced) err = errno;
    if (!synced || !closed) {
        ::unlink(tmp.c_str());
        throw Error(ErrorKind::Io, "cannot write " + path + ": " + std::strerror(err));
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        throw Error(ErrorKind::Io, "cannot write " + path + ": " + std::strerror(err));
    }
}

} // namespace rnnprof

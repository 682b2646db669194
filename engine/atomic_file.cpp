#include "engine/atomic_file.h"

#include "engine/error.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace rnnprof {

int writeAll(int fd, std::string_view bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return n < 0 ? errno : EIO;
        done += std::size_t(n);
    }
    return 0;
}

int writeAndSync(const std::string& path, std::string_view bytes, bool exclusive) {
    const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (exclusive ? O_EXCL : O_TRUNC);
    const int fd = ::open(path.c_str(), flags, 0644);
    if (fd < 0) return errno;
    if (const int err = writeAll(fd, bytes); err != 0) {
        ::close(fd);
        return err;
    }
    if (::fsync(fd) != 0) {
        const int err = errno;
        ::close(fd);
        return err;
    }
    return ::close(fd) == 0 ? 0 : errno;
}

namespace {

// Writes all of `bytes` into an existing special file (a device, pipe or socket); returns errno or 0.
// No fsync: pipes and terminals do not support it, and there is no file to make durable.
int writeThrough(const std::string& path, std::string_view bytes) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0) return errno;
    if (const int err = writeAll(fd, bytes); err != 0) {
        ::close(fd);
        return err;
    }
    return ::close(fd) == 0 ? 0 : errno;
}

// The file a rename must replace: a symbolic link's destination when it is a regular file (the
// link stays a link), else `path` itself.
std::string replaceableTarget(const std::string& path) {
    struct stat link {};
    if (::lstat(path.c_str(), &link) != 0 || !S_ISLNK(link.st_mode)) return path;
    char* resolved = ::realpath(path.c_str(), nullptr);
    if (!resolved) return path; // a dangling link: replaced by the new file
    std::string target(resolved);
    std::free(resolved);
    return target;
}

} // namespace

void writeFileAtomically(const std::string& path, std::string_view bytes) {
    // Renaming over a device or pipe would replace it: as root, `--out /dev/null` would turn the
    // system's /dev/null into a regular file. Special files are written through instead.
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 &&
        (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
        if (const int err = writeThrough(path, bytes); err != 0)
            throw Error(ErrorKind::Io, "cannot write " + path + ": " + std::strerror(err));
        return;
    }
    const std::string target = replaceableTarget(path);
    const std::string tmp = target + ".tmp-" + std::to_string(::getpid());
    int err = writeAndSync(tmp, bytes, false);
    if (err == 0 && ::rename(tmp.c_str(), target.c_str()) != 0) err = errno;
    if (err != 0) {
        ::unlink(tmp.c_str());
        throw Error(ErrorKind::Io, "cannot write " + path + ": " + std::strerror(err));
    }
}

} // namespace rnnprof

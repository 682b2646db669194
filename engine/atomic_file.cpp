#include "engine/atomic_file.h"

#include "engine/error.h"
#include "engine/unique_fd.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <random>

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

namespace {

using Produce = std::function<void(const ByteSink&)>;

Produce whole(std::string_view bytes) {
    return [bytes](const ByteSink& sink) { sink(bytes); };
}

// Writes what `produce` makes to `fd` in blocks of up to 1 MiB; returns errno or 0. After a failed
// write the rest is not written (and still produced: the producer cannot be told to stop).
int writeProduced(int fd, const Produce& produce) {
    constexpr std::size_t kBlock = std::size_t(1) << 20;
    std::string block;
    int err = 0;
    const auto flush = [&] {
        if (err == 0) err = writeAll(fd, block);
        block.clear();
    };
    produce([&](std::string_view piece) {
        if (block.size() + piece.size() > kBlock) flush();
        if (piece.size() >= kBlock) {
            if (err == 0) err = writeAll(fd, piece);
        } else {
            block.append(piece);
        }
    });
    flush();
    return err;
}

int writeAndSyncProduced(const std::string& path, const Produce& produce, bool exclusive) {
    // O_EXCL also refuses a symbolic link planted at `path`, so a new file is always our own.
    const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (exclusive ? O_EXCL | O_NOFOLLOW : O_TRUNC);
    UniqueFd fd(::open(path.c_str(), flags, 0644));
    if (!fd) return errno;
    if (const int err = writeProduced(fd.get(), produce); err != 0) return err;
    if (::fsync(fd.get()) != 0) return errno;
    return fd.close();
}

} // namespace

int writeAndSync(const std::string& path, std::string_view bytes, bool exclusive) {
    return writeAndSyncProduced(path, whole(bytes), exclusive);
}

namespace {

// Writes what `produce` makes into an existing special file (a device, pipe or socket); returns
// errno or 0. No fsync: pipes and terminals do not support it, and there is no file to make durable.
int writeThrough(const std::string& path, const Produce& produce) {
    UniqueFd fd(::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC));
    if (!fd) return errno;
    if (const int err = writeProduced(fd.get(), produce); err != 0) return err;
    return fd.close();
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

// Writes what `produce` makes into a new temporary file beside `target` and returns its name, or ""
// with `err` set. The name is unpredictable and the file is created exclusively: another user who
// plants a link at a guessable name in a shared folder cannot make us write through it.
std::string writeTemporaryBeside(const std::string& target, const Produce& produce, int& err) {
    static thread_local std::mt19937_64 random{std::random_device{}()};
    for (int attempt = 0; attempt < 16; ++attempt) {
        const std::string tmp =
            target + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(random() % 1000000000);
        try {
            err = writeAndSyncProduced(tmp, produce, true);
        } catch (...) { // from `produce`: no file is written
            ::unlink(tmp.c_str());
            throw;
        }
        if (err == 0) return tmp;
        if (err != EEXIST) {
            ::unlink(tmp.c_str()); // ours: made before the write failed
            return {};
        }
    }
    return {};
}

} // namespace

void writeFileAtomically(const std::string& path, std::string_view bytes, LinkAtPath link) {
    writeFileAtomically(path, whole(bytes), link);
}

void writeFileAtomically(const std::string& path, const Produce& produce, LinkAtPath link) {
    // Renaming over a device or pipe would replace it: as root, `--out /dev/null` would turn the
    // system's /dev/null into a regular file. Special files are written through instead (with
    // Replace only one that is there itself, not one a link names).
    struct stat st {};
    const int found = link == LinkAtPath::Follow ? ::stat(path.c_str(), &st) : ::lstat(path.c_str(), &st);
    if (found == 0 &&
        (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
        if (const int err = writeThrough(path, produce); err != 0)
            throw Error(ErrorKind::Io, "cannot write " + path + ": " + std::strerror(err));
        return;
    }
    const std::string target = link == LinkAtPath::Follow ? replaceableTarget(path) : path;
    int err = 0;
    const std::string tmp = writeTemporaryBeside(target, produce, err);
    if (err == 0 && ::rename(tmp.c_str(), target.c_str()) != 0) {
        err = errno;
        ::unlink(tmp.c_str());
    }
    if (err != 0) throw Error(ErrorKind::Io, "cannot write " + path + ": " + std::strerror(err));
}

} // namespace rnnprof

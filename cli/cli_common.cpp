#include "cli/cli_common.h"

#include "engine/atomic_file.h"
#include "engine/error.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <new>

namespace rnnprof::cli {
namespace fs = std::filesystem;

namespace {

[[noreturn]] void ioError(const std::string& message) {
    throw Error(ErrorKind::Io, message);
}

std::string systemReason(int err) {
    return std::strerror(err);
}

} // namespace

void printError(std::string_view command, std::string_view message) {
    const std::string line = "rnnprof " + std::string(command) + ": " + oneLine(message) + "\n";
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
}

int runGuarded(std::string_view command, const std::function<int()>& body) {
    try {
        return body();
    } catch (const std::bad_alloc&) {
        printError(command, "out of memory: an input or a result is too large for this machine's memory "
                            "(nothing was written)");
        return kExitFailure;
    }
}

void checkOutputFolder(const std::string& dir) {
    if (dir.empty()) ioError("the output folder name is empty");
    std::error_code ec;
    fs::path path(dir);
    if (!path.has_filename()) path = path.parent_path(); // "out/" names the folder "out"
    const auto status = fs::status(path, ec);
    if (fs::exists(status)) {
        if (!fs::is_directory(status)) ioError(dir + " exists and is not a folder");
        return;
    }
    fs::path parent = path.parent_path();
    if (parent.empty()) parent = ".";
    if (!fs::is_directory(parent, ec))
        ioError("cannot create " + dir + ": its parent folder " + parent.string() + " does not exist");
}

std::string folderWriteProblem(const std::string& dir) {
    // A probe file, not access(W_OK): access() says yes to root on a read-only mount.
    std::string probe = (fs::path(dir.empty() ? "." : dir) / ".rnnprof-write-test-XXXXXX").string();
    const int fd = ::mkstemp(probe.data());
    if (fd < 0) return systemReason(errno);
    ::close(fd);
    ::unlink(probe.c_str());
    return {};
}

bool createOutputFolder(const std::string& dir) {
    checkOutputFolder(dir);
    if (::mkdir(dir.c_str(), 0755) == 0) return true;
    if (errno == EEXIST && fs::is_directory(dir)) return false;
    ioError("cannot create folder " + dir + ": " + systemReason(errno));
}

void StagedFiles::add(std::string name, std::string bytes) {
    m_files.push_back({std::move(name), std::move(bytes)});
}

std::vector<std::string> StagedFiles::names() const {
    std::vector<std::string> out;
    for (const auto& f : m_files)
        out.push_back(f.name);
    return out;
}

std::string StagedFiles::pathOf(const std::string& name) const {
    return (fs::path(m_dir) / name).string();
}

void StagedFiles::commit() {
    // Hidden temporaries with the process id, so that two runs into one folder cannot collide.
    const std::string suffix = ".tmp-" + std::to_string(::getpid());
    auto tempOf = [&](const File& f) { return pathOf("." + f.name + suffix); };
    std::size_t staged = 0, renamed = 0;
    auto rollback = [&] {
        for (std::size_t i = 0; i < renamed; ++i)
            ::unlink(pathOf(m_files[i].name).c_str());
        for (std::size_t i = renamed; i < staged; ++i)
            ::unlink(tempOf(m_files[i]).c_str());
    };
    for (; staged < m_files.size(); ++staged) {
        ::unlink(tempOf(m_files[staged]).c_str()); // a leftover of a killed run with our pid
        if (const int err = writeAndSync(tempOf(m_files[staged]), m_files[staged].bytes, true)) {
            ::unlink(tempOf(m_files[staged]).c_str());
            rollback();
            ioError("cannot write " + pathOf(m_files[staged].name) + ": " + systemReason(err));
        }
    }
    for (; renamed < m_files.size(); ++renamed) {
        const File& f = m_files[renamed];
        if (::rename(tempOf(f).c_str(), pathOf(f.name).c_str()) != 0) {
            const int err = errno;
            rollback();
            ioError("cannot write " + pathOf(f.name) + ": " + systemReason(err));
        }
    }
}

} // namespace rnnprof::cli

#include "cli/output_files.h"

#include "cli/cli_common.h"
#include "engine/file_read.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

namespace rnnprof::cli {
namespace {

namespace fs = std::filesystem;

std::string named(const NamedPath& p) {
    return p.flag + " " + p.path;
}

// Why `dir`, an existing folder, takes no new file: "is not writable (<reason>)", or empty.
std::string notWritable(const fs::path& dir) {
    const std::string why = folderWriteProblem(dir.string());
    return why.empty() ? why : "is not writable (" + why + ")";
}

// The folder is there and ours to write, and the output is a file or folder rnnprof may make or
// replace there; else the problem, naming the flag.
bool checkWritableFolder(const NamedPath& out, std::vector<std::string>& problems) {
    if (out.path.empty()) {
        problems.push_back(out.flag + (out.folder ? " needs a folder name" : " needs a file name"));
        return false;
    }
    const fs::path p(out.path);
    std::error_code ec;
    if (out.folder && fs::exists(p, ec)) {
        if (!fs::is_directory(p, ec)) {
            problems.push_back(named(out) + " exists and is not a folder");
            return false;
        }
        if (const std::string why = notWritable(p); !why.empty()) {
            problems.push_back(named(out) + " " + why);
            return false;
        }
        return true;
    }
    if (!out.folder && fs::is_directory(p, ec)) {
        problems.push_back(named(out) + " is a folder: give a file name");
        return false;
    }
    struct stat st {};
    if (out.regularFile && ::stat(p.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        // A journal would be made beside a device, which belongs to the system (/dev/full.journal).
        problems.push_back(named(out) + " is " + std::string(describeFileType(st.st_mode)) + ": " + out.flag +
                           " needs a regular file, new or existing, since its journal is kept "
                           "beside it");
        return false;
    }
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    if (!fs::is_directory(dir, ec)) {
        problems.push_back(named(out) + ": the folder " + dir.string() + " does not exist");
        return false;
    }
    if (const std::string why = notWritable(dir); !why.empty()) {
        problems.push_back(named(out) + ": the folder " + dir.string() + " " + why);
        return false;
    }
    return true;
}

} // namespace

fs::path resolvedPath(const std::string& path) {
    std::error_code ec;
    fs::path p = fs::absolute(path, ec);
    if (ec) return path;
    // A chain of links ends within 40 hops (the kernel's own limit); a longer one is a loop.
    for (int hop = 0; hop < 40; ++hop) {
        const fs::path folder = fs::weakly_canonical(p.parent_path(), ec);
        const fs::path leaf = (ec ? p.parent_path() : folder) / p.filename();
        if (!fs::is_symlink(leaf, ec)) return fs::weakly_canonical(leaf, ec).lexically_normal();
        const fs::path target = fs::read_symlink(leaf, ec);
        if (ec) return leaf;
        p = target.is_absolute() ? target : leaf.parent_path() / target;
    }
    return p.lexically_normal();
}

bool sameFile(const std::string& a, const std::string& b) {
    if (resolvedPath(a) == resolvedPath(b)) return true;
    struct stat sa {
    }, sb{};
    return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

void checkOutputFiles(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs,
                      std::vector<std::string>& problems) {
    std::vector<const NamedPath*> usable;
    bool previousUsable = false;
    for (const NamedPath& out : outputs) {
        // One message per folder: a file made beside another shares its folder's verdict.
        if (!out.besidePrevious) previousUsable = checkWritableFolder(out, problems);
        if (previousUsable) usable.push_back(&out);
    }
    for (std::size_t i = 0; i < usable.size(); ++i) {
        for (std::size_t j = i + 1; j < usable.size(); ++j)
            if (sameFile(usable[i]->path, usable[j]->path))
                problems.push_back(
                    named(*usable[i]) + " and " + named(*usable[j]) +
                    " are the same file: one would overwrite the other; give each its own file");
        for (const NamedPath& in : inputs)
            if (!in.path.empty() && sameFile(usable[i]->path, in.path))
                problems.push_back(named(*usable[i]) + " is the file given to " + named(in) +
                                   ", which this command reads: give the output another file");
    }
}

void checkFolderOutputs(const NamedPath& dir, const std::vector<std::string>& names,
                        const std::vector<NamedPath>& inputs, std::vector<std::string>& problems) {
    for (const std::string& name : names) {
        const std::string path = (fs::path(dir.path) / name).string();
        for (const NamedPath& in : inputs)
            if (!in.path.empty() && sameFile(path, in.path))
                problems.push_back(named(dir) + " would replace " + named(in) + " (as " + name +
                                   "), which this command reads: give the output another folder");
    }
}

} // namespace rnnprof::cli

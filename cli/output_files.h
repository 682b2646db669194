#pragma once
// The files one command writes, checked before anything runs: each in a folder that exists and
// is writable, no two of them the same file, none of them a file the command reads. Without the
// check `--out r.json --csv r.json` measured for an hour and kept only the CSV.
#include <filesystem>
#include <string>
#include <vector>

namespace rnnprof::cli {

// A path as the user gave it, with the flag that gave it ("--csv") or what it is ("the journal of
// --out").
struct NamedPath {
    std::string flag;
    std::string path;
    bool besidePrevious = false; // made in the folder of the output before it (a journal)
    bool folder = false;         // a folder the command fills (--charts): made when missing
    bool regularFile = false;    // a regular file or none: not a device, pipe or socket
};

// `path` absolute, with "." and ".." and every symbolic link resolved: also a link to a path that
// does not exist yet (`ln -s r.json r.csv` before r.json exists names r.json), which
// std::filesystem::weakly_canonical leaves as it is.
[[nodiscard]] std::filesystem::path resolvedPath(const std::string& path);

// Whether `a` and `b` name the same file: the same resolvedPath(), or, when both exist, the same
// device and inode (hard links).
[[nodiscard]] bool sameFile(const std::string& a, const std::string& b);

// Appends one problem per output in a folder that does not exist or cannot be written, per pair of
// outputs that are the same file and per output that is the same file as an input, naming both
// flags. An output file needs an existing, writable folder (tried with a probe file: access() says
// yes to root on a read-only mount), and must be a regular file or missing when `regularFile`; an
// output folder must be a writable folder, or missing in an existing, writable one.
void checkOutputFiles(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs,
                      std::vector<std::string>& problems);

// Appends one problem per input that a command writing the files `names` into the folder `dir`
// would replace (compared as sameFile() does), naming both.
void checkFolderOutputs(const NamedPath& dir, const std::vector<std::string>& names,
                        const std::vector<NamedPath>& inputs, std::vector<std::string>& problems);

} // namespace rnnprof::cli

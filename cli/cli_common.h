#pragma once
// Pieces shared by the headless sub-commands (eval, sweep, ...): exit codes, the one-line error
// report "rnnprof <command>: <message>", the output folder checks, and StagedFiles, which writes
// a set of result files all-or-nothing.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace rnnprof::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1; // the command line was fine, running failed
inline constexpr int kExitUsage = 2;   // bad flags or flag values

// Prints "rnnprof <command>: <message>" (on one line: oneLine(), engine/error.h) to stderr.
void printError(std::string_view command, std::string_view message);
// Runs a command's body; an allocation that fails anywhere in it (an input too large for this
// machine) is reported as "rnnprof <command>: out of memory ..." with exit status 1, never as an
// abort. Readers refuse what they can before allocating; this is the net under the rest.
[[nodiscard]] int runGuarded(std::string_view command, const std::function<int()>& body);

// Checks that `dir` can become the output folder: an existing folder, or a missing one whose
// parent folder exists. Throws Error(Io) naming the flag's value and the problem. Creates nothing.
void checkOutputFolder(const std::string& dir);
// Why no file can be created in the existing folder `dir` ("Permission denied", "Read-only file
// system"), or empty when one can: tried with a temporary file, removed at once.
[[nodiscard]] std::string folderWriteProblem(const std::string& dir);
// Creates `dir` when missing (its parent must exist). Returns true when it created it.
bool createOutputFolder(const std::string& dir);

// Result files written into one folder all-or-nothing. Nothing touches the disk until commit():
// it writes every file to a hidden temporary beside its target (flushed to disk), and only when
// all are written renames them into place. If anything fails, every temporary and every file
// already renamed is removed and Error(Io) names the file and the reason. Not for streaming:
// everything is held in memory until commit().
class StagedFiles {
public:
    explicit StagedFiles(std::string dir) : m_dir(std::move(dir)) {}
    void add(std::string name, std::string bytes);
    void commit();
    [[nodiscard]] std::vector<std::string> names() const;
    [[nodiscard]] const std::string& dir() const { return m_dir; }

private:
    struct File {
        std::string name;
        std::string bytes;
    };
    [[nodiscard]] std::string pathOf(const std::string& name) const;
    std::string m_dir;
    std::vector<File> m_files;
};

} // namespace rnnprof::cli

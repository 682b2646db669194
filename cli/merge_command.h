#pragma once
// `rnnprof merge A.json B.json ... --out all.json`: joins the shards of a split sweep (`rnnprof
// sweep --shard I/N`) and whole sweeps of the same plan from different machines into one results
// file whose points keep their host (profiling/files/result_merge.h has the rules). Headless: QtCore only.
#include <QStringList>

#include <string>
#include <vector>

namespace rnnprof::cli {

struct MergeRequest {
    std::vector<std::string> inputPaths; // the files to join, in order (the first gives the header)
    std::string outPath;                 // --out all.json
    bool help = false;
    std::string helpText;
};

// `args` as QCoreApplication::arguments() minus the sub-command: args[0] is the program name.
// Collects every problem of the command line; does not read the input files.
[[nodiscard]] MergeRequest parseMergeArguments(const QStringList& args, std::vector<std::string>& problems);

// argv[1] is "merge". Returns the process exit code: 0 written, 1 the file could not be written,
// 2 bad command line, an input that cannot be read, or inputs that cannot be merged.
int runMergeCommand(int argc, char** argv);

} // namespace rnnprof::cli

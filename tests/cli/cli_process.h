#pragma once
// Helpers of the command-line tests: a temporary folder and running the real rnnprof binary
// (RNNPROF_EXE) with its standard output and error captured.
#include "support/temp_dir.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace rnnprof::test {

using Args = std::vector<std::string>;

struct ProcessResult {
    int status = -1; // exit status, 128 + signal when killed
    std::string out, err;
};

// Runs `rnnprof <args>` and waits for it.
inline ProcessResult runRnnprof(const Args& args) {
    TempDir io;
    const std::string outPath = io.path("stdout"), errPath = io.path("stderr");
    std::vector<std::string> argv{RNNPROF_EXE};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> cargv;
    for (auto& a : argv)
        cargv.push_back(a.data());
    cargv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid = 0;
    ProcessResult run;
    const int spawned = posix_spawn(&pid, RNNPROF_EXE, &actions, nullptr, cargv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) {
        run.err = "posix_spawn of " + std::string(RNNPROF_EXE) + " failed";
        return run;
    }
    int wstatus = 0;
    ::waitpid(pid, &wstatus, 0);
    run.status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
    run.out = slurp(outPath);
    run.err = slurp(errPath);
    return run;
}

inline ProcessResult runEval(Args args) {
    args.insert(args.begin(), "eval");
    return runRnnprof(args);
}

// Names of the entries of `dir`; empty when it does not exist.
inline std::set<std::string> filesIn(const std::string& dir) {
    std::set<std::string> names;
    std::error_code ec;
    if (!std::filesystem::exists(dir, ec)) return names;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        names.insert(e.path().filename().string());
    return names;
}

} // namespace rnnprof::test

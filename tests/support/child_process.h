#pragma once
// Running a program as a child process in a test: to its end with its output captured, or in the
// background so that the test can watch its output and files and signal or kill it mid-run. Tests
// of the command line and fault-injection tests; not a general process library.
#include "support/temp_dir.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace rnnprof::test {

// Names of the entries of `dir`; empty when it does not exist.
inline std::set<std::string> filesIn(const std::string& dir) {
    std::set<std::string> names;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec))
        names.insert(e.path().filename().string());
    return names;
}

struct ProcessResult {
    int status = -1; // exit status, 128 + signal when killed by one
    std::string out, err;
};

// A running child with stdout and stderr going to files. The destructor kills and reaps a child
// that is still running, so a failing test leaves no process behind.
class ChildProcess {
public:
    explicit ChildProcess(std::vector<std::string> argv) {
        m_out = m_io.path("stdout");
        m_err = m_io.path("stderr");
        std::vector<char*> cargv;
        for (auto& a : argv)
            cargv.push_back(a.data());
        cargv.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 1, m_out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawn_file_actions_addopen(&actions, 2, m_err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (posix_spawnp(&m_pid, argv.front().c_str(), &actions, nullptr, cargv.data(), environ) != 0)
            m_pid = -1;
        posix_spawn_file_actions_destroy(&actions);
    }
    ~ChildProcess() {
        if (m_pid > 0 && !m_reaped) {
            ::kill(m_pid, SIGKILL);
            (void)wait();
        }
    }
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    [[nodiscard]] bool started() const { return m_pid > 0; }
    [[nodiscard]] pid_t pid() const { return m_pid; }
    // What the child has written to its standard error so far.
    [[nodiscard]] std::string errSoFar() const { return slurp(m_err); }
    [[nodiscard]] bool running() {
        if (m_pid <= 0 || m_reaped) return false;
        int status = 0;
        const pid_t r = ::waitpid(m_pid, &status, WNOHANG);
        if (r == m_pid) {
            record(status);
            return false;
        }
        return r == 0;
    }
    void kill(int signal) {
        if (m_pid > 0 && !m_reaped) ::kill(m_pid, signal);
    }
    // Waits for the child to end; its exit status, or 128 + the signal that ended it.
    ProcessResult wait() {
        if (m_pid > 0 && !m_reaped) {
            int status = 0;
            while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
            }
            record(status);
        }
        return {m_status, slurp(m_out), slurp(m_err)};
    }

private:
    void record(int status) {
        m_reaped = true;
        m_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    TempDir m_io;
    std::string m_out, m_err;
    pid_t m_pid = -1;
    bool m_reaped = false;
    int m_status = -1;
};

inline ProcessResult runToEnd(std::vector<std::string> argv) {
    ChildProcess child(std::move(argv));
    if (!child.started()) return {-1, "", "could not start the process"};
    return child.wait();
}

// Polls `condition` every 10 ms until it holds or `limit` passes (a bound against hangs, not a
// timing assertion).
inline bool waitUntil(const std::function<bool()>& condition,
                      std::chrono::milliseconds limit = std::chrono::seconds(120)) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (!condition()) {
        if (std::chrono::steady_clock::now() > end) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return true;
}

} // namespace rnnprof::test

#include "gui/commands/headless_app.h"

#include <cerrno>
#include <cstdlib>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace rnnprof::cli {

namespace {

// Without XDG_RUNTIME_DIR (a batch job, a container, ssh without a session) Qt warns on stderr on
// every start and falls back to /tmp/runtime-<user>; a command's output must not carry that. The
// same private folder is given here, made by us with the permissions Qt requires (0700, ours).
void provideRuntimeDir() {
    const char* dir = std::getenv("XDG_RUNTIME_DIR");
    if (dir && *dir) return;
    const std::string path = "/tmp/runtime-" + std::to_string(::getuid());
    if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) return;
    struct stat info {};
    if (::lstat(path.c_str(), &info) != 0 || !S_ISDIR(info.st_mode) || info.st_uid != ::getuid() ||
        (info.st_mode & 0777) != 0700)
        return; // not ours, or not private: leave it to Qt, which says so
    setenv("XDG_RUNTIME_DIR", path.c_str(), 1);
}

} // namespace

std::unique_ptr<QApplication> makeHeadlessApplication(int& argc, char** argv) {
    const char* platform = std::getenv("QT_QPA_PLATFORM");
    if (!platform || !*platform) setenv("QT_QPA_PLATFORM", "offscreen", 1);
    provideRuntimeDir();
    auto app = std::make_unique<QApplication>(argc, argv);
    QApplication::setApplicationName(QStringLiteral("rnnprof"));
    QApplication::setOrganizationName(QStringLiteral("rnnprof"));
    return app;
}

} // namespace rnnprof::cli

// `rnnprof` of a build without the GUI (RNNPROF_BUILD_GUI=OFF): the headless commands only.
#include "cli/cli_common.h"
#include "cli/headless_commands.h"

#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
    using namespace rnnprof::cli;
    if (auto code = runHeadlessCommand(argc, argv)) return *code;
    const bool help = argc >= 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0);
    std::fprintf(help ? stdout : stderr,
                 "Usage: rnnprof sweep|eval|predict|crossover|merge|--version (this rnnprof was built "
                 "without the desktop "
                 "application)\n%s",
                 headlessUsage());
    return help ? kExitOk : kExitUsage;
}

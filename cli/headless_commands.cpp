#include "cli/headless_commands.h"

#include "cli/cli_common.h"
#include "cli/crossover_command.h"
#include "cli/eval_command.h"
#include "cli/merge_command.h"
#include "cli/predict_command.h"
#include "cli/sweep_command.h"
#include "profiling/measure/host_info.h"

#include <cstdio>
#include <cstring>

namespace rnnprof::cli {
namespace {

std::optional<ChartSupport>& registeredCharts() {
    static std::optional<ChartSupport> support;
    return support;
}

} // namespace

void setChartSupport(ChartSupport support) {
    registeredCharts() = std::move(support);
}

const ChartSupport* chartSupport() {
    return registeredCharts() ? &*registeredCharts() : nullptr;
}

std::optional<int> runHeadlessCommand(int argc, char** argv) {
    if (argc < 2) return std::nullopt;
    const char* command = argv[1];
    if (std::strcmp(command, "--version") == 0 || std::strcmp(command, "-v") == 0) {
        std::fputs(describeHost(currentHost()).c_str(), stdout);
        return kExitOk;
    }
    if (std::strcmp(command, "eval") == 0)
        return runGuarded("eval", [&] { return runEvalCommand(argc, argv); });
    if (std::strcmp(command, "sweep") == 0)
        return runGuarded("sweep", [&] { return runSweepCommand(argc, argv); });
    if (std::strcmp(command, "predict") == 0)
        return runGuarded("predict", [&] { return runPredictCommand(argc, argv); });
    if (std::strcmp(command, "crossover") == 0)
        return runGuarded("crossover", [&] { return runCrossoverCommand(argc, argv); });
    if (std::strcmp(command, "merge") == 0)
        return runGuarded("merge", [&] { return runMergeCommand(argc, argv); });
    return std::nullopt;
}

const char* headlessUsage() {
    return "       rnnprof sweep [options]         a sweep without a display (see rnnprof sweep --help)\n"
           "       rnnprof eval [options]          one forward/backward pass on .npy inputs\n"
           "       rnnprof predict [options]       GPU times predicted from GPU result files, not measured\n"
           "       rnnprof crossover [options]     where one side overtakes another, measuring only the "
           "batch\n"
           "                                       sizes needed\n"
           "       rnnprof merge FILE... [options] shards or other machines' results of one plan, joined\n"
           "       rnnprof --version               host, CPU, GPU status and library versions\n";
}

} // namespace rnnprof::cli

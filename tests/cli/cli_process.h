#pragma once
// Helpers of the command-line tests: running the real rnnprof binary (RNNPROF_EXE) with its
// standard output and error captured.
#include "profiling/result.h"
#include "support/child_process.h"

#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace rnnprof::test {

using Args = std::vector<std::string>;

// Runs `rnnprof <args>` and waits for it.
inline ProcessResult runRnnprof(const Args& args) {
    std::vector<std::string> argv{RNNPROF_EXE};
    argv.insert(argv.end(), args.begin(), args.end());
    return runToEnd(std::move(argv));
}

// `rnnprof sweep` of one inference point of a 3->4 LSTM per backend into `out`: well under a second.
inline Args oneTinyPointSweep(const std::string& out, const std::string& backends = "cpu-reference") {
    return {"sweep",  "--cell",
            "lstm",   "--input-size",
            "3",      "--hidden-size",
            "4",      "--batch",
            "1",      "--seq-len",
            "2",      "--backend",
            backends, "--mode",
            "infer",  "--warmup",
            "0",      "--repeats",
            "1",      "--quiet",
            "--out",  out};
}

// Leaves no display (nor a Qt platform) in this process's environment, for the children it starts.
inline void forgetDisplay() {
    unsetenv("DISPLAY");
    unsetenv("WAYLAND_DISPLAY");
    unsetenv("QT_QPA_PLATFORM");
}

// Runs `rnnprof <command> <args>` with no display: the commands that draw charts (plot, report)
// must not need one.
inline ProcessResult runWithoutDisplay(const std::string& command, Args args) {
    forgetDisplay();
    args.insert(args.begin(), command);
    return runRnnprof(args);
}

// A GPU server's result of the tests' tiny model, LSTM 3->4 at T=3, hand-made: gpu-cudnn at
// `batches` in `modes`, each point's median `ms(batch)`.
inline SweepResult tinyGpuResult(std::vector<int> batches, std::vector<Mode> modes,
                                 const std::function<double(int)>& ms) {
    SweepResult r;
    r.createdAt = "2026-01-01T00:00:00Z";
    r.host.hostname = "gpubox";
    r.host.gpu.available = true;
    r.host.gpu.devices.push_back({});
    r.host.gpu.devices.back().name = "NVIDIA H100 80GB HBM3";
    r.plan.config.inputSize = 3;
    r.plan.config.hiddenSize = 4;
    r.plan.batches = std::move(batches);
    r.plan.seqLens = {3};
    r.plan.backends = {"gpu-cudnn"};
    r.plan.modes = std::move(modes);
    for (Mode mode : r.plan.modes)
        for (int b : r.plan.batches) {
            PointResult p;
            p.backend = "gpu-cudnn";
            p.mode = mode;
            p.shape = {b, 3};
            p.iteration.count = 3;
            p.iteration.median = ms(b);
            r.points.push_back(p);
        }
    r.complete = true;
    return r;
}

inline ProcessResult runEval(Args args) {
    args.insert(args.begin(), "eval");
    return runRnnprof(args);
}

} // namespace rnnprof::test

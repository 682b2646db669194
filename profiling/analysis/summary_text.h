#pragma once
// A plain-text table of a sweep's points for terminals (`rnnprof sweep` prints it on stdout), then
// whether Keras and PyTorch would run the model on cuDNN and the GPU trace's warnings, and the
// progress line. Reads the SweepResult only; derives nothing new.
#include "profiling/measure/runner.h"
#include "profiling/result.h"

#include <string>

namespace rnnprof {

[[nodiscard]] std::string summaryTable(const SweepResult& result);
// "[ 12/48] 25% · ETA 1m05s · cpu-blas train B=64 T=100"
[[nodiscard]] std::string progressLine(const SweepProgress& progress);
// "1m05s", "42s", "2h03m"
[[nodiscard]] std::string formatDuration(double seconds);

} // namespace rnnprof

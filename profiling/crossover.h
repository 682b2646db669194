#pragma once
// Where one backend overtakes another: for each sequence length, the smallest batch size at which
// `challenger` is faster than `baseline`, interpolated on a log scale between the two measured
// batch sizes that bracket the sign change of log(time ratio); "none in range" otherwise.
#include "profiling/result.h"

#include <optional>
#include <string>
#include <vector>

namespace rnnprof {

struct Crossover {
    int seqLen = 0;
    std::optional<double> batch; // interpolated batch size where the times are equal
    bool fasterEverywhere = false; // challenger already faster at the smallest batch
    std::string note;              // "none in range (B=1..256)", "faster at every batch", ...
};

// Uses ok points of `mode` only; a sequence length with fewer than one common batch size gets a
// note saying so.
[[nodiscard]] std::vector<Crossover> findCrossovers(const std::vector<PointResult>& points,
                                                    const std::string& baseline, const std::string& challenger,
                                                    Mode mode);

// speedup = baseline median / challenger median per common batch size at `seqLen`.
struct SpeedupPoint {
    int batch = 0;
    double speedup = 0.0;
};
[[nodiscard]] std::vector<SpeedupPoint> speedups(const std::vector<PointResult>& points, const std::string& baseline,
                                                 const std::string& challenger, Mode mode, int seqLen);

} // namespace rnnprof

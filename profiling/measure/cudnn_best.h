#pragma once
// gpu-cudnn[best]: when a sweep runs gpu-cudnn with several algorithms, each (mode, shape) also
// gets a derived point, the fastest of the algorithms that ran there. The CPU-vs-GPU question is
// "how fast can cuDNN do this", and at batch 1 a persistent kernel can be ten times faster than
// STANDARD while losing badly at large batches, so no single algorithm answers it.
#include "profiling/result.h"

#include <vector>

namespace rnnprof {

// `siblings`: the points of one (mode, shape), one per algorithm (series ids gpu-cudnn and
// gpu-cudnn[<algorithm>]). Returns a copy of the fastest ok one (lowest median) under the series id
// gpu-cudnn[best], its first note naming the algorithm and saying that it is no separate run; when
// none ran, a point with their status and reason if they share them (no GPU here), otherwise an
// ineligible point whose reason says why each did not.
[[nodiscard]] PointResult bestCudnnPoint(const std::vector<PointResult>& siblings);

// "persist_static" for "gpu-cudnn[persist_static]", "standard" for "gpu-cudnn".
[[nodiscard]] std::string cudnnAlgoOfSeries(const std::string& seriesId);

} // namespace rnnprof

#pragma once
// Whether a GPU point's headline times come from runs CUPTI traced. The runner times untraced runs
// and records the traced median beside them; files written before it did (and files of a sweep
// run to capture kernels) carry traced runs as their headline, inflated by the tracing. Such a
// file shows kernels but is no time reference: every surface that shows its times says so.
#include "profiling/result.h"

#include <string>

namespace rnnprof {

// The point's iteration median is its traced median while a different untraced median exists.
[[nodiscard]] bool headlineIsTraced(const PointResult& point);
// "GPU times measured while CUPTI traced (up to 2.3× the untraced median recorded beside them):
// not a time reference"; empty when no point of `result` has a traced headline.
[[nodiscard]] std::string tracedHeadlineBrief(const SweepResult& result);

} // namespace rnnprof

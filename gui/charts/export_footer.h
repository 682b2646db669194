#pragma once
// The footer of every exported chart: which results it shows, measured where (host, CPU, GPU) and
// when it was exported, so that a chart pasted into a report still says where its numbers come from.
#include "profiling/result.h"

#include <QDateTime>
#include <QString>

#include <vector>

namespace rnnprof::gui {

// The most results named one by one; the rest are counted ("and 3 more results").
inline constexpr int kMaxFooterResults = 6;

// "laptop.json: laptop, Intel Xeon (2 cores), no GPU · server.json: gpu-box, AMD EPYC (16 cores),
// NVIDIA H100 — exported 2026-11-23 07:50 UTC by rnnprof". Empty without results. Labels and
// names from files are shortened (elideMiddle) so the footer stays a line or two.
[[nodiscard]] QString exportFooter(const std::vector<SweepResult>& results, const QDateTime& exportedAt);

} // namespace rnnprof::gui

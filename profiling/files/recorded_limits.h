#pragma once
// What a results file or journal may hold, checked when one is read: the bounds a measurement made
// here keeps, so that a file edited by hand, cut short or crafted cannot put an absurd number on a
// chart axis (QtCharts' log axis recurses until the stack is gone near 1.8e308), a megabyte of
// text into a legend (QtCharts elides labels in quadratic time) or an unknown backend id into a
// chart's file name. The readers (result_json_codec.cpp) apply them; the charts use
// isWithinRecordedRange() as their last line of defence. Documented in docs/reliability.md ("Limits").
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rnnprof {

// The largest number a file may record (times in ms or µs, rates, FLOP/s, errors, shares): far
// above anything measured (1e15 ms are 31,000 years) and far below where chart arithmetic
// (powers of the log base, 10 % headroom) overflows.
inline constexpr double kMaxRecordedValue = 1e15;
// The longest text a file may hold in one field (names, reasons, notes, kernel names).
inline constexpr std::size_t kMaxRecordedText = 4096;
// The longest host name (POSIX hosts have at most 255 bytes); it becomes part of chart legends.
inline constexpr std::size_t kMaxHostNameLength = 255;

// Finite and no further from zero than kMaxRecordedValue (NaN, "no value", is not).
[[nodiscard]] bool isWithinRecordedRange(double v);

// Whether `id` is a series id a sweep writes: a built-in backend ("cpu-blas"), gpu-cudnn with one
// of its algorithms or "best" in brackets ("gpu-cudnn[persist_static]", seriesId()), or a backend
// id made known by acceptBackendIds().
[[nodiscard]] bool isKnownSeriesId(std::string_view id);
// Makes the ids of backends outside the built-in registry known for the rest of the process: a
// sweep run with another registry (tests' fakes) must load back where it was measured.
// Thread-safe. Not for ids that come from files.
void acceptBackendIds(const std::vector<std::string>& ids);
// For messages: "cpu-reference, cpu-blas, ..., or gpu-cudnn[ALGO] with ALGO one of ..., best".
[[nodiscard]] std::string knownSeriesIdsText();

} // namespace rnnprof

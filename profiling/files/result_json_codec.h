#pragma once
// The JSON records of result files and journals: one point, and the header shared by both
// (format, schema, creation time, host, plan). Internal to profiling/; the public entry points
// are in result_files.h. Readers are lenient about unknown keys (a point record may grow) and
// strict about types and the keys every record needs.
#include "profiling/files/json_reader.h"
#include "profiling/result.h"

namespace rnnprof::jsonio {

[[nodiscard]] Json pointToJson(const PointResult& point);
void readPoint(const Json& value, const std::string& path, Problems& problems, PointResult& point);

inline constexpr const char* kFormatKey = "format";
inline constexpr std::string_view kResultsFormat = "rnnprof-results";
inline constexpr std::string_view kJournalFormat = "rnnprof-journal";

// {"format": <format>, "schema_version", "created_at", "complete", "host", "plan", "keras_cudnn",
//  "pytorch_cudnn"}
[[nodiscard]] Json headerToJson(const SweepResult& result, std::string_view format);
// Reports a "format" other than `expected` (and a missing one when `need` is Required).
void readFormat(ObjectReader& r, std::string_view expected, Need need);
// Reads the header after "format" into `result`. A schema newer than this build throws at once
// (its layout is unknown); other problems are collected.
void readHeader(const Json& value, const std::string& source, Problems& problems, SweepResult& result);
// Reports a point's host_index that names no host of `result` (read after the header).
void checkHostIndex(const SweepResult& result, const PointResult& point, const std::string& path,
                    Problems& problems);

} // namespace rnnprof::jsonio

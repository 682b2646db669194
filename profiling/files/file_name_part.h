#pragma once
// File names built from data (a chart's backend, a mode): whatever a result file holds, the
// name stays one harmless path component inside the folder the user gave.
#include <cstddef>
#include <string>
#include <string_view>

namespace rnnprof {

// The longest piece of a file name taken from data; the whole name stays far below NAME_MAX (255).
inline constexpr std::size_t kMaxFileNamePart = 64;

// `text` with every byte outside [A-Za-z0-9._-] replaced by '_' and leading dots too (no "..", no
// hidden files, no '/'), cut to `maxLength` bytes: "gpu-cudnn[persist_static]" ->
// "gpu-cudnn_persist_static_", "x/../../ESCAPED" -> "x_.._.._ESCAPED". Empty text gives "_".
[[nodiscard]] std::string fileNamePart(std::string_view text, std::size_t maxLength = kMaxFileNamePart);

} // namespace rnnprof

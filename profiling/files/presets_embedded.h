#pragma once
// The preset files compiled into the binary by embed_presets.cmake (generated presets_data.cpp):
// file name without .json and the file's text, unparsed. Read through builtinPresets() only.
#include <string_view>
#include <vector>

namespace rnnprof::detail {

struct EmbeddedPreset {
    std::string_view name;
    std::string_view json;
};

[[nodiscard]] const std::vector<EmbeddedPreset>& embeddedPresets();

} // namespace rnnprof::detail

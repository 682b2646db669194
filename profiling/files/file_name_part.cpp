#include "profiling/files/file_name_part.h"

#include <algorithm>

namespace rnnprof {

std::string fileNamePart(std::string_view text, std::size_t maxLength) {
    std::string out;
    for (char c : text.substr(0, std::max<std::size_t>(1, maxLength))) {
        const bool safe = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                          c == '-' || c == '_' || (c == '.' && !out.empty());
        out.push_back(safe ? c : '_');
    }
    return out.empty() ? "_" : out;
}

} // namespace rnnprof

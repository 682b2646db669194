#include "engine/tensor.h"

namespace rnnprof {

std::string shapeToString(const std::vector<std::int64_t>& shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) s += ", ";
        s += std::to_string(shape[i]);
    }
    return s + "]";
}

} // namespace rnnprof

#pragma once
// A dense, row-major (C order) array with an owned buffer. Used for inputs, outputs, states and
// gradients that cross the engine's interfaces; backends keep their own internal layouts.
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace rnnprof {

template <class T>
struct Tensor {
    std::vector<std::int64_t> shape;
    std::vector<T> data;

    Tensor() = default;
    explicit Tensor(std::vector<std::int64_t> dims, T fill = T(0))
        : shape(std::move(dims)), data(static_cast<std::size_t>(elementCount(shape)), fill) {}

    static std::int64_t elementCount(const std::vector<std::int64_t>& dims) {
        return std::accumulate(dims.begin(), dims.end(), std::int64_t(1), std::multiplies<>());
    }
    [[nodiscard]] std::int64_t size() const { return std::int64_t(data.size()); }
    [[nodiscard]] bool empty() const { return data.empty(); }
    T* ptr() { return data.data(); }
    const T* ptr() const { return data.data(); }

    template <class U>
    [[nodiscard]] Tensor<U> cast() const {
        Tensor<U> out;
        out.shape = shape;
        out.data.assign(data.begin(), data.end());
        return out;
    }
    bool operator==(const Tensor&) const = default;
};

// "[4, 2, 3]"
std::string shapeToString(const std::vector<std::int64_t>& shape);

} // namespace rnnprof

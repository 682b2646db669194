#pragma once
// NumPy .npy files: float32 and float64, C order, little-endian, format versions 1.0-3.0.
// Every malformed file (wrong magic, truncated, Fortran order, unsupported dtype, a shape that is
// not what the caller expects) gives Error(InvalidInput) naming the file, what was expected and
// what was found. parseNpy() takes bytes so fuzzers and tests need no files.
#include "engine/tensor.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rnnprof {

enum class NpyDtype { Float32, Float64 };

struct NpyArray {
    NpyDtype dtype = NpyDtype::Float64;
    std::vector<std::int64_t> shape;
    std::vector<double> values; // converted to double, C order
};

// `source` names the file (or buffer) in error messages.
[[nodiscard]] NpyArray parseNpy(std::string_view bytes, const std::string& source);
[[nodiscard]] NpyArray readNpy(const std::string& path);

// What an .npy file holds, from its header alone: checks that the file is a regular file of
// exactly the size its header describes, reads no data (so callers can check shapes and memory
// before allocating anything).
struct NpyInfo {
    NpyDtype dtype = NpyDtype::Float64;
    std::vector<std::int64_t> shape;
};
[[nodiscard]] NpyInfo readNpyInfo(const std::string& path);
// Throws Error(InvalidInput) "<path>: expected shape [*, 3], found [2, 4]" unless `found` matches
// `expected`, where a dimension of -1 matches any size.
void requireNpyShape(const std::string& path, const std::vector<std::int64_t>& found,
                     const std::vector<std::int64_t>& expected);

// Reads a file and checks its shape; a dimension of -1 in `expected` matches any size.
template <class T>
[[nodiscard]] Tensor<T> readNpyTensor(const std::string& path, const std::vector<std::int64_t>& expected);

[[nodiscard]] std::string npyBytes(const Tensor<float>& t);
[[nodiscard]] std::string npyBytes(const Tensor<double>& t);
// Writes atomically (temporary file in the same folder, then rename). Throws Error(Io).
void writeNpy(const std::string& path, const Tensor<float>& t);
void writeNpy(const std::string& path, const Tensor<double>& t);

} // namespace rnnprof

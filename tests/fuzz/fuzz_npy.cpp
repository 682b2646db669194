// libFuzzer target: parseNpy() over arbitrary bytes. Properties: a malformed file is refused with
// rnnprof::Error; an accepted one describes exactly its data, and writing it back and parsing
// again gives the same shape and the same values bit for bit.
#include "engine/npy.h"
#include "fuzz_support.h"

#include <cstring>

using namespace rnnprof;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::expectOnlyRnnprofErrors([&] {
        const NpyArray arr = parseNpy(fuzz::asText(data, size), "fuzz.npy");
        fuzz::require(std::int64_t(arr.values.size()) == Tensor<double>::elementCount(arr.shape),
                      "value count differs from the shape's element count");
        Tensor<double> t;
        t.shape = arr.shape;
        t.data = arr.values;
        const NpyArray again = parseNpy(npyBytes(t), "round trip");
        fuzz::require(again.shape == arr.shape, "shape changed in a write/read round trip");
        fuzz::require(again.values.size() == arr.values.size() &&
                          (arr.values.empty() || std::memcmp(again.values.data(), arr.values.data(),
                                                             arr.values.size() * sizeof(double)) == 0),
                      "values changed in a write/read round trip");
    });
    return 0;
}

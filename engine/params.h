#pragma once
// The canonical parameter layout, PyTorch's: for each layer k and direction, weight_ih_l{k}
// [G*H, in], weight_hh_l{k} [G*H, H], bias_ih_l{k} [G*H], bias_hh_l{k} [G*H], with "_reverse" for
// the backward direction; gates i,f,g,o (LSTM) and r,z,n (GRU). All parameters live in one flat
// buffer (per layer: every weight_ih, weight_hh, bias_ih, bias_hh, each forward then reverse), so
// gradients share the layout, an SGD step is one loop, and a layer's input weights of both
// directions form one [D*G*H, in] matrix.
#include "engine/config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rnnprof {

enum class ParamKind { WeightIh, WeightHh, BiasIh, BiasHh };

struct ParamSpec {
    std::string name; // e.g. "weight_hh_l1_reverse"
    int layer = 0;
    int direction = 0; // 0 forward, 1 reverse
    ParamKind kind = ParamKind::WeightIh;
    std::int64_t rows = 0; // G*H
    std::int64_t cols = 1; // layer input width, H, or 1 for biases
    std::int64_t offset = 0;
    [[nodiscard]] std::int64_t size() const { return rows * cols; }
    [[nodiscard]] std::vector<std::int64_t> shape() const {
        return cols == 1 && (kind == ParamKind::BiasIh || kind == ParamKind::BiasHh)
                   ? std::vector<std::int64_t>{rows}
                   : std::vector<std::int64_t>{rows, cols};
    }
};

class ParamLayout {
public:
    ParamLayout() = default;
    explicit ParamLayout(const RnnConfig& config);

    [[nodiscard]] const std::vector<ParamSpec>& specs() const { return m_specs; }
    [[nodiscard]] std::int64_t totalSize() const { return m_total; }
    // nullptr when absent (biases with bias=false, or an unknown name).
    [[nodiscard]] const ParamSpec* find(const std::string& name) const;
    [[nodiscard]] const ParamSpec* find(int layer, int direction, ParamKind kind) const;

private:
    std::vector<ParamSpec> m_specs;
    std::int64_t m_total = 0;
};

[[nodiscard]] std::string paramName(int layer, int direction, ParamKind kind);

template <class T>
struct ParamSet {
    ParamLayout layout;
    std::vector<T> values;

    ParamSet() = default;
    explicit ParamSet(const RnnConfig& config)
        : layout(config), values(std::size_t(layout.totalSize()), T(0)) {}

    T* data(const ParamSpec& spec) { return values.data() + spec.offset; }
    const T* data(const ParamSpec& spec) const { return values.data() + spec.offset; }
    // nullptr when the parameter does not exist in this configuration.
    T* data(int layer, int direction, ParamKind kind) {
        const ParamSpec* s = layout.find(layer, direction, kind);
        return s ? data(*s) : nullptr;
    }
    const T* data(int layer, int direction, ParamKind kind) const {
        const ParamSpec* s = layout.find(layer, direction, kind);
        return s ? data(*s) : nullptr;
    }
    template <class U>
    [[nodiscard]] ParamSet<U> cast() const {
        ParamSet<U> out;
        out.layout = layout;
        out.values.assign(values.begin(), values.end());
        return out;
    }
};

// Uniform in [-1/sqrt(H), 1/sqrt(H)] like PyTorch, from a deterministic generator seeded by `seed`.
// The float and double sets of one seed hold the same values (the float ones rounded).
template <class T>
[[nodiscard]] ParamSet<T> initParams(const RnnConfig& config, std::uint64_t seed);

} // namespace rnnprof

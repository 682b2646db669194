#include "engine/params.h"

#include "engine/random.h"

#include <cmath>

namespace rnnprof {

std::string paramName(int layer, int direction, ParamKind kind) {
    static const char* const prefixes[] = {"weight_ih_l", "weight_hh_l", "bias_ih_l", "bias_hh_l"};
    std::string name = prefixes[int(kind)] + std::to_string(layer);
    if (direction == 1) name += "_reverse";
    return name;
}

ParamLayout::ParamLayout(const RnnConfig& config) {
    // Per layer, kind-major then direction: both directions' weight_ih (and every other kind) are
    // adjacent, so a backend can project the input of both directions with one GEMM.
    const std::int64_t gates = std::int64_t(gateCount(config.cell)) * config.hiddenSize;
    const ParamKind kinds[] = {ParamKind::WeightIh, ParamKind::WeightHh, ParamKind::BiasIh,
                               ParamKind::BiasHh};
    for (int layer = 0; layer < config.layers; ++layer) {
        for (ParamKind kind : kinds) {
            const bool isBias = kind == ParamKind::BiasIh || kind == ParamKind::BiasHh;
            if (isBias && !config.bias) continue;
            for (int dir = 0; dir < directionCount(config); ++dir) {
                ParamSpec spec;
                spec.name = paramName(layer, dir, kind);
                spec.layer = layer;
                spec.direction = dir;
                spec.kind = kind;
                spec.rows = gates;
                spec.cols = kind == ParamKind::WeightIh   ? layerInputSize(config, layer)
                            : kind == ParamKind::WeightHh ? config.hiddenSize
                                                          : 1;
                spec.offset = m_total;
                m_total += spec.size();
                m_specs.push_back(std::move(spec));
            }
        }
    }
}

const ParamSpec* ParamLayout::find(const std::string& name) const {
    for (const auto& s : m_specs)
        if (s.name == name) return &s;
    return nullptr;
}

const ParamSpec* ParamLayout::find(int layer, int direction, ParamKind kind) const {
    for (const auto& s : m_specs)
        if (s.layer == layer && s.direction == direction && s.kind == kind) return &s;
    return nullptr;
}

template <class T>
ParamSet<T> initParams(const RnnConfig& config, std::uint64_t seed) {
    ParamSet<T> params(config);
    const double bound = 1.0 / std::sqrt(double(config.hiddenSize));
    SplitMix64 rng(seed ^ 0x7061726d73ULL); // "params"
    for (auto& v : params.values)
        v = T(rng.uniform(-bound, bound));
    return params;
}

template ParamSet<float> initParams<float>(const RnnConfig&, std::uint64_t);
template ParamSet<double> initParams<double>(const RnnConfig&, std::uint64_t);

} // namespace rnnprof

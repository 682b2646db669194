#include "profiling/analysis/model_flops.h"

#include "engine/error.h"
#include "profiling/analysis/flops.h"

namespace rnnprof {
namespace {

using u64 = std::uint64_t;

void requireValidModel(const ModelSpec& model) {
    if (const auto issues = validate(model); !issues.empty())
        throw Error(ErrorKind::InvalidConfig, joinIssues(issues));
}

// Whether a layer below `index` has parameters, so that its input's gradient is needed.
bool needsInputGradient(const ModelSpec& model, int index) {
    for (int i = 0; i < index; ++i)
        if (model.layers[std::size_t(i)].kind != LayerKind::Dropout) return true;
    return false;
}

// Rows layer `index` reads: T*B while every step goes on, B after a layer that kept its last step.
u64 rowsAt(const ModelSpec& model, int index, const Shape& shape) {
    for (int i = 0; i < index; ++i) {
        const LayerSpec& l = model.layers[std::size_t(i)];
        if (isRecurrent(l.kind) && !l.returnSequences) return u64(shape.batch);
    }
    return u64(shape.seqLen) * u64(shape.batch);
}

u64 denseFlops(const ModelSpec& model, int index, const Shape& shape, Mode mode) {
    const LayerSpec& l = model.layers[std::size_t(index)];
    const u64 rows = rowsAt(model, index, shape);
    const u64 in = u64(layerInputWidth(model, index));
    const u64 outputs = rows * u64(l.units);
    const u64 elementwise =
        (l.bias ? outputs : 0) + (l.denseActivation != DenseActivation::Linear ? outputs : 0);
    u64 total = gemmFlops(rows, u64(l.units), in) + elementwise;
    if (mode == Mode::Training) {
        total +=
            gemmFlops(u64(l.units), in, rows) + elementwise; // dW = dY^T X; bias and activation gradients
        if (needsInputGradient(model, index)) total += gemmFlops(rows, in, u64(l.units)); // dX = dY W
        total += u64(layerParameterCount(model, index)) * flops::kSgdPerParameter;
    }
    return total;
}

} // namespace

u64 layerFlops(const ModelSpec& model, int index, const Shape& shape, Mode mode) {
    requireValidModel(model);
    const LayerSpec& l = model.layers.at(std::size_t(index));
    if (l.kind == LayerKind::Dropout) return 0;
    if (l.kind == LayerKind::Dense) return denseFlops(model, index, shape, mode);
    const RnnConfig c = layerConfig(model, index);
    u64 total = forwardFlops(c, shape);
    if (mode == Mode::Training)
        total += backwardFlops(c, shape, needsInputGradient(model, index)) + updateFlops(c);
    return total;
}

std::vector<u64> layerFlopsList(const ModelSpec& model, const Shape& shape, Mode mode) {
    std::vector<u64> out;
    for (int i = 0; i < int(model.layers.size()); ++i)
        out.push_back(layerFlops(model, i, shape, mode));
    return out;
}

u64 modelFlops(const ModelSpec& model, const Shape& shape, Mode mode) {
    u64 total = 0;
    for (u64 f : layerFlopsList(model, shape, mode))
        total += f;
    if (mode == Mode::Training) {
        const int n = int(model.layers.size());
        const u64 outputs = rowsAt(model, n, shape) * u64(layerInputWidth(model, n));
        total += outputs * flops::kLossPerOutput;
    }
    return total;
}

} // namespace rnnprof

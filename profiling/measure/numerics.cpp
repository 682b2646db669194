#include "profiling/measure/numerics.h"

#include <algorithm>
#include <cmath>
#include <exception>

namespace rnnprof {
namespace {

struct Accumulator {
    Numerics n;
    template <class A>
    void add(const std::vector<A>& got, const std::vector<double>& ref, const char* name) {
        double maxAbs = 0.0, maxRef = 0.0;
        const std::size_t count = std::min(got.size(), ref.size());
        for (std::size_t i = 0; i < count; ++i) {
            const double g = double(got[i]);
            const double d = std::isfinite(g) ? std::abs(g - ref[i]) : INFINITY;
            maxAbs = std::max(maxAbs, d);
            maxRef = std::max(maxRef, std::abs(ref[i]));
        }
        if (got.size() != ref.size()) maxAbs = INFINITY;
        const double rel = maxRef > 0 ? maxAbs / maxRef : maxAbs;
        n.maxAbsErr = std::max(n.maxAbsErr, maxAbs);
        if (rel > n.maxRelErr || n.worstTensor.empty()) {
            n.maxRelErr = std::max(n.maxRelErr, rel);
            n.worstTensor = name;
        }
    }
};

} // namespace

double referenceWork(const RnnConfig& c, const Shape& shape, Mode mode) {
    double work = 0.0;
    const double G = gateCount(c.cell), H = c.hiddenSize, D = directionCount(c);
    for (int layer = 0; layer < c.layers; ++layer)
        work += double(shape.seqLen) * shape.batch * D * G * H * (layerInputSize(c, layer) + H);
    return mode == Mode::Training ? 3.0 * work : work;
}

Shape numericsShape(const RnnConfig& c, const Shape& shape, Mode mode, double maxWork) {
    Shape s = shape;
    while (referenceWork(c, s, mode) > maxWork && s.batch > 1)
        s.batch = std::max(1, s.batch / 2);
    while (referenceWork(c, s, mode) > maxWork && s.seqLen > 1)
        s.seqLen = std::max(1, s.seqLen / 2);
    return s;
}

Numerics compareOutputs(const RunOutputs& got, const reference::Iteration<double>& ref, Mode mode,
                        CellType cell) {
    Accumulator acc;
    acc.add(got.y.data, ref.y.data, "output");
    acc.add(got.hN.data, ref.hN.data, "h_n");
    if (cell == CellType::Lstm) acc.add(got.cN.data, ref.cN.data, "c_n");
    if (mode == Mode::Training) {
        acc.add(std::vector<double>{got.loss}, std::vector<double>{ref.loss}, "loss");
        acc.add(got.gradients.dParams.values, ref.gradients.dParams.values, "parameter gradients");
        acc.add(got.paramsAfter.values, ref.paramsAfter.values, "parameters after SGD");
    }
    acc.n.checked = true;
    return acc.n;
}

Numerics checkNumerics(const Backend& backend, const Problem& problem, double maxWork) {
    Problem check = problem;
    check.shape = numericsShape(problem.config, problem.shape, problem.mode, maxWork);
    check.inputGradients = false;
    Numerics n;
    try {
        auto session = backend.prepare(check);
        if (const Session::Comparability c = session->numericsComparable(); !c.comparable) {
            n.note = "numerics not comparable: " + c.why;
            return n;
        }
        NullPhaseHook hook;
        session->run(hook);
        const RunOutputs out = session->outputs();
        const auto ref = reference::runIteration<double>(check);
        n = compareOutputs(out, ref, check.mode, check.config.cell);
    } catch (const std::exception& e) {
        n = Numerics{};
        n.note = std::string("numeric check failed: ") + e.what();
        return n;
    }
    if (!(check.shape == problem.shape))
        n.note = "checked on batch " + std::to_string(check.shape.batch) + ", seq_len " +
                 std::to_string(check.shape.seqLen) + " (the full shape exceeds the check's work limit)";
    else
        n.note = "checked on the full shape";
    return n;
}

} // namespace rnnprof

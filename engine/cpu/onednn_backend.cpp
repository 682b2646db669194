#include "engine/cpu/onednn_backend.h"

#include "engine/cpu/onednn_plan.h"
#include "engine/cpu/onednn_session.h"
#include "engine/error.h"
#include "engine/host_memory.h"

#include <new>
#include <sstream>

namespace rnnprof {
namespace {

std::string cellName(const RnnConfig& c) {
    return c.cell == CellType::Lstm ? "LSTM primitive" : "GRU primitives";
}

} // namespace

std::vector<std::string> OneDnnBackend::unsupportedReasons(const RnnConfig& config, Mode mode) const {
    std::vector<std::string> reasons;
    if (config.activation != Activation::Tanh)
        reasons.push_back("oneDNN's " + cellName(config) + " only implement" +
                          (config.cell == CellType::Lstm ? "s" : "") + " activation=tanh (got activation=" +
                          std::string(toString(config.activation)) + "); use cpu-blas");
    if (config.recurrentActivation != RecurrentActivation::Sigmoid)
        reasons.push_back("oneDNN's " + cellName(config) + " only implement" +
                          (config.cell == CellType::Lstm ? "s" : "") +
                          " recurrent_activation=sigmoid (got recurrent_activation=" +
                          std::string(toString(config.recurrentActivation)) + "); use cpu-blas");
    // In inference recurrent dropout does nothing, so only training needs the mask oneDNN lacks.
    if (mode == Mode::Training && config.recurrentDropout > 0)
        reasons.push_back(
            "oneDNN's RNN primitives cannot mask h inside the recurrence (got recurrent_dropout=" +
            numberText(config.recurrentDropout) +
            " in training); use cpu-blas, or recurrent_dropout=0, or inference mode");
    return reasons;
}

MemoryFootprint OneDnnBackend::estimateMemory(const Problem& problem) const {
    return cpu::OneDnnPlan(problem).footprint();
}

std::unique_ptr<Session> OneDnnBackend::makeSession(const Problem& problem,
                                                    const MemoryFootprint& estimate) const {
    try {
        return std::make_unique<cpu::OneDnnSession>(problem, cpu::OneDnnPlan(problem));
    } catch (const std::bad_alloc&) {
        throw Error(ErrorKind::OutOfMemory, describePoint(id(), problem) + " could not allocate " +
                                                formatBytes(estimate.total()) +
                                                ": reduce batch or sequence length");
    }
}

} // namespace rnnprof

#include "engine/backend.h"

#include "engine/error.h"
#include "engine/host_memory.h"

#include <sstream>

namespace rnnprof {

void BackendRegistry::add(std::unique_ptr<Backend> backend) {
    m_backends.push_back(std::move(backend));
}

const Backend* BackendRegistry::find(std::string_view id) const {
    for (const auto& b : m_backends)
        if (b->id() == id) return b.get();
    return nullptr;
}

std::vector<const Backend*> BackendRegistry::all() const {
    std::vector<const Backend*> out;
    for (const auto& b : m_backends)
        out.push_back(b.get());
    return out;
}

std::vector<std::string> BackendRegistry::ids() const {
    std::vector<std::string> out;
    for (const auto& b : m_backends)
        out.emplace_back(b->id());
    return out;
}

void requirePreparable(const Backend& backend, const Problem& problem) {
    requireValid(problem.config, problem.shape);
    const Availability availability = backend.availability();
    if (!availability.available)
        throw Error(ErrorKind::DeviceUnavailable,
                    std::string(backend.id()) + " unavailable: " + availability.reason);
    const auto reasons = backend.unsupportedReasons(problem.config, problem.mode);
    if (!reasons.empty()) {
        std::string text;
        for (const auto& r : reasons)
            text += (text.empty() ? "" : " ") + r;
        throw Error(ErrorKind::Unsupported, text);
    }
    const MemoryFootprint need = backend.estimateMemory(problem);
    if (!need.onDevice) {
        if (const auto available = availableHostMemory())
            requireFits(need.total(), *available, describePoint(backend.id(), problem));
    }
}

std::string describePoint(std::string_view backendId, const Problem& problem) {
    return std::string(backendId) + " at batch " + std::to_string(problem.shape.batch) + ", seq_len " +
           std::to_string(problem.shape.seqLen);
}

} // namespace rnnprof

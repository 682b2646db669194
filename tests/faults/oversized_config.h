#pragma once
// A configuration that is valid (every size within Limits, every buffer indexable) but whose
// buffers need far more memory than any test machine has: 16 bidirectional LSTM layers whose
// activations for batch 65536 x 127 steps add up to about 120 GB. Batch 1 of the same model is
// tiny, so one plan can hold a point that runs and a point that must be refused.
#include "engine/backend.h"
#include "engine/host_memory.h"

#include <optional>
#include <string>

namespace rnnprof::test {

inline RnnConfig oversizedModel() {
    RnnConfig c;
    c.cell = CellType::Lstm;
    c.inputSize = 16;
    c.hiddenSize = 16;
    c.layers = 16;
    c.bidirectional = true;
    return c;
}

inline constexpr Shape kOversizedShape{65536, 127};

inline Problem oversizedProblem(Mode mode) {
    Problem p;
    p.config = oversizedModel();
    p.shape = kOversizedShape;
    p.mode = mode;
    p.options.threads = 1;
    return p;
}

// Why the refusal cannot be observed here (a machine with more memory than the estimate), or
// nullopt when it can.
inline std::optional<std::string> whyItWouldFit(const Backend& backend, const Problem& problem) {
    const auto available = availableHostMemory();
    if (!available) return "MemAvailable cannot be read from /proc/meminfo";
    const std::uint64_t needed = backend.estimateMemory(problem).total();
    if (needed <= *available)
        return std::string(backend.id()) + " needs " + formatBytes(needed) + " and this machine has " +
               formatBytes(*available) + " available: nothing to refuse";
    return std::nullopt;
}

} // namespace rnnprof::test

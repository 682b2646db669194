#pragma once
// Sizes of every buffer the cpu-blas session allocates, computed once from the problem, so that
// estimateMemory() and the allocation agree by construction.
#include "engine/backend.h"
#include "engine/recurrence_dims.h"

#include <cstdint>

namespace rnnprof::cpu {

struct BlasLayout : RecurrenceDims {
    explicit BlasLayout(const Problem& problem) : RecurrenceDims(RecurrenceDims::of(problem)) {}
    [[nodiscard]] MemoryFootprint footprint(std::int64_t paramCount) const;
};

} // namespace rnnprof::cpu

#include "engine/cpu/blas_backend.h"

#include "engine/cpu/blas_layout.h"
#include "engine/cpu/blas_session.h"

namespace rnnprof {

std::vector<std::string> BlasBackend::unsupportedReasons(const RnnConfig&, Mode) const {
    return {};
}

MemoryFootprint BlasBackend::estimateMemory(const Problem& problem) const {
    return cpu::blasFootprint(cpu::BlasLayout(problem));
}

std::unique_ptr<Session> BlasBackend::makeSession(const Problem& problem, const MemoryFootprint&) const {
    return std::make_unique<cpu::BlasSession>(problem);
}

} // namespace rnnprof

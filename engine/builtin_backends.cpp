#include "engine/backend.h"
#include "engine/cpu/blas_backend.h"
#include "engine/reference/reference_backend.h"

namespace rnnprof {

const BackendRegistry& builtinBackends() {
    static const BackendRegistry registry = [] {
        BackendRegistry r;
        r.add(std::make_unique<ReferenceBackend>());
        r.add(std::make_unique<BlasBackend>());
        return r;
    }();
    return registry;
}

} // namespace rnnprof

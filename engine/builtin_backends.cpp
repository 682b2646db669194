#include "engine/backend.h"
#include "engine/cpu/blas_backend.h"
#include "engine/cpu/onednn_backend.h"
#include "engine/gpu/gpu_backends.h"
#include "engine/reference/reference_backend.h"

namespace rnnprof {

const BackendRegistry& builtinBackends() {
    static const BackendRegistry registry = [] {
        BackendRegistry r;
        r.add(std::make_unique<ReferenceBackend>());
        r.add(std::make_unique<BlasBackend>());
        r.add(std::make_unique<OneDnnBackend>());
        r.add(std::make_unique<GpuGenericBackend>());
        r.add(std::make_unique<GpuCudnnBackend>());
        return r;
    }();
    return registry;
}

} // namespace rnnprof

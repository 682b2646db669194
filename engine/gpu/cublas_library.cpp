#include "engine/gpu/cublas_library.h"

#include "engine/error.h"

#include <dlfcn.h>

#include <memory>

namespace rnnprof::gpu {

namespace {

struct CloseLibrary {
    void operator()(void* library) const { dlclose(library); }
};
using LibraryHandle = std::unique_ptr<void, CloseLibrary>;

struct LoadedCublas {
    LibraryHandle library;
    CublasApi api;
    std::string failure; // "" when loaded
};

// The symbol a cuBLAS name stands for: cublas_v2.h maps most names to their _v2 symbols by macro.
#define RNNPROF_SYMBOL_OF(name) RNNPROF_QUOTE_SYMBOL(name)
#define RNNPROF_QUOTE_SYMBOL(symbol) #symbol

template <typename Function>
void resolve(LoadedCublas& loaded, Function& function, const char* symbol) {
    if (!loaded.failure.empty()) return;
    function = reinterpret_cast<Function>(dlsym(loaded.library.get(), symbol));
    if (!function)
        loaded.failure = "cuBLAS could not be loaded: " + cublasLibraryName() + " has no " + symbol;
}

LoadedCublas load() {
    LoadedCublas loaded;
    loaded.library.reset(dlopen(cublasLibraryName().c_str(), RTLD_NOW | RTLD_LOCAL));
    if (!loaded.library) {
        const char* why = dlerror();
        loaded.failure = "cuBLAS could not be loaded: " + (why ? std::string(why) : cublasLibraryName());
        return loaded;
    }
    CublasApi& api = loaded.api;
    resolve(loaded, api.create, RNNPROF_SYMBOL_OF(cublasCreate));
    resolve(loaded, api.destroy, RNNPROF_SYMBOL_OF(cublasDestroy));
    resolve(loaded, api.setStream, RNNPROF_SYMBOL_OF(cublasSetStream));
    resolve(loaded, api.setMathMode, RNNPROF_SYMBOL_OF(cublasSetMathMode));
    resolve(loaded, api.setWorkspace, RNNPROF_SYMBOL_OF(cublasSetWorkspace));
    resolve(loaded, api.setPointerMode, RNNPROF_SYMBOL_OF(cublasSetPointerMode));
    resolve(loaded, api.sgemm, RNNPROF_SYMBOL_OF(cublasSgemm));
    resolve(loaded, api.snrm2, RNNPROF_SYMBOL_OF(cublasSnrm2));
    resolve(loaded, api.getStatusName, RNNPROF_SYMBOL_OF(cublasGetStatusName));
    resolve(loaded, api.getStatusString, RNNPROF_SYMBOL_OF(cublasGetStatusString));
    if (!loaded.failure.empty()) loaded.library.reset();
    return loaded;
}

// Created once and kept until the process ends, never unloaded: a session that a thread still holds
// while the process exits may call cublasDestroy after static destructors have run.
const LoadedCublas& loadedCublas() {
    static const LoadedCublas* const loaded = new LoadedCublas(load());
    return *loaded;
}

} // namespace

std::string cublasLibraryName() {
    return "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
}

const CublasApi& cublas() {
    const LoadedCublas& loaded = loadedCublas();
    if (!loaded.failure.empty()) throw Error(ErrorKind::DeviceUnavailable, loaded.failure);
    return loaded.api;
}

std::string cublasUnavailableReason() {
    return loadedCublas().failure;
}

} // namespace rnnprof::gpu

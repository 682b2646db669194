#pragma once
// cuBLAS, loaded when gpu-generic first needs it rather than when the program starts. cuBLAS and
// cuBLASLt (about 0.5 GB) take longer to map and initialise than every other library rnnprof links
// together, and most runs — every CPU sweep, every file command, every test of a machine without a
// GPU — never call them. The CUDA runtime, cuDNN (a small dispatcher that loads its engines on first
// use) and CUPTI are linked as usual: they start in well under a millisecond. CUDA builds only.
#include <cublas_v2.h>

#include <string>

namespace rnnprof::gpu {

// The cuBLAS functions rnnprof calls, resolved from libcublas.so.<CUBLAS_VER_MAJOR> (the version
// rnnprof was built with).
struct CublasApi {
    decltype(&cublasCreate) create = nullptr;
    decltype(&cublasDestroy) destroy = nullptr;
    decltype(&cublasSetStream) setStream = nullptr;
    decltype(&cublasSetMathMode) setMathMode = nullptr;
    decltype(&cublasSetWorkspace) setWorkspace = nullptr;
    decltype(&cublasSetPointerMode) setPointerMode = nullptr;
    decltype(&cublasSgemm) sgemm = nullptr;
    decltype(&cublasSnrm2) snrm2 = nullptr;
    decltype(&cublasGetStatusName) getStatusName = nullptr;
    decltype(&cublasGetStatusString) getStatusString = nullptr;
};

// The file name cuBLAS is loaded from: "libcublas.so.13".
[[nodiscard]] std::string cublasLibraryName();
// Loads cuBLAS on the first call (thread-safe; later calls reuse the answer) and returns its
// functions. Throws Error(DeviceUnavailable) with cublasUnavailableReason() when it cannot.
[[nodiscard]] const CublasApi& cublas();
// "" when cuBLAS is loaded (loading it if need be), else why it could not be:
// "cuBLAS could not be loaded: libcublas.so.13: cannot open shared object file: ...".
[[nodiscard]] std::string cublasUnavailableReason();

} // namespace rnnprof::gpu

// cuBLAS is loaded on first use (engine/gpu/cublas_library.h). Where the toolkit's cuBLAS is
// installed — every machine that builds rnnprof with CUDA — loading it resolves every function
// rnnprof calls, with or without a GPU; the process test that nothing loads it before then is
// in tests/cli (LibraryLoading).
#include "engine/gpu/gpu_session_factory.h"

#if RNNPROF_WITH_CUDA
#include "engine/gpu/cublas_library.h"
#endif

#include <gtest/gtest.h>

namespace rnnprof {
namespace {

#if RNNPROF_WITH_CUDA
TEST(CublasLibrary, IsNamedByTheMajorVersionRnnprofWasBuiltWith) {
    EXPECT_EQ(gpu::cublasLibraryName(), "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR));
}

TEST(CublasLibrary, LoadingResolvesEveryFunctionRnnprofCalls) {
    ASSERT_EQ(gpu::cublasUnavailableReason(), "");
    const gpu::CublasApi& api = gpu::cublas();
    EXPECT_NE(api.create, nullptr);
    EXPECT_NE(api.destroy, nullptr);
    EXPECT_NE(api.setStream, nullptr);
    EXPECT_NE(api.setMathMode, nullptr);
    EXPECT_NE(api.setWorkspace, nullptr);
    EXPECT_NE(api.setPointerMode, nullptr);
    EXPECT_NE(api.sgemm, nullptr);
    EXPECT_NE(api.snrm2, nullptr);
    EXPECT_NE(api.getStatusName, nullptr);
    ASSERT_NE(api.getStatusString, nullptr);
    // The loaded library answers as cuBLAS does: the name of a status it defines.
    EXPECT_STREQ(api.getStatusName(CUBLAS_STATUS_NOT_INITIALIZED), "CUBLAS_STATUS_NOT_INITIALIZED");
    EXPECT_EQ(gpu::genericLibraryProblem(), "");
}
#else
TEST(CublasLibrary, ABuildWithoutCudaSaysSoForGpuGeneric) {
    EXPECT_EQ(gpu::genericLibraryProblem(), "rnnprof was built without CUDA");
}
#endif

} // namespace
} // namespace rnnprof

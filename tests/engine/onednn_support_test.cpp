// cpu-onednn's small pieces: thread counts, oneDNN errors as rnnprof::Error, ISA names.
#include "engine/cpu/cpu_libraries.h"
#include "engine/cpu/onednn_support.h"
#include "engine/error.h"

#include <gtest/gtest.h>
#include <omp.h>

namespace rnnprof::cpu {
namespace {

ErrorKind kindOf(dnnl_status_t status) {
    try {
        throwOneDnnError(dnnl::error(status, "test message"), "LSTM forward primitive");
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("LSTM forward primitive"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("test message"), std::string::npos) << e.what();
        return e.kind();
    }
    ADD_FAILURE() << "nothing thrown";
    return ErrorKind::Io;
}

TEST(OneDnnSupport, OneDnnErrorsBecomeRnnprofErrorsNamingThePrimitive) {
    EXPECT_EQ(kindOf(dnnl_unimplemented), ErrorKind::Unsupported);
    EXPECT_EQ(kindOf(dnnl_out_of_memory), ErrorKind::OutOfMemory);
    EXPECT_EQ(kindOf(dnnl_invalid_arguments), ErrorKind::BackendFailure);
    EXPECT_EQ(kindOf(dnnl_runtime_error), ErrorKind::BackendFailure);
}

TEST(OneDnnSupport, OneDnnCallPassesResultsThroughAndTranslatesErrors) {
    EXPECT_EQ(oneDnnCall("nothing", [] { return 7; }), 7);
    EXPECT_THROW(oneDnnCall("a reorder", [] { throw dnnl::error(dnnl_invalid_arguments, "bad"); }), Error);
}

TEST(OneDnnSupport, ZeroThreadsMeansEveryAvailableCoreAndNegativeIsRefused) {
    EXPECT_EQ(resolveOneDnnThreads(0), availableCpuCores());
    EXPECT_EQ(resolveOneDnnThreads(3), 3);
    EXPECT_THROW((void)resolveOneDnnThreads(-2), Error);
}

TEST(OneDnnSupport, ThreadCountIsRestoredWhenTheScopeEnds) {
    const int before = omp_get_max_threads();
    {
        const OmpThreadCount scope(before + 1);
        EXPECT_EQ(omp_get_max_threads(), before + 1);
    }
    EXPECT_EQ(omp_get_max_threads(), before);
}

TEST(OneDnnSupport, NamesTheIsaOneDnnRunsWith) {
    EXPECT_EQ(cpuIsaName(dnnl::cpu_isa::avx2), "avx2");
    EXPECT_EQ(cpuIsaName(dnnl::cpu_isa::avx512_core_amx), "avx512_core_amx");
    EXPECT_FALSE(cpuIsaName(dnnl::get_effective_cpu_isa()).empty());
}

} // namespace
} // namespace rnnprof::cpu

// The vector ISA of cpu-blas's step kernels: the widest this CPU has, or the narrower one that
// RNNPROF_CPU_ISA names; a wider one is capped and an unknown name ignored, and either is said in
// the session's notes. tests/CMakeLists.txt runs these once per value of the variable.
#include "engine/backend.h"
#include "engine/cpu/kernel_runner.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace rnnprof {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string forcedIsa() {
    const char* forced = std::getenv("RNNPROF_CPU_ISA");
    return forced ? forced : "";
}

TEST(KernelIsa, TheNamesRnnprofCpuIsaTakes) {
    cpu::Isa isa{};
    ASSERT_TRUE(cpu::parseIsa("sse2", isa));
    EXPECT_EQ(isa, cpu::Isa::Sse2);
    ASSERT_TRUE(cpu::parseIsa("avx2", isa));
    EXPECT_EQ(isa, cpu::Isa::Avx2);
    ASSERT_TRUE(cpu::parseIsa("avx512", isa));
    EXPECT_EQ(isa, cpu::Isa::Avx512);
    for (const char* other : {"", "avx", "AVX2", "avx-512", "avx512f", "sse2 "})
        EXPECT_FALSE(cpu::parseIsa(other, isa)) << "'" << other << "'";
}

TEST(KernelIsa, IsTheWidestUnlessRnnprofCpuIsaNamesANarrowerOne) {
    const std::string forced = forcedIsa();
    const std::string note = cpu::kernelIsaNote();
    cpu::Isa asked{};
    if (forced.empty()) {
        EXPECT_EQ(cpu::kernelIsa(), cpu::widestIsa());
        EXPECT_EQ(note, "");
    } else if (!cpu::parseIsa(forced.c_str(), asked)) {
        EXPECT_EQ(cpu::kernelIsa(), cpu::widestIsa());
        EXPECT_EQ(note, "RNNPROF_CPU_ISA=" + forced + " ignored: not sse2, avx2 or avx512");
    } else if (asked > cpu::widestIsa()) {
        EXPECT_EQ(cpu::kernelIsa(), cpu::widestIsa());
        EXPECT_EQ(note, "RNNPROF_CPU_ISA=" + forced + " capped: this CPU runs up to " +
                            cpu::isaName(cpu::widestIsa()));
    } else {
        EXPECT_EQ(cpu::kernelIsa(), asked);
        EXPECT_EQ(note, "set by RNNPROF_CPU_ISA=" + forced);
    }
}

// What a result records: the ISA the kernels ran with, and what RNNPROF_CPU_ISA did to it.
TEST(KernelIsa, CpuBlasSessionsNameTheIsaOfTheirKernelsInTheirNotes) {
    const Backend* blas = builtinBackends().find("cpu-blas");
    ASSERT_NE(blas, nullptr);
    Problem p;
    p.config.inputSize = 4;
    p.config.hiddenSize = 8;
    p.shape = {2, 3};
    const auto notes = blas->prepare(p)->notes();
    std::string expected = std::string("step kernels: ") + cpu::isaName(cpu::kernelIsa());
    if (*cpu::kernelIsaNote()) expected += std::string(" (") + cpu::kernelIsaNote() + ")";
    EXPECT_THAT(notes, Contains(StartsWith(expected + ", recurrence on ")));
    if (!forcedIsa().empty()) {
        EXPECT_THAT(notes, Contains(HasSubstr("RNNPROF_CPU_ISA=" + forcedIsa())));
    }
}

} // namespace
} // namespace rnnprof

// `rnnprof eval` checks its files from their headers and its memory from an estimate before it
// allocates anything (reading first could allocate, e.g., 6.4 GB of parameters before noticing that
// the weight files are missing). The runs below get an address space smaller than what reading
// would allocate, so a refusal that came only after allocating would end in an out-of-memory error
// instead of the message asserted.
#include "cli/cli_process.h"
#include "engine/host_memory.h"
#include "engine/npy.h"
#include "engine/params.h"
#include "faults/oversized_config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace rnnprof {
namespace {

namespace fs = std::filesystem;
using test::Args;
using test::ProcessResult;
using test::TempDir;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// Address space for the child: enough for Qt and the BLAS libraries to start, far less than the
// parameters or inputs of the models below.
constexpr std::uint64_t kAddressSpaceKiB = std::uint64_t(4) << 20; // 4 GiB

bool addressSpaceCanBeLimited() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return false; // the sanitizers reserve terabytes of shadow memory
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
    return false;
#else
    return true;
#endif
#else
    return true;
#endif
}

// `rnnprof eval <args>` with its address space limited to kAddressSpaceKiB.
ProcessResult runEvalInLimitedMemory(const Args& args) {
    std::vector<std::string> argv{
        "/bin/sh", "-c", "ulimit -v " + std::to_string(kAddressSpaceKiB) + " && exec \"$0\" eval \"$@\"",
        RNNPROF_EXE};
    argv.insert(argv.end(), args.begin(), args.end());
    return test::runToEnd(std::move(argv));
}

Args modelFlags(const RnnConfig& c) {
    Args a{"--cell",        std::string(toString(c.cell)), "--input-size", std::to_string(c.inputSize),
           "--hidden-size", std::to_string(c.hiddenSize),  "--layers",     std::to_string(c.layers)};
    if (c.bidirectional) a.push_back("--bidirectional");
    return a;
}

// An .npy file of float32 zeros of `shape` that takes no disk space: its header, then a hole.
void writeSparseNpy(const std::string& path, const std::vector<std::int64_t>& shape) {
    std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (";
    std::uint64_t elements = 1;
    for (std::int64_t d : shape) {
        dict += std::to_string(d) + ", ";
        elements *= std::uint64_t(d);
    }
    dict += "), }";
    dict.append((64 - (10 + dict.size() + 1) % 64) % 64, ' ');
    dict.push_back('\n');
    std::ofstream out(path, std::ios::binary);
    out << "\x93NUMPY" << '\x01' << '\x00' << char(dict.size() & 0xff) << char(dict.size() >> 8) << dict;
    out.close();
    fs::resize_file(path, 10 + dict.size() + elements * 4);
}

TEST(EvalMemory, MissingWeightsOfAHugeModelAreNamedBeforeItsParametersAreAllocated) {
    if (!addressSpaceCanBeLimited())
        GTEST_SKIP() << "a sanitizer build cannot run in a limited address space";
    // 3 layers of 8192 units: 1.6 G parameters, 6.4 GB as float32.
    RnnConfig c;
    c.cell = CellType::Lstm;
    c.inputSize = 8192;
    c.hiddenSize = 8192;
    c.layers = 3;
    ASSERT_GT(ParamLayout(c).totalSize() * 4, std::int64_t(kAddressSpaceKiB) * 1024);
    TempDir dir;
    fs::create_directories(dir.path("weights"));
    writeNpy(dir.path("x.npy"), Tensor<float>({1, 1, 8192}));
    Args args = modelFlags(c);
    args.insert(args.end(),
                {"--weights", dir.path("weights"), "--input", dir.path("x.npy"), "--out", dir.path("out")});
    const ProcessResult run = runEvalInLimitedMemory(args);
    EXPECT_EQ(run.status, 1) << run.err;
    EXPECT_THAT(run.err, StartsWith("rnnprof eval: missing weight file " + dir.path("weights") +
                                    "/weight_ih_l0.npy (expected shape [32768, 8192]"));
    EXPECT_FALSE(fs::exists(dir.path("out")));
}

TEST(EvalMemory, BuffersThatDoNotFitAreRefusedWithTheNumbersBeforeAnyFileIsRead) {
    if (!addressSpaceCanBeLimited())
        GTEST_SKIP() << "a sanitizer build cannot run in a limited address space";
    const RnnConfig c = test::oversizedModel();
    const Shape shape = test::kOversizedShape;
    Problem problem;
    problem.config = c;
    problem.shape = shape;
    if (const auto why = test::whyItWouldFit(*builtinBackends().find("cpu-reference"), problem))
        GTEST_SKIP() << *why;
    TempDir dir;
    const ParamLayout layout(c);
    for (const ParamSpec& spec : layout.specs())
        writeNpy(dir.path(spec.name + ".npy"), Tensor<float>(spec.shape()));
    // 133 M inputs: reading them (as float64, then float32) would take 1.6 GB.
    writeSparseNpy(dir.path("x.npy"), {shape.seqLen, shape.batch, c.inputSize});
    Args args = modelFlags(c);
    args.insert(args.end(),
                {"--weights", dir.path(), "--input", dir.path("x.npy"), "--out", dir.path("out")});
    const ProcessResult run = runEvalInLimitedMemory(args);
    EXPECT_EQ(run.status, 1) << run.err;
    EXPECT_THAT(run.err, StartsWith("rnnprof eval: cpu-reference at batch 65536, seq_len 127 needs "));
    EXPECT_THAT(run.err, HasSubstr(": reduce batch, sequence length or hidden size"));
    // Where the limit leaves less than the machine's free memory, the limit is named.
    if (availableHostMemory().value_or(0) > kAddressSpaceKiB * 1024) {
        EXPECT_THAT(run.err,
                    HasSubstr(" available (what the address-space limit, ulimit -v, leaves this process): "
                              "reduce batch, sequence length or hidden size"));
    }
    EXPECT_THAT(run.err, Not(HasSubstr("memory exhausted")));
    EXPECT_FALSE(fs::exists(dir.path("out")));
}

} // namespace
} // namespace rnnprof

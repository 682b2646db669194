// The reference GPU results shipped in resources/reference/ (README "Reference GPU results"): every
// file loads with this build's reader, is what it says it is (an NVIDIA H100 host, CPU and GPU
// points, complete), covers every preset with the preset's model, and says what the H100 host
// measured: gpu-cudnn overtakes cpu-blas at about batch 3 for the LSTM 128->256 at T=20.
#include "profiling/crossover.h"
#include "profiling/presets.h"
#include "profiling/result_files.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

namespace rnnprof {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> referenceFiles() {
    std::vector<fs::path> out;
    for (const auto& entry : fs::directory_iterator(RNNPROF_REFERENCE_DIR))
        if (entry.path().extension() == ".json") out.push_back(entry.path());
    std::sort(out.begin(), out.end());
    return out;
}

TEST(ReferenceResults, EveryShippedFileLoadsWithThisBuildsReader) {
    const auto files = referenceFiles();
    ASSERT_EQ(files.size(), 7u); // six presets and the traced quick-start
    for (const fs::path& f : files) {
        SCOPED_TRACE(f.filename().string());
        SweepResult r;
        ASSERT_NO_THROW(r = loadResultFile(f.string()));
        EXPECT_EQ(r.schemaVersion, SweepResult::kSchemaVersion);
        EXPECT_TRUE(r.complete);
        EXPECT_EQ(r.host.hostname, "vm"); // as recorded: the data is shipped unchanged
        ASSERT_FALSE(r.host.gpu.devices.empty());
        EXPECT_EQ(r.host.gpu.devices.front().name, "NVIDIA H100 80GB HBM3");
        EXPECT_EQ(r.host.cpuCores, 16);
        const auto choices = sideChoices(r);
        EXPECT_NE(std::find(choices.begin(), choices.end(), std::string(kFastestGpu)), choices.end())
            << "a reference holds successful GPU points";
        // A loaded file saves to the same JSON it was read from (the reader loses nothing).
        EXPECT_EQ(resultFromJson(toJson(r), "again"), r);
    }
}

TEST(ReferenceResults, EveryPresetHasAReferenceOfTheSameModel) {
    for (const Preset& p : builtinPresets()) {
        SCOPED_TRACE(p.name);
        const fs::path f = fs::path(RNNPROF_REFERENCE_DIR) / ("h100-" + p.name + ".json");
        ASSERT_TRUE(fs::exists(f));
        const SweepResult r = loadResultFile(f.string());
        EXPECT_TRUE(modelDifferences(p.plan.config, r.plan.config).empty())
            << describeDifferences(modelDifferences(p.plan.config, r.plan.config));
        EXPECT_TRUE(sideChoices(r).size() >= 2u);
    }
}

TEST(ReferenceResults, OnTheH100GpuCudnnOvertakesCpuBlasAtAboutBatchThreeForLstmInference) {
    const SweepResult r =
        loadResultFile((fs::path(RNNPROF_REFERENCE_DIR) / "h100-cpu-gpu-crossover.json").string());
    const PairMatch m = matchPair(r, "cpu-blas", r, "gpu-cudnn");
    ASSERT_TRUE(m.sameModel());
    const auto c = findCrossovers(m.points, Mode::Inference);
    ASSERT_EQ(c.size(), 2u); // T=20 and T=100
    ASSERT_EQ(c[0].seqLen, 20);
    ASSERT_TRUE(c[0].batch.has_value()) << c[0].note;
    // Recorded medians at T=20: B=2 cpu-blas 0.2546 ms, gpu-cudnn 0.3373 ms; B=4 0.4609 ms, 0.3783 ms.
    // log(0.3373/0.2546) = 0.2813 and log(0.3783/0.4609) = -0.1975: zero at t = 0.5875 of the way
    // from log 2 to log 4, B = 2 * 2^0.5875 = 3.00.
    EXPECT_NEAR(*c[0].batch, 3.0, 0.05);
}

} // namespace
} // namespace rnnprof

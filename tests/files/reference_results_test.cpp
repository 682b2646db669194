// The reference GPU results shipped in resources/reference/ (docs/user-guide.md "Reference GPU results"):
// every file loads with this build's reader, is what it says it is (an NVIDIA H100 host, CPU and GPU points,
// complete), covers every preset with the preset's model, and says what the H100 host measured: gpu-cudnn
// overtakes cpu-blas at about batch 3 for the LSTM 128->256 at T=20.
#include "profiling/analysis/cost_model.h"
#include "profiling/analysis/crossover.h"
#include "profiling/analysis/prediction_check.h"
#include "profiling/analysis/summary_text.h"
#include "profiling/analysis/traced_headline.h"
#include "profiling/files/presets.h"
#include "profiling/files/result_files.h"
#include "profiling/measure/statistics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>

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

// The noisy flag must flag the noisy, so on a quiet host most points are not. The
// H100 host was quiet (one sweep at a time, nothing else running); its untraced points are the
// calibration set of kDefaultNoiseThreshold (profiling/measure/statistics.h).
TEST(ReferenceResults, TheNoisyRuleFlagsFewPointsMeasuredOnTheQuietHost) {
    int ok = 0, noisy = 0;
    for (const fs::path& f : referenceFiles()) {
        if (f.filename().string().find("traced") != std::string::npos) continue; // tracing adds spread
        for (const PointResult& p : loadResultFile(f.string()).points) {
            if (p.status != PointStatus::Ok) continue;
            ++ok;
            noisy += isNoisy(p.iteration, kDefaultNoiseThreshold) ? 1 : 0;
        }
    }
    ASSERT_GE(ok, 300);
    const double share = double(noisy) / ok;
    std::printf("noisy on the quiet H100 host: %d of %d points (%.0f %%)\n", noisy, ok, 100 * share);
    EXPECT_LT(share, 0.2) << "the noisy marker would be on most points and say nothing";
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

// The cost model against the shipped H100 data: leave-one-model-out per GPU family over every
// untraced reference. Not a pass mark for the accuracy goal: the tables are printed as they are (the
// README's come from `rnnprof predict --check` on the same files). Asserted: every point of every
// model is predicted once, the coefficients stay physical, the bands hold at least 80 % of the
// left-out points, and a prediction for an unseen model carries this check's verdict.
std::vector<SweepResult> untracedReferences() {
    std::vector<SweepResult> out;
    for (const fs::path& f : referenceFiles())
        if (f.filename().string().find("-traced") == std::string::npos)
            out.push_back(loadResultFile(f.string()));
    return out;
}

TEST(ReferenceResults, LeaveOneModelOutPerGpuFamilyIsPrintedAndJudgesUnseenModels) {
    const std::vector<SweepResult> refs = untracedReferences();
    std::vector<NamedResult> from;
    for (const auto& r : refs)
        from.push_back({&r, r.plan.preset + ".json"});
    const std::vector<FamilyCheck> checks = checkFamilies(from);
    std::printf("%s", predictionCheckText(checks).c_str());
    ASSERT_EQ(checks.size(), 4u) << "gpu-cudnn and gpu-generic, inference and training";
    std::size_t leftOut = 0;
    for (const FamilyCheck& c : checks) {
        ASSERT_TRUE(c.fit.has_value()) << c.whyNot;
        const BackendFit& fit = *c.fit;
        std::size_t samples = 0;
        for (std::size_t m : fit.familyModels)
            for (const auto& r : refs)
                if (modelDifferences(r.plan.config, fit.models[m]).empty())
                    samples += costSamples(r, c.family).size();
        EXPECT_GE(fit.familyModels.size(), 3u) << toString(c.family);
        EXPECT_EQ(fit.crossModelErrors.size(), samples) << toString(c.family) << ": each point once";
        leftOut += samples;
        for (double e : fit.crossModelErrors)
            EXPECT_TRUE(std::isfinite(e) && e >= 0.0) << e;
        // Physical: within the H100's published peaks, nothing negative.
        EXPECT_LE(fit.model.bandwidthGBs, 3350.0 * (1 + 1e-9));
        EXPECT_LE(fit.model.gflops, 67000.0 * (1 + 1e-9));
        for (double t : fit.model.theta)
            EXPECT_GE(t, 0.0);
        EXPECT_NE(fit.limits.source.find("H100 SXM5 80GB"), std::string::npos) << fit.limits.source;
        EXPECT_GE(fit.bandCoverage, 0.8) << toString(c.family);
        // A prediction for a model none of them ran carries exactly this check's verdict.
        RnnConfig unseen;
        unseen.hiddenSize = 384;
        const PointResult p = predictedPoint(fit, unseen, {8, 50});
        EXPECT_EQ(p.prediction->unreliable, unreliable(fit.crossModelErrors)) << toString(c.family);
        EXPECT_EQ(p.prediction->check, "leave-one-model-out");
        EXPECT_NE(p.prediction->band.find("widened"), std::string::npos) << p.prediction->band;
    }
    EXPECT_GT(leftOut, 150u);
}

// What `rnnprof predict` runs (predictResult) adds no arithmetic: DeepBench's grid predicted from
// every other reference gives exactly the leave-one-model-out errors of DeepBench's model.
TEST(ReferenceResults, PredictingDeepBenchFromTheOtherFilesIsItsLeaveOneModelOutCheck) {
    const std::vector<SweepResult> refs = untracedReferences();
    const auto deepbench = std::find_if(refs.begin(), refs.end(), [](const SweepResult& r) {
        return r.plan.preset == "deepbench-lstm-inference";
    });
    ASSERT_NE(deepbench, refs.end());
    std::vector<NamedResult> others, all;
    for (const auto& r : refs) {
        all.push_back({&r, r.plan.preset + ".json"});
        if (&r != &*deepbench) others.push_back({&r, r.plan.preset + ".json"});
    }
    SweepPlan plan = deepbench->plan;
    plan.backends = {"gpu-cudnn", "gpu-generic"};
    const SweepResult predicted = predictResult(others, plan);
    ASSERT_EQ(predicted.points.size(), 14u);
    for (const char* backend : {"gpu-cudnn", "gpu-generic"}) {
        const auto fit = fitBackend(all, {backend, Mode::Inference});
        ASSERT_TRUE(fit.has_value());
        std::vector<double> expected, got;
        for (std::size_t i = 0; i < fit->crossModelOf.size(); ++i)
            if (modelDifferences(fit->models[fit->crossModelOf[i]], deepbench->plan.config).empty())
                expected.push_back(fit->crossModelErrors[i]);
        const auto measured = sideTimes(*deepbench, backend);
        for (const PointResult& p : predicted.points) {
            if (p.backend != backend) continue;
            EXPECT_TRUE(p.predicted());
            EXPECT_EQ(p.prediction->check, "leave-one-model-out");
            const auto it = measured.find({p.mode, p.shape.seqLen, p.shape.batch});
            ASSERT_NE(it, measured.end());
            got.push_back(std::abs(p.iteration.median - it->second.ms) / it->second.ms);
        }
        std::sort(expected.begin(), expected.end());
        std::sort(got.begin(), got.end());
        ASSERT_EQ(got.size(), expected.size());
        for (std::size_t i = 0; i < got.size(); ++i)
            EXPECT_NEAR(got[i], expected[i], 1e-9) << backend;
    }
}

// The shipped traced run of quick-start timed the runs CUPTI traced (its GPU headline is the traced
// median): it says it is no time reference; every untraced file says nothing of the kind.
TEST(ReferenceResults, OnlyTheTracedFileSaysItsGpuTimesAreNoTimeReference) {
    for (const fs::path& f : referenceFiles()) {
        const SweepResult r = loadResultFile(f.string());
        const std::string brief = tracedHeadlineBrief(r);
        if (f.filename() == "h100-quick-start-traced.json") {
            EXPECT_NE(brief.find("not a time reference"), std::string::npos) << brief;
            EXPECT_NE(summaryTable(r).find(brief), std::string::npos) << "the terminal summary prints it";
        } else {
            EXPECT_TRUE(brief.empty()) << f.filename() << ": " << brief;
        }
    }
}

} // namespace
} // namespace rnnprof

// The breakdown's notes of a GPU point: the library buffers by name (what the workspace holds),
// the math type and the warnings about the GPU trace; a CPU point and an older file show none.
#include "gui/fake_results.h"
#include "gui/models/point_details.h"

#include <gtest/gtest.h>

namespace rnnprof::gui {
namespace {

std::vector<SweepResult> oneGpuPoint(const GpuProfile& g) {
    SweepResult r = test::fakeSweep();
    PointResult& p = r.points.front();
    p.backend = "gpu-cudnn";
    p.memory.onDevice = true;
    p.gpu = g;
    return {r};
}

GpuProfile cudnnProfile() {
    GpuProfile g;
    g.unavailableReason = "kernel trace off (gpu_trace = false)";
    g.mathType = "strict FP32 (CUDNN_FMA_MATH)";
    g.cudnnWorkspaceBytes = 8u << 20;
    g.cudnnReserveBytes = 12u << 20;
    g.dropoutStateBytes = 3u << 20;
    g.warnings = {"CUPTI API version 130000 (CUDA 13.0 GA) lacks the fixes of 13.0 Update 1"};
    return g;
}

TEST(PointDetails, AGpuPointNamesItsLibraryBuffersMathTypeAndTraceWarnings) {
    const QString html = pointDetailsHtml(oneGpuPoint(cudnnProfile()), {0, 0});
    EXPECT_TRUE(html.contains(QStringLiteral("library buffers"))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral("cuDNN workspace 8.0 MiB"))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral("cuDNN reserve space 12.0 MiB"))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral("cuDNN dropout states 3.0 MiB"))) << html.toStdString();
    EXPECT_FALSE(html.contains(QStringLiteral("cuBLAS"))) << "none was made: " << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral("strict FP32 (CUDNN_FMA_MATH)"))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral("GPU trace warning"))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral("lacks the fixes of 13.0 Update 1"))) << html.toStdString();
}

TEST(PointDetails, AGenericGpuPointShowsItsCublasWorkspace) {
    GpuProfile g;
    g.cublasWorkspaceBytes = 32u << 20;
    const QString html = pointDetailsHtml(oneGpuPoint(g), {0, 0});
    EXPECT_TRUE(html.contains(QStringLiteral("cuBLAS workspace 32.0 MiB"))) << html.toStdString();
    EXPECT_FALSE(html.contains(QStringLiteral("GPU trace warning")));
}

TEST(PointDetails, CpuPointsAndOlderFilesListNoLibraryBuffers) {
    EXPECT_FALSE(pointDetailsHtml({test::fakeSweep()}, {0, 0}).contains(QStringLiteral("library buffers")));
    EXPECT_FALSE(
        pointDetailsHtml(oneGpuPoint(GpuProfile{}), {0, 0}).contains(QStringLiteral("library buffers")));
}

TEST(PointDetails, TheDeviceWorkspaceNamesTheLibraryBuffersItHolds) {
    // The total and the cuDNN note disagreed by cuBLAS's 32 MiB: the workspace now lists its parts.
    GpuProfile g;
    g.cudnnWorkspaceBytes = 8u << 20;
    auto results = oneGpuPoint(g);
    results[0].points[0].memory.workspace = (8u << 20) + (32u << 20);
    const QString html = pointDetailsHtml(results, {0, 0});
    EXPECT_TRUE(html.contains(QStringLiteral("workspace 40.0 MiB (cuDNN workspace 8.0 MiB, other 32.0 MiB)")))
        << html.toStdString();
    // A file without the buffers says so instead of leaving a reader to compare with the notes.
    auto older = oneGpuPoint(GpuProfile{});
    older[0].points[0].memory.workspace = 40u << 20;
    EXPECT_TRUE(pointDetailsHtml(older, {0, 0}).contains(QStringLiteral("its parts are not in this file")));
}

TEST(PointDetails, NoEmptyMathTypeRow) {
    GpuProfile g;
    g.mathType.clear();
    const QString html = pointDetailsHtml(oneGpuPoint(g), {0, 0});
    EXPECT_FALSE(html.contains(QStringLiteral("math"))) << html.toStdString();
}

} // namespace
} // namespace rnnprof::gui

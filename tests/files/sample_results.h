#pragma once
// Hand-built sweep results for the result-file tests: every field of every record set to a value
// that differs from its default, plus the awkward cases (NaN phases, a reason with a comma, a
// quote and a newline, points that were never measured).
#include "profiling/result.h"
#include "support/temp_dir.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace rnnprof::test {

inline PointResult measuredPoint(const std::string& backend, Mode mode, Shape shape, double medianMs) {
    PointResult p;
    p.backend = backend;
    p.mode = mode;
    p.shape = shape;
    p.status = PointStatus::Ok;
    p.warmupRuns = 2;
    p.measuredRuns = 7;
    p.iteration = {7,
                   medianMs,
                   medianMs * 0.9,
                   medianMs * 1.2,
                   medianMs * 0.85,
                   medianMs * 1.3,
                   medianMs * 1.01,
                   medianMs * 0.05,
                   0.0495};
    p.phaseMedianMs = {medianMs * 0.4, mode == Mode::Training ? medianMs * 0.5 : kNoValue,
                       mode == Mode::Training ? medianMs * 0.1 : kNoValue};
    p.steps = {{"input GEMM", Phase::Forward, medianMs * 0.1, 1},
               {"recurrent steps", Phase::Forward, medianMs * 0.3, 1}};
    p.noisy = false;
    p.noiseThreshold = 0.1;
    p.flopsPerIteration = 123456789012ULL;
    p.sequencesPerSecond = shape.batch * 1000.0 / medianMs;
    p.tokensPerSecond = p.sequencesPerSecond * shape.seqLen;
    p.gflopsPerSecond = 0.1234567890123;
    p.memory = {1000, mode == Mode::Training ? 1000u : 0u, 5000, 300, 4096, false, {}};
    p.peakRssGrowthBytes = 1ULL << 33;
    p.numerics = {true, 1.5e-7, 2.25e-6, "output", "checked on the full shape"};
    p.notes = {"GEMM: oneDNN sgemm, 2 threads", "threads: 2"};
    // One traced iteration: a phase with two nested steps, then (training) backward.
    p.trace = {{"forward", "phase", 0.0, 400.0, 0},
               {"input GEMM", "step", 5.0, 100.0, 0},
               {"recurrent steps", "step", 110.0, 280.0, 0}};
    if (mode == Mode::Training) p.trace.push_back({"backward", "phase", 400.0, 500.0, 0});
    p.measureSeconds = 0.75;
    return p;
}

inline GpuProfile sampleGpuProfile() {
    GpuProfile g;
    g.traced = true;
    g.warnings = {"CUPTI API version 130000 (CUDA 13.0 GA) lacks the fixes of 13.0 Update 1"};
    g.mathType = "strict FP32 (CUDNN_FMA_MATH)";
    g.kernels = {{"void lstm_fwd<float>(int)", Phase::Forward, 20, 812.5, 40.625, 38.0, 51.25, 0.75},
                 {"sgemm_128x64", Phase::Backward, 3, 270.0, 90.0, 88.0, 93.0, 0.25}};
    g.memcpys = {{"HtoD", 1 << 20, 85.5, 2}, {"DtoH", 4096, 3.25, 1}};
    g.gpuBusyUs = 1100.0;
    g.wallUs = 1300.0;
    g.eventMs = {0.8, 0.3, 0.0};
    g.peakDeviceBytes = {1ULL << 30, 3ULL << 29, 0};
    g.cudnnWorkspaceBytes = 8 << 20;
    g.cudnnReserveBytes = 12 << 20;
    g.dropoutStateBytes = 3 << 20;
    g.droppedRecords = 1;
    g.unattributedRecords = 2;
    g.tracedMedianMs = 1.31;
    g.untracedMedianMs = 1.29;
    return g;
}

inline PointResult gpuPoint() {
    PointResult p = measuredPoint("gpu-cudnn", Mode::Training, {64, 20}, 1.3);
    p.memory.onDevice = true;
    p.gpu = sampleGpuProfile();
    // The session's named buffers, which the profile's library buffers repeat.
    p.memory.activations = p.gpu->cudnnReserveBytes;
    p.memory.workspace = p.gpu->cudnnWorkspaceBytes + p.gpu->dropoutStateBytes + 4096;
    p.memory.detail = {{"cuDNN reserve space", BufferCategory::Activations, p.gpu->cudnnReserveBytes},
                       {"cuDNN workspace", BufferCategory::Workspace, p.gpu->cudnnWorkspaceBytes},
                       {"cuDNN dropout states", BufferCategory::Workspace, p.gpu->dropoutStateBytes},
                       {"loss partial sums", BufferCategory::Workspace, 4096}};
    p.trace.push_back({"void lstm_fwd<float>(int)", "kernel", 10.0, 40.0, 1});
    p.trace.push_back({"HtoD", "memcpy", 1.0, 5.0, 2});
    return p;
}

inline PointResult unmeasuredPoint(const std::string& backend, PointStatus status,
                                   const std::string& reason) {
    PointResult p;
    p.backend = backend;
    p.mode = Mode::Training;
    p.shape = {16, 20};
    p.status = status;
    p.reason = reason;
    return p;
}

// A point the cost model predicted (status predicted): a time, its band and where it came from,
// with an open upper bound (NaN, null in the file).
inline PointResult predictedSamplePoint() {
    PointResult p;
    p.backend = "gpu-cudnn";
    p.mode = Mode::Inference;
    p.shape = {256, 20};
    p.status = PointStatus::Predicted;
    p.iteration.median = 0.42;
    p.flopsPerIteration = 987654321ULL;
    Prediction pr;
    pr.lowMs = 0.35;
    pr.highMs = kNoValue;
    pr.from = "h100-quick-start.json";
    pr.gpu = "NVIDIA H100 80GB HBM3";
    pr.fittedPoints = 14;
    pr.fixedMs = 0.02;
    pr.stepMs = 0.011;
    pr.gflops = 3500.0;
    pr.bandwidthGBs = 1900.0;
    pr.looMedianError = 0.12;
    pr.looWithin30 = 0.875;
    pr.unreliable = false;
    pr.check = "leave-one-out";
    pr.band = "10-90 % of the left-out-point errors";
    p.prediction = pr;
    p.reason = predictedFromText(pr);
    return p;
}

inline SweepResult sampleResult() {
    SweepResult r;
    r.createdAt = "2026-11-21T21:34:10Z";
    r.host.hostname = "bench-01";
    r.host.cpuModel = "AMD EPYC 7B13 \"Milan\"";
    r.host.cpuCores = 2;
    r.host.memoryBytes = 8ULL << 30;
    r.host.os = "Debian GNU/Linux 12 (bookworm), Linux 6.1.0";
    r.host.cpuLibraries = "OpenBLAS 0.3.21 · oneDNN 2.6.3";
    r.host.rnnprofVersion = "0.1.0";
    r.host.gpu.builtWithCuda = true;
    r.host.gpu.builtWithCudnn = true;
    r.host.gpu.builtWithCupti = true;
    r.host.gpu.available = true;
    r.host.gpu.runtimeVersion = "13.0";
    r.host.gpu.driverVersion = "13.0";
    r.host.gpu.cudnnVersion = "9.19.0";
    r.host.gpu.cuptiVersion = "130001";
    r.host.gpu.devices = {{0, "NVIDIA H100 80GB HBM3", 9, 0, 85ULL << 30, 80ULL << 30, 132}};
    r.plan.config.cell = CellType::Gru;
    r.plan.config.hiddenSize = 64;
    r.plan.config.seed = 7;
    r.plan.batches = {16, 64};
    r.plan.seqLens = {20};
    r.plan.backends = {"cpu-blas", "gpu-cudnn"};
    r.plan.modes = {Mode::Inference, Mode::Training};
    r.plan.settings.warmup = 3;
    r.plan.settings.gemm = GemmProvider::OpenBlas;
    r.plan.preset = "gru-train-vs-infer";
    r.points = {measuredPoint("cpu-blas", Mode::Inference, {16, 20}, 0.5),
                gpuPoint(),
                measuredPoint("cpu-blas", Mode::Training, {64, 20}, 2.75),
                unmeasuredPoint("gpu-generic", PointStatus::Failed,
                                "cuBLAS failed: \"CUBLAS_STATUS_EXECUTION_FAILED\", at step 3,\nsecond line"),
                unmeasuredPoint("cpu-onednn", PointStatus::Ineligible,
                                "oneDNN LSTM requires activation=tanh; got relu"),
                predictedSamplePoint()};
    r.complete = true;
    return r;
}

} // namespace rnnprof::test

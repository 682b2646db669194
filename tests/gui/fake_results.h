#pragma once
// Hand-built sweep results for the GUI and CLI tests: exact numbers, so a test can say which points
// a chart must receive and which values the table must show.
#include "profiling/files/recorded_limits.h"
#include "profiling/result.h"

#include <cmath>
#include <string>

namespace rnnprof::test {

inline PointResult okPoint(const std::string& backend, Mode mode, int batch, int seqLen, double medianMs,
                           bool noisy = false) {
    PointResult p;
    p.backend = backend;
    p.mode = mode;
    p.shape = {batch, seqLen};
    p.status = PointStatus::Ok;
    p.warmupRuns = 1;
    p.measuredRuns = 5;
    p.iteration = {
        5,        medianMs,        medianMs * 0.95,   medianMs * 1.05, medianMs * 0.9, medianMs * 1.1,
        medianMs, medianMs * 0.02, noisy ? 0.3 : 0.02};
    p.noisy = noisy;
    if (mode == Mode::Training)
        p.phaseMedianMs = {medianMs * 0.4, medianMs * 0.5, medianMs * 0.1};
    else
        p.phaseMedianMs = {medianMs, kNoValue, kNoValue};
    p.steps = {{"input GEMM", Phase::Forward, medianMs * 0.3, 1},
               {"recurrent steps", Phase::Forward, medianMs * 0.6, seqLen}};
    p.flopsPerIteration = 1000000;
    p.sequencesPerSecond = batch * 1000.0 / medianMs;
    p.tokensPerSecond = p.sequencesPerSecond * seqLen;
    p.gflopsPerSecond = 1.0;
    p.memory.weights = 1 << 20;
    p.memory.activations = mode == Mode::Training ? std::uint64_t(batch) * seqLen * 4096 : 0;
    p.memory.workspace = std::uint64_t(batch) * 1024;
    p.memory.io = std::uint64_t(batch) * seqLen * 512;
    p.notes = {"GEMM: fake"};
    return p;
}

inline PointResult failedPoint(const std::string& backend, Mode mode, int batch, int seqLen,
                               PointStatus status, const std::string& reason) {
    PointResult p;
    p.backend = backend;
    p.mode = mode;
    p.shape = {batch, seqLen};
    p.status = status;
    p.reason = reason;
    return p;
}

// Two CPU-like backends over batch {1, 4, 16, 64} x seq {10, 100}: "slow-cpu" takes 1 ms per sample,
// "fast-gpu" a fixed 8 ms plus 0.1 ms per sample, so fast-gpu overtakes slow-cpu between B=4 and B=16
// at every sequence length (speedup 1x at B = 8.9).
inline SweepResult fakeSweep(const std::string& hostname = "testhost") {
    // Made-up backends, as a test registry's: known to this process, so their files load back.
    acceptBackendIds({"slow-cpu", "fast-gpu"});
    SweepResult r;
    r.createdAt = "2026-01-01T00:00:00Z";
    r.host.hostname = hostname;
    r.host.cpuModel = "Test CPU";
    r.host.cpuCores = 2;
    r.plan.batches = {1, 4, 16, 64};
    r.plan.seqLens = {10, 100};
    r.plan.backends = {"slow-cpu", "fast-gpu"};
    r.plan.modes = {Mode::Inference};
    for (int t : r.plan.seqLens)
        for (int b : r.plan.batches) {
            const double scale = t / 10.0;
            r.points.push_back(okPoint("slow-cpu", Mode::Inference, b, t, 1.0 * b * scale));
            r.points.push_back(okPoint("fast-gpu", Mode::Inference, b, t, (8.0 + 0.1 * b) * scale, b == 16));
        }
    r.complete = true;
    return r;
}

} // namespace rnnprof::test

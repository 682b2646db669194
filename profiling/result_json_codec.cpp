#include "profiling/result_json_codec.h"

#include "engine/error.h"
#include "profiling/plan_json.h"

namespace rnnprof::jsonio {
namespace {

constexpr Phase kAllPhases[kPhaseCount] = {Phase::Forward, Phase::Backward, Phase::Update};
// toString(Phase) is the spelling (engine/phase_hook.h); the table only collects it.
constexpr Spellings<Phase, kPhaseCount> kPhaseSpellings{{{Phase::Forward, toString(Phase::Forward)},
                                                         {Phase::Backward, toString(Phase::Backward)},
                                                         {Phase::Update, toString(Phase::Update)}}};

std::optional<Phase> parsePhase(std::string_view s) {
    return parseSpelling(kPhaseSpellings, s);
}

// Every element of the array at `key` read by `readOne` into a fresh T; the vector is replaced
// only when the key holds an array.
template <class T, class F>
void readObjects(ObjectReader& r, const char* key, std::vector<T>& out, F readOne) {
    const Json* v = r.array(key);
    if (!v) return;
    out.assign(v->size(), T{});
    for (std::size_t i = 0; i < v->size(); ++i) {
        ObjectReader item((*v)[i], indexPath(r.pathOf(key), i), r.problems(), false);
        if (item.isObject()) readOne(item, out[i]);
    }
}

template <class T>
Json perPhase(const std::array<T, kPhaseCount>& values) {
    Json j = Json::object();
    for (Phase p : kAllPhases) {
        const T v = values[std::size_t(p)];
        if constexpr (std::is_floating_point_v<T>)
            j[std::string(toString(p))] = number(v);
        else
            j[std::string(toString(p))] = v;
    }
    return j;
}

template <class T>
void readPerPhase(ObjectReader& r, const char* key, std::array<T, kPhaseCount>& out) {
    const Json* v = r.object(key);
    if (!v) return;
    ObjectReader phases(*v, r.pathOf(key), r.problems(), false);
    for (Phase p : kAllPhases)
        phases.get(std::string(toString(p)).c_str(), out[std::size_t(p)]);
}

Json statsToJson(const SampleStats& s) {
    return Json{{"count", s.count},       {"median", number(s.median)}, {"p10", number(s.p10)},
                {"p90", number(s.p90)},   {"min", number(s.min)},       {"max", number(s.max)},
                {"mean", number(s.mean)}, {"stddev", number(s.stddev)}, {"cv", number(s.cv)}};
}

void readStats(ObjectReader r, SampleStats& s) {
    r.get("count", s.count);
    r.get("median", s.median);
    r.get("p10", s.p10);
    r.get("p90", s.p90);
    r.get("min", s.min);
    r.get("max", s.max);
    r.get("mean", s.mean);
    r.get("stddev", s.stddev);
    r.get("cv", s.cv);
}

Json memoryToJson(const MemoryFootprint& m) {
    return Json{{"weights", m.weights},
                {"gradients", m.gradients},
                {"activations", m.activations},
                {"workspace", m.workspace},
                {"io", m.io},
                {"on_device", m.onDevice}};
}

void readMemory(ObjectReader r, MemoryFootprint& m) {
    r.get("weights", m.weights);
    r.get("gradients", m.gradients);
    r.get("activations", m.activations);
    r.get("workspace", m.workspace);
    r.get("io", m.io);
    r.get("on_device", m.onDevice);
}

Json numericsToJson(const Numerics& n) {
    return Json{{"checked", n.checked},
                {"max_abs_err", number(n.maxAbsErr)},
                {"max_rel_err", number(n.maxRelErr)},
                {"worst_tensor", n.worstTensor},
                {"note", n.note}};
}

void readNumerics(ObjectReader r, Numerics& n) {
    r.get("checked", n.checked);
    r.get("max_abs_err", n.maxAbsErr);
    r.get("max_rel_err", n.maxRelErr);
    r.get("worst_tensor", n.worstTensor);
    r.get("note", n.note);
}

Json stepsToJson(const std::vector<StepStat>& steps) {
    Json out = Json::array();
    for (const auto& s : steps)
        out.push_back({{"name", s.name},
                       {"phase", toString(s.phase)},
                       {"median_ms", number(s.medianMs)},
                       {"calls_per_iteration", s.callsPerIteration}});
    return out;
}

void readStep(ObjectReader& r, StepStat& s) {
    r.get("name", s.name, Need::Required);
    r.getEnum("phase", s.phase, parsePhase, spellingList(kPhaseSpellings));
    r.get("median_ms", s.medianMs);
    r.get("calls_per_iteration", s.callsPerIteration);
}

Json traceToJson(const std::vector<TraceSlice>& trace) {
    Json out = Json::array();
    for (const auto& t : trace)
        out.push_back({{"name", t.name},
                       {"category", t.category},
                       {"start_us", number(t.startUs)},
                       {"duration_us", number(t.durationUs)},
                       {"track", t.track}});
    return out;
}

void readSlice(ObjectReader& r, TraceSlice& t) {
    r.get("name", t.name, Need::Required);
    r.get("category", t.category);
    r.get("start_us", t.startUs, Need::Required);
    r.get("duration_us", t.durationUs, Need::Required);
    r.get("track", t.track);
}

Json kernelsToJson(const std::vector<KernelStat>& kernels) {
    Json out = Json::array();
    for (const auto& k : kernels)
        out.push_back({{"name", k.name},
                       {"phase", toString(k.phase)},
                       {"count", k.count},
                       {"total_us", number(k.totalUs)},
                       {"mean_us", number(k.meanUs)},
                       {"min_us", number(k.minUs)},
                       {"max_us", number(k.maxUs)},
                       {"share", number(k.share)}});
    return out;
}

void readKernel(ObjectReader& r, KernelStat& k) {
    r.get("name", k.name, Need::Required);
    r.getEnum("phase", k.phase, parsePhase, spellingList(kPhaseSpellings));
    r.get("count", k.count);
    r.get("total_us", k.totalUs);
    r.get("mean_us", k.meanUs);
    r.get("min_us", k.minUs);
    r.get("max_us", k.maxUs);
    r.get("share", k.share);
}

Json memcpysToJson(const std::vector<MemcpyStat>& memcpys) {
    Json out = Json::array();
    for (const auto& m : memcpys)
        out.push_back({{"direction", m.direction},
                       {"bytes", m.bytes},
                       {"total_us", number(m.totalUs)},
                       {"count", m.count}});
    return out;
}

void readMemcpy(ObjectReader& r, MemcpyStat& m) {
    r.get("direction", m.direction, Need::Required);
    r.get("bytes", m.bytes);
    r.get("total_us", m.totalUs);
    r.get("count", m.count);
}

Json gpuToJson(const GpuProfile& g) {
    return Json{{"traced", g.traced},
                {"unavailable_reason", g.unavailableReason},
                {"math_type", g.mathType},
                {"kernels", kernelsToJson(g.kernels)},
                {"memcpys", memcpysToJson(g.memcpys)},
                {"gpu_busy_us", number(g.gpuBusyUs)},
                {"wall_us", number(g.wallUs)},
                {"event_ms", perPhase(g.eventMs)},
                {"peak_device_bytes", perPhase(g.peakDeviceBytes)},
                {"workspace_bytes", g.workspaceBytes},
                {"reserve_bytes", g.reserveBytes},
                {"dropped_records", g.droppedRecords},
                {"unattributed_records", g.unattributedRecords},
                {"traced_median_ms", number(g.tracedMedianMs)},
                {"untraced_median_ms", number(g.untracedMedianMs)}};
}

void readGpu(ObjectReader r, GpuProfile& g) {
    r.get("traced", g.traced);
    r.get("unavailable_reason", g.unavailableReason);
    r.get("math_type", g.mathType);
    readObjects(r, "kernels", g.kernels, readKernel);
    readObjects(r, "memcpys", g.memcpys, readMemcpy);
    r.get("gpu_busy_us", g.gpuBusyUs);
    r.get("wall_us", g.wallUs);
    readPerPhase(r, "event_ms", g.eventMs);
    readPerPhase(r, "peak_device_bytes", g.peakDeviceBytes);
    r.get("workspace_bytes", g.workspaceBytes);
    r.get("reserve_bytes", g.reserveBytes);
    r.get("dropped_records", g.droppedRecords);
    r.get("unattributed_records", g.unattributedRecords);
    r.get("traced_median_ms", g.tracedMedianMs);
    r.get("untraced_median_ms", g.untracedMedianMs);
}

Json devicesToJson(const std::vector<GpuDevice>& devices) {
    Json out = Json::array();
    for (const auto& d : devices)
        out.push_back({{"index", d.index},
                       {"name", d.name},
                       {"compute_major", d.computeMajor},
                       {"compute_minor", d.computeMinor},
                       {"total_memory", d.totalMemory},
                       {"free_memory", d.freeMemory},
                       {"multiprocessors", d.multiprocessors}});
    return out;
}

void readDevice(ObjectReader& r, GpuDevice& d) {
    r.get("index", d.index);
    r.get("name", d.name);
    r.get("compute_major", d.computeMajor);
    r.get("compute_minor", d.computeMinor);
    r.get("total_memory", d.totalMemory);
    r.get("free_memory", d.freeMemory);
    r.get("multiprocessors", d.multiprocessors);
}

Json gpuInfoToJson(const GpuInfo& g) {
    return Json{{"built_with_cuda", g.builtWithCuda},
                {"built_with_cudnn", g.builtWithCudnn},
                {"built_with_cupti", g.builtWithCupti},
                {"available", g.available},
                {"reason", g.reason},
                {"runtime_version", g.runtimeVersion},
                {"driver_version", g.driverVersion},
                {"cudnn_version", g.cudnnVersion},
                {"cupti_version", g.cuptiVersion},
                {"devices", devicesToJson(g.devices)}};
}

void readGpuInfo(ObjectReader r, GpuInfo& g) {
    r.get("built_with_cuda", g.builtWithCuda);
    r.get("built_with_cudnn", g.builtWithCudnn);
    r.get("built_with_cupti", g.builtWithCupti);
    r.get("available", g.available);
    r.get("reason", g.reason);
    r.get("runtime_version", g.runtimeVersion);
    r.get("driver_version", g.driverVersion);
    r.get("cudnn_version", g.cudnnVersion);
    r.get("cupti_version", g.cuptiVersion);
    readObjects(r, "devices", g.devices, readDevice);
}

} // namespace

Json hostToJson(const HostInfo& h) {
    return Json{{"hostname", h.hostname},
                {"cpu_model", h.cpuModel},
                {"cpu_cores", h.cpuCores},
                {"memory_bytes", h.memoryBytes},
                {"os", h.os},
                {"cpu_libraries", h.cpuLibraries},
                {"gpu", gpuInfoToJson(h.gpu)},
                {"rnnprof_version", h.rnnprofVersion}};
}

void readHost(const Json& value, const std::string& path, Problems& problems, HostInfo& h) {
    ObjectReader r(value, path, problems, false);
    r.get("hostname", h.hostname);
    r.get("cpu_model", h.cpuModel);
    r.get("cpu_cores", h.cpuCores);
    r.get("memory_bytes", h.memoryBytes);
    r.get("os", h.os);
    r.get("cpu_libraries", h.cpuLibraries);
    if (const Json* g = r.object("gpu"))
        readGpuInfo(ObjectReader(*g, r.pathOf("gpu"), problems, false), h.gpu);
    r.get("rnnprof_version", h.rnnprofVersion);
}

Json pointToJson(const PointResult& p) {
    return Json{{"backend", p.backend},
                {"mode", toString(p.mode)},
                {"batch", p.shape.batch},
                {"seq_len", p.shape.seqLen},
                {"status", toString(p.status)},
                {"reason", p.reason},
                {"warmup_runs", p.warmupRuns},
                {"measured_runs", p.measuredRuns},
                {"iteration_ms", statsToJson(p.iteration)},
                {"phase_median_ms", perPhase(p.phaseMedianMs)},
                {"steps", stepsToJson(p.steps)},
                {"noisy", p.noisy},
                {"noise_threshold", number(p.noiseThreshold)},
                {"flops_per_iteration", p.flopsPerIteration},
                {"sequences_per_s", number(p.sequencesPerSecond)},
                {"tokens_per_s", number(p.tokensPerSecond)},
                {"gflops_per_s", number(p.gflopsPerSecond)},
                {"memory_bytes", memoryToJson(p.memory)},
                {"peak_rss_growth_bytes", p.peakRssGrowthBytes},
                {"numerics", numericsToJson(p.numerics)},
                {"notes", p.notes},
                {"trace", traceToJson(p.trace)},
                {"gpu", p.gpu ? gpuToJson(*p.gpu) : Json(nullptr)},
                {"measure_seconds", number(p.measureSeconds)}};
}

void readPoint(const Json& value, const std::string& path, Problems& problems, PointResult& p) {
    ObjectReader r(value, path, problems, false);
    r.get("backend", p.backend, Need::Required);
    r.getEnum("mode", p.mode, parseMode, spellingList(kModeSpellings), Need::Required);
    r.get("batch", p.shape.batch, Need::Required);
    r.get("seq_len", p.shape.seqLen, Need::Required);
    r.getEnum("status", p.status, parsePointStatus, spellingList(kPointStatusSpellings), Need::Required);
    r.get("reason", p.reason);
    r.get("warmup_runs", p.warmupRuns);
    r.get("measured_runs", p.measuredRuns);
    if (const Json* v = r.object("iteration_ms"))
        readStats(ObjectReader(*v, r.pathOf("iteration_ms"), problems, false), p.iteration);
    readPerPhase(r, "phase_median_ms", p.phaseMedianMs);
    readObjects(r, "steps", p.steps, readStep);
    r.get("noisy", p.noisy);
    r.get("noise_threshold", p.noiseThreshold);
    r.get("flops_per_iteration", p.flopsPerIteration);
    r.get("sequences_per_s", p.sequencesPerSecond);
    r.get("tokens_per_s", p.tokensPerSecond);
    r.get("gflops_per_s", p.gflopsPerSecond);
    if (const Json* v = r.object("memory_bytes"))
        readMemory(ObjectReader(*v, r.pathOf("memory_bytes"), problems, false), p.memory);
    r.get("peak_rss_growth_bytes", p.peakRssGrowthBytes);
    if (const Json* v = r.object("numerics"))
        readNumerics(ObjectReader(*v, r.pathOf("numerics"), problems, false), p.numerics);
    r.get("notes", p.notes);
    readObjects(r, "trace", p.trace, readSlice);
    if (const Json* v = r.find("gpu"); v && !v->is_null()) {
        p.gpu.emplace();
        readGpu(ObjectReader(*v, r.pathOf("gpu"), problems, false), *p.gpu);
    }
    r.get("measure_seconds", p.measureSeconds);
}

Json headerToJson(const SweepResult& result, std::string_view format) {
    return Json{{"format", format},
                {"schema_version", result.schemaVersion},
                {"created_at", result.createdAt},
                {"complete", result.complete},
                {"host", hostToJson(result.host)},
                {"plan", planToJsonValue(result.plan)}};
}

void readHeader(const Json& value, const std::string& source, Problems& problems, SweepResult& result) {
    ObjectReader r(value, "", problems, false);
    if (!r.isObject()) return;
    if (r.get("schema_version", result.schemaVersion, Need::Required)) {
        if (result.schemaVersion > SweepResult::kSchemaVersion)
            throw Error(ErrorKind::InvalidInput, source + " was written by a newer rnnprof (schema " +
                                                     std::to_string(result.schemaVersion) +
                                                     ", this build reads up to " +
                                                     std::to_string(SweepResult::kSchemaVersion) + ")");
        if (result.schemaVersion < 1)
            problems.add("schema_version", "must be between 1 and " +
                                               std::to_string(SweepResult::kSchemaVersion) + " (got " +
                                               std::to_string(result.schemaVersion) + ")");
    }
    r.get("created_at", result.createdAt);
    r.get("complete", result.complete);
    if (const Json* v = r.object("host", Need::Required)) readHost(*v, "host", problems, result.host);
    if (const Json* v = r.object("plan", Need::Required)) readPlan(*v, "plan", problems, result.plan);
}

} // namespace rnnprof::jsonio

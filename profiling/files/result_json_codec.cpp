#include "profiling/files/result_json_codec.h"

#include "engine/error.h"
#include "profiling/files/json_fields.h"
#include "profiling/files/plan_json.h"
#include "profiling/files/recorded_limits.h"

namespace rnnprof::jsonio {

// toString(Phase) is the spelling (engine/phase_hook.h); the table only collects it.
constexpr Spellings<Phase, kPhaseCount> kPhaseSpellings{{{Phase::Forward, toString(Phase::Forward)},
                                                         {Phase::Backward, toString(Phase::Backward)},
                                                         {Phase::Update, toString(Phase::Update)}}};

// The records of result files, in file order (json_fields.h). Named, not in an anonymous
// namespace: FieldWriter and FieldReader find them by argument-dependent lookup.

template <class Io>
void fields(Io& io, Ref<Io, SampleStats> s) {
    io("count", s.count);
    io("median", s.median);
    io("p10", s.p10);
    io("p90", s.p90);
    io("min", s.min);
    io("max", s.max);
    io("mean", s.mean);
    io("stddev", s.stddev);
    io("cv", s.cv);
}

template <class Io>
void fields(Io& io, Ref<Io, NamedBytes> n) {
    io("name", n.name, Need::Required);
    io("category", n.category, kBufferCategorySpellings);
    io("bytes", n.bytes);
}

template <class Io>
void fields(Io& io, Ref<Io, MemoryFootprint> m) {
    io("weights", m.weights);
    io("gradients", m.gradients);
    io("activations", m.activations);
    io("workspace", m.workspace);
    io("io", m.io);
    io("on_device", m.onDevice);
    io("detail", m.detail);
}

template <class Io>
void fields(Io& io, Ref<Io, Numerics> n) {
    io("checked", n.checked);
    io("max_abs_err", n.maxAbsErr);
    io("max_rel_err", n.maxRelErr);
    io("worst_tensor", n.worstTensor);
    io("note", n.note);
}

// A crossover record (rnnprof crossover); NaN numbers are written as null.
template <class Io>
void fields(Io& io, Ref<Io, CrossoverRecord> c) {
    io("baseline", c.baseline);
    io("challenger", c.challenger);
    io("mode", c.mode, kModeSpellings);
    io("seq_len", c.seqLen);
    io("batch", c.batch);
    io("low", c.low);
    io("high", c.high);
    io("verdict", c.verdict);
    io("flags", c.flags);
    io("measured_batches", c.measuredBatches);
    io("grid_batches", c.gridBatches);
}

// How starved of CPU the measured runs were (starvation.h); absent from older files.
template <class Io>
void fields(Io& io, Ref<Io, Disturbance> d) {
    io("runs", d.runs);
    io("starved_runs", d.starvedRuns);
    io("median_wait_share", d.medianWaitShare);
    io("median_cpu_share", d.medianCpuShare);
    io("involuntary_switches", d.involuntarySwitches);
    io("other_busy_cores", d.otherBusyCores);
    io("host_busy", d.hostBusy);
    io("remeasured", d.remeasured);
}

template <class Io>
void fields(Io& io, Ref<Io, StepStat> s) {
    io("name", s.name, Need::Required);
    io("phase", s.phase, kPhaseSpellings);
    io("median_ms", s.medianMs);
    io("calls_per_iteration", s.callsPerIteration);
}

template <class Io>
void fields(Io& io, Ref<Io, TraceSlice> t) {
    io("name", t.name, Need::Required);
    io("category", t.category);
    io.mayBeNegative(); // relative to the traced iteration's start, which a GPU record may precede
    io("start_us", t.startUs, Need::Required);
    io("duration_us", t.durationUs, Need::Required);
    io("track", t.track);
}

template <class Io>
void fields(Io& io, Ref<Io, KernelStat> k) {
    io("name", k.name, Need::Required);
    io("phase", k.phase, kPhaseSpellings);
    io("count", k.count);
    io("total_us", k.totalUs);
    io("mean_us", k.meanUs);
    io("min_us", k.minUs);
    io("max_us", k.maxUs);
    io("share", k.share);
}

template <class Io>
void fields(Io& io, Ref<Io, MemcpyStat> m) {
    io("direction", m.direction, Need::Required);
    io("bytes", m.bytes);
    io("total_us", m.totalUs);
    io("count", m.count);
}

template <class Io>
void fields(Io& io, Ref<Io, GpuProfile> g) {
    io("traced", g.traced);
    io("unavailable_reason", g.unavailableReason);
    io("warnings", g.warnings);
    io("math_type", g.mathType);
    io("kernels", g.kernels);
    io("memcpys", g.memcpys);
    io("gpu_busy_us", g.gpuBusyUs);
    io("wall_us", g.wallUs);
    perPhase(io, "event_ms", g.eventMs);
    perPhase(io, "peak_device_bytes", g.peakDeviceBytes);
    io("cudnn_workspace_bytes", g.cudnnWorkspaceBytes);
    io("cudnn_reserve_bytes", g.cudnnReserveBytes);
    io("dropout_state_bytes", g.dropoutStateBytes);
    io("cublas_workspace_bytes", g.cublasWorkspaceBytes);
    // Older files: the whole workspace and activations categories, which memory_bytes holds too.
    io.retired("workspace_bytes");
    io.retired("reserve_bytes");
    io("dropped_records", g.droppedRecords);
    io("unattributed_records", g.unattributedRecords);
    io("traced_median_ms", g.tracedMedianMs);
    io("untraced_median_ms", g.untracedMedianMs);
}

// A predicted point's band and fit (status "predicted"); absent from measured points.
template <class Io>
void fields(Io& io, Ref<Io, Prediction> p) {
    io("low_ms", p.lowMs);
    io("high_ms", p.highMs);
    io("from", p.from);
    io("gpu", p.gpu);
    io("fitted_points", p.fittedPoints);
    io("fixed_ms", p.fixedMs);
    io("step_ms", p.stepMs);
    io("gflops", p.gflops);
    io("bandwidth_gb_s", p.bandwidthGBs);
    io("loo_median_error", p.looMedianError);
    io("loo_within_30", p.looWithin30);
    io("unreliable", p.unreliable);
    io("unreliable_reason", p.unreliableReason);
    io("check", p.check);
    io("band", p.band);
}

template <class Io>
void fields(Io& io, Ref<Io, GpuDevice> d) {
    io("index", d.index);
    io("name", d.name);
    io("compute_major", d.computeMajor);
    io("compute_minor", d.computeMinor);
    io("total_memory", d.totalMemory);
    io("free_memory", d.freeMemory);
    io("multiprocessors", d.multiprocessors);
}

template <class Io>
void fields(Io& io, Ref<Io, GpuInfo> g) {
    io("built_with_cuda", g.builtWithCuda);
    io("built_with_cudnn", g.builtWithCudnn);
    io("built_with_cupti", g.builtWithCupti);
    io("available", g.available);
    io("reason", g.reason);
    io("runtime_version", g.runtimeVersion);
    io("driver_version", g.driverVersion);
    io("cudnn_version", g.cudnnVersion);
    io("cupti_version", g.cuptiVersion);
    io("devices", g.devices);
}

template <class Io>
void fields(Io& io, Ref<Io, BusyProcess> b) {
    io("name", b.name);
    io("pid", b.pid);
    io("cores", b.cores);
}

template <class Io>
void fields(Io& io, Ref<Io, HostLoad> l) {
    io("load_average_1min", l.loadAverage1);
    io("other_busy_cores", l.otherBusyCores);
    io("window_s", l.windowSeconds);
    io("busiest", l.busiest);
}

template <class Io>
void fields(Io& io, Ref<Io, HostInfo> h) {
    io("hostname", h.hostname);
    io("cpu_model", h.cpuModel);
    io("cpu_cores", h.cpuCores);
    io("memory_bytes", h.memoryBytes);
    io("os", h.os);
    io("cpu_libraries", h.cpuLibraries);
    io("gpu", h.gpu);
    io("rnnprof_version", h.rnnprofVersion);
    io("load_before", h.loadBefore);
    io("load_during", h.loadDuring);
}

template <class Io>
void fields(Io& io, Ref<Io, Shard> s) {
    io("index", s.index, Need::Required);
    io("count", s.count, Need::Required);
}

template <class Io>
void fields(Io& io, Ref<Io, PointResult> p) {
    io("backend", p.backend, Need::Required);
    io("mode", p.mode, kModeSpellings, Need::Required);
    io("batch", p.shape.batch, Need::Required);
    io("seq_len", p.shape.seqLen, Need::Required);
    io("status", p.status, kPointStatusSpellings, Need::Required);
    io("reason", p.reason);
    io("warmup_runs", p.warmupRuns);
    io("measured_runs", p.measuredRuns);
    io("iteration_ms", p.iteration);
    perPhase(io, "phase_median_ms", p.phaseMedianMs);
    io("steps", p.steps);
    io("noisy", p.noisy);
    io("noise_threshold", p.noiseThreshold);
    io("disturbed", p.disturbed);
    io("disturbance", p.disturbance);
    io("flops_per_iteration", p.flopsPerIteration);
    io("sequences_per_s", p.sequencesPerSecond);
    io("tokens_per_s", p.tokensPerSecond);
    io("gflops_per_s", p.gflopsPerSecond);
    io("memory_bytes", p.memory);
    io("peak_rss_growth_bytes", p.peakRssGrowthBytes);
    io("numerics", p.numerics);
    io("notes", p.notes);
    io("trace", p.trace);
    io("gpu", p.gpu);
    io("measure_seconds", p.measureSeconds);
    io("prediction", p.prediction);
    // Merged results only: the point's host when it is not the file's (SweepResult::otherHosts).
    if constexpr (Io::kReading)
        io("host_index", p.hostIndex);
    else if (p.hostIndex != 0)
        io("host_index", p.hostIndex);
}

namespace {

// A hostile value may be megabytes long; a message quotes its start.
std::string elideForMessage(const std::string& text) {
    constexpr std::size_t kQuoted = 64;
    return text.size() <= kQuoted
               ? text
               : text.substr(0, kQuoted) + "... (" + std::to_string(text.size()) + " bytes)";
}

// Charts name files and series after the backend: only ids a sweep writes may come in.
void checkBackendId(const std::string& path, Problems& problems, const std::string& id) {
    if (!isKnownSeriesId(id))
        problems.add(path,
                     "unknown backend '" + elideForMessage(id) + "': known are " + knownSeriesIdsText());
}

// Batch sizes and sequence lengths of points: what a plan may hold. Below 0 checkRecorded() reported.
void checkShapeValue(const std::string& path, Problems& problems, int value, int max) {
    if (value == 0 || value > max)
        problems.add(path,
                     "must be between 1 and " + std::to_string(max) + " (got " + std::to_string(value) + ")");
}

// A newer schema has an unknown layout: stop at once. An impossible one is one more problem.
void checkSchema(int version, const std::string& source, const std::string& path, Problems& problems) {
    if (version > SweepResult::kSchemaVersion)
        throw Error(ErrorKind::InvalidInput, source + " was written by a newer rnnprof (schema " +
                                                 std::to_string(version) + ", this build reads up to " +
                                                 std::to_string(SweepResult::kSchemaVersion) + ")");
    if (version < 1)
        problems.add(path, "must be between 1 and " + std::to_string(SweepResult::kSchemaVersion) + " (got " +
                               std::to_string(version) + ")");
}

// The framework verdicts of the plan's model (SweepResult::fastPath()), after the plan. Written
// for every result; read back as recorded. A file written before they existed has neither key and
// loads without them (fastPath() derives them from the plan); a file with one key gets the other
// derived. Schema 1 either way: readers ignore keys they do not know.
template <class Io>
void fastPathFields(Io& io, Ref<Io, SweepResult> r) {
    constexpr const char* kKerasKey = "keras_cudnn";
    constexpr const char* kPytorchKey = "pytorch_cudnn";
    FastPathTexts texts = r.fastPath(); // the plan is read by now
    if constexpr (Io::kReading) {
        const bool keras = io(kKerasKey, texts.keras);
        const bool pytorch = io(kPytorchKey, texts.pytorch);
        if (keras || pytorch) r.recordedFastPath = std::move(texts);
    } else {
        io(kKerasKey, texts.keras);
        io(kPytorchKey, texts.pytorch);
    }
}

// The header after "format" (which headerToJson() writes first and readFormat() checks).
template <class Io>
void headerFields(Io& io, Ref<Io, SweepResult> r, const std::string& source) {
    constexpr const char* kSchemaKey = "schema_version";
    const bool haveSchema = io(kSchemaKey, r.schemaVersion, Need::Required);
    if constexpr (Io::kReading)
        if (haveSchema) checkSchema(r.schemaVersion, source, io.pathOf(kSchemaKey), io.problems());
    io("created_at", r.createdAt);
    io("complete", r.complete);
    io("host", r.host, Need::Required);
    io.via("plan", r.plan, planToJsonValue, readPlan, Need::Required);
    fastPathFields(io, r);
    // Written only when there is one, so that a whole sweep on one host is spelled as before; older
    // files have none and load as such.
    if constexpr (Io::kReading) {
        io("stopped_by", r.stoppedBy);
        io("shard", r.shard);
        io("other_hosts", r.otherHosts);
        io("crossovers", r.crossovers);
    } else {
        if (!r.stoppedBy.empty()) io("stopped_by", r.stoppedBy);
        if (r.shard) io("shard", *r.shard);
        if (!r.otherHosts.empty()) io("other_hosts", r.otherHosts);
        if (!r.crossovers.empty()) io("crossovers", r.crossovers);
    }
}

void checkHostName(const std::string& path, Problems& problems, const HostInfo& host) {
    if (host.hostname.size() > kMaxHostNameLength)
        problems.add(path, "a host name of " + std::to_string(host.hostname.size()) + " bytes, at most " +
                               std::to_string(kMaxHostNameLength) + " are allowed");
}

} // namespace

Json pointToJson(const PointResult& p) {
    return FieldWriter::toJson(p);
}

void readPoint(const Json& value, const std::string& path, Problems& problems, PointResult& p) {
    FieldReader r(value, path, problems, false, Bounds::Recorded);
    fields(r, p);
    if (!r.isObject()) return;
    if (const auto it = value.find("backend"); it != value.end() && it->is_string())
        checkBackendId(r.pathOf("backend"), problems, p.backend);
    checkShapeValue(r.pathOf("batch"), problems, p.shape.batch, Limits::maxBatch);
    checkShapeValue(r.pathOf("seq_len"), problems, p.shape.seqLen, Limits::maxSeqLen);
}

Json headerToJson(const SweepResult& result, std::string_view format) {
    FieldWriter header(Json{{kFormatKey, format}});
    headerFields(header, result, {});
    return header.take();
}

void readFormat(ObjectReader& r, std::string_view expected, Need need) {
    std::string format;
    if (r.get(kFormatKey, format, need) && format != expected)
        r.problems().add(r.pathOf(kFormatKey),
                         "expected \"" + std::string(expected) + "\", got \"" + format + "\"");
}

void readHeader(const Json& value, const std::string& source, Problems& problems, SweepResult& result) {
    FieldReader r(value, "", problems, false, Bounds::Recorded);
    if (!r.isObject()) return;
    headerFields(r, result, source);
    checkHostName("host.hostname", problems, result.host);
    for (std::size_t i = 0; i < result.otherHosts.size(); ++i)
        checkHostName(indexPath("other_hosts", i) + ".hostname", problems, result.otherHosts[i]);
    if (const auto& s = result.shard; s && (s->count < 1 || s->index < 1 || s->index > s->count))
        problems.add("shard", "shard " + shardText(*s) +
                                  " names no shard: the index must be between 1 and "
                                  "the count");
    checkRecorded(std::string("plan.preset"), problems, result.plan.preset);
    for (std::size_t i = 0; i < result.plan.backends.size(); ++i)
        checkBackendId(indexPath("plan.sweep.backends", i), problems, result.plan.backends[i]);
}

void checkHostIndex(const SweepResult& result, const PointResult& point, const std::string& path,
                    Problems& problems) {
    if (point.hostIndex < 0 || std::size_t(point.hostIndex) > result.otherHosts.size())
        problems.add(childPath(path, "host_index"),
                     "names host " + std::to_string(point.hostIndex) + ", the file lists " +
                         std::to_string(result.otherHosts.size()) +
                         " other hosts (0 is the file's host, 1.. those of other_hosts)");
}

} // namespace rnnprof::jsonio

#pragma once
// The backend interface. A Backend is stateless and describes one implementation (cpu-reference,
// cpu-blas, cpu-onednn, gpu-generic, gpu-cudnn): whether it can run here, which configurations it
// supports (with every reason why not), how much memory a problem needs, and prepare(), which
// returns a Session owning all buffers for one (config, shape, mode). Sessions are reused across
// repeated run() calls and must be created, used and destroyed on one thread (GPU contexts are
// per thread).
#include "engine/device_queue.h"
#include "engine/enum_names.h"
#include "engine/error.h"
#include "engine/phase_hook.h"
#include "engine/problem.h"
#include "engine/stop_token.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rnnprof {

struct Verdict;

// What a buffer is for; a backend's list of its buffers tags each one (see MemoryFootprint).
enum class BufferCategory { Weights, Gradients, Activations, Workspace, Io };
// Its spellings in result files (see engine/enum_names.h).
inline constexpr Spellings<BufferCategory, 5> kBufferCategorySpellings{
    {{BufferCategory::Weights, "weights"},
     {BufferCategory::Gradients, "gradients"},
     {BufferCategory::Activations, "activations"},
     {BufferCategory::Workspace, "workspace"},
     {BufferCategory::Io, "io"}}};

// One named part of a footprint category: a buffer whose size a library decides (cuDNN's
// workspace, reserve space and dropout states, cuBLAS's workspace) or a group of a backend's own
// buffers. Sessions list them so that results can say what a category holds without guessing.
struct NamedBytes {
    std::string name; // one of the kBuffer* names below for the library buffers
    BufferCategory category = BufferCategory::Workspace;
    std::uint64_t bytes = 0;
    bool operator==(const NamedBytes&) const = default;
};

// The names of the buffers libraries size, as sessions list them (profiling reads them by name).
inline constexpr std::string_view kBufferCudnnWorkspace = "cuDNN workspace";
inline constexpr std::string_view kBufferCudnnReserve = "cuDNN reserve space";
inline constexpr std::string_view kBufferCudnnDropoutStates = "cuDNN dropout states";
inline constexpr std::string_view kBufferCublasWorkspace = "cuBLAS workspace";

// Bytes by category. For GPU backends the numbers are device memory (onDevice = true).
struct MemoryFootprint {
    std::uint64_t weights = 0;     // parameters in the backend's layout
    std::uint64_t gradients = 0;   // parameter gradients (training)
    std::uint64_t activations = 0; // kept for backward (training) or cuDNN reserve space
    std::uint64_t workspace = 0;   // scratch: gate buffers, projections, library workspaces
    std::uint64_t io = 0;          // inputs, outputs, states, targets
    bool onDevice = false;
    // Named parts of the categories above (each part's bytes are also in its category; the parts
    // need not cover a category). Empty for backends that have nothing to name.
    std::vector<NamedBytes> detail;
    [[nodiscard]] std::uint64_t total() const { return weights + gradients + activations + workspace + io; }
    // The bytes of the part named `name`, 0 when there is none.
    [[nodiscard]] std::uint64_t part(std::string_view name) const {
        std::uint64_t bytes = 0;
        for (const NamedBytes& d : detail)
            if (d.name == name) bytes += d.bytes;
        return bytes;
    }
    // Adds `bytes` to `category` and lists them as the part `name`.
    void addNamed(std::string name, BufferCategory category, std::uint64_t bytes) {
        add(category, bytes);
        detail.push_back({std::move(name), category, bytes});
    }
    void add(BufferCategory category, std::uint64_t bytes) {
        switch (category) {
        case BufferCategory::Weights:
            weights += bytes;
            break;
        case BufferCategory::Gradients:
            gradients += bytes;
            break;
        case BufferCategory::Activations:
            activations += bytes;
            break;
        case BufferCategory::Workspace:
            workspace += bytes;
            break;
        case BufferCategory::Io:
            io += bytes;
            break;
        }
    }
    bool operator==(const MemoryFootprint&) const = default;
};

struct Availability {
    bool available = true;
    std::string reason; // why not, in words a user can act on
};

class Session {
public:
    virtual ~Session() = default;
    // One iteration. Inference: forward. Training: forward keeping what backward needs, MSE loss,
    // backward through time, SGD update. Marks its phases and sub-steps on `hook`. Returns when the
    // work is complete: GPU sessions enqueue everything and wait once, at the end; waiting at phase
    // or step ends is the hook's choice (deviceQueue()).
    virtual void run(PhaseHook& hook) = 0;
    // The results of the last run(), copied to host memory in the canonical layouts.
    [[nodiscard]] virtual RunOutputs outputs() const = 0;
    [[nodiscard]] virtual MemoryFootprint memory() const = 0;
    // Facts worth recording with the measurement, e.g. "GEMM: oneDNN sgemm, 2 threads".
    [[nodiscard]] virtual std::vector<std::string> notes() const { return {}; }
    // GPU sessions: the floating-point math their libraries were told to use, e.g. "strict FP32
    // (CUDNN_FMA_MATH)" or "TF32 allowed (CUDNN_DEFAULT_MATH)". Empty for CPU sessions.
    [[nodiscard]] virtual std::string mathType() const { return {}; }
    // Whether outputs() can be compared with cpu-reference's run of the same problem: not when
    // the session draws randomness of its own (cuDNN's dropout between layers); `why` says so.
    struct Comparability {
        bool comparable = true;
        std::string why;
    };
    [[nodiscard]] virtual Comparability numericsComparable() const { return {}; }
    // GPU sessions: the queue their work runs on, through which the profiling layer times phases
    // on the device and decides where to wait for it. CPU sessions: nullptr.
    [[nodiscard]] virtual DeviceQueue* deviceQueue() { return nullptr; }

    // The token run() polls inside an iteration (nullptr, the default: never). When it is set,
    // run() abandons the iteration at its next check and throws StopRequested: cpu-reference and
    // cpu-blas check before every time step of every layer, cpu-onednn before every layer
    // primitive (one primitive runs both directions of a layer), each of them before the update.
    // GPU sessions do not check: their iteration is enqueued at once, and stops come between runs.
    // After StopRequested the session's buffers hold a partial iteration; run() may be called again.
    void setStopToken(const StopToken* stop) { m_stop = stop; }

protected:
    [[nodiscard]] bool stopRequested() const { return m_stop && m_stop->stopRequested(); }
    [[nodiscard]] const StopToken* stopToken() const { return m_stop; }

private:
    const StopToken* m_stop = nullptr;
};

class Backend {
public:
    virtual ~Backend() = default;
    [[nodiscard]] virtual std::string_view id() const = 0;
    [[nodiscard]] virtual std::string_view description() const = 0;
    [[nodiscard]] virtual bool isGpu() const { return false; }
    [[nodiscard]] virtual Availability availability() const = 0;
    // Every reason this backend cannot run (config, mode); empty when it can.
    [[nodiscard]] virtual std::vector<std::string> unsupportedReasons(const RnnConfig& config,
                                                                      Mode mode) const = 0;
    // Bytes prepare() will allocate, by category, without allocating anything.
    [[nodiscard]] virtual MemoryFootprint estimateMemory(const Problem& problem) const = 0;
    // A session for `problem`: assess() first, then makeSession(). Throws Error: InvalidConfig,
    // Unsupported, OutOfMemory ("needs X, Y available"), DeviceUnavailable or BackendFailure.
    [[nodiscard]] std::unique_ptr<Session> prepare(const Problem& problem) const;
    // The same with the verdict assess() already gave for this very problem (the sweep runner
    // records it as the point's status), so that the checks and the estimate are not made twice.
    [[nodiscard]] std::unique_ptr<Session> prepare(const Problem& problem, const Verdict& verdict) const;

protected:
    // Makes the session of a problem whose verdict is ready; `estimate` is the verdict's footprint.
    [[nodiscard]] virtual std::unique_ptr<Session> makeSession(const Problem& problem,
                                                               const MemoryFootprint& estimate) const = 0;
};

// Whether a backend can prepare a problem here, and if not why: the one check that prepare()
// enforces and the sweep runner records. Refusals, in the order they are checked: InvalidConfig
// (the configuration or shape), DeviceUnavailable, Unsupported (every reason), OutOfMemory (the
// estimate does not fit the available host memory; device memory is checked by GPU sessions).
struct Verdict {
    std::optional<ErrorKind> refusal; // empty: ready
    std::string reason;
    MemoryFootprint footprint; // the estimate, once the checks before it passed
    [[nodiscard]] bool ready() const { return !refusal; }
};
// Throws only when the estimate itself fails (Error of the backend).
[[nodiscard]] Verdict assess(const Backend& backend, const Problem& problem);

// Backends by id, in display order.
class BackendRegistry {
public:
    void add(std::unique_ptr<Backend> backend);
    [[nodiscard]] const Backend* find(std::string_view id) const;
    [[nodiscard]] std::vector<const Backend*> all() const;
    [[nodiscard]] std::vector<std::string> ids() const;

private:
    std::vector<std::unique_ptr<Backend>> m_backends;
};

// All built-in backends: cpu-reference, cpu-blas, cpu-onednn, gpu-generic, gpu-cudnn.
[[nodiscard]] const BackendRegistry& builtinBackends();

// Checks validity, availability and support, and that `memory` fits in what is available now;
// throws the corresponding Error otherwise. Backends call it at the start of prepare().
// "cpu-blas at batch 64, seq_len 100": how refusals name a point.
[[nodiscard]] std::string describePoint(std::string_view backendId, const Problem& problem);

} // namespace rnnprof

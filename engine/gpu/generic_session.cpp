// The gpu-generic session: GenericRnn (engine/gpu/generic_rnn.h) on the device, over one arena of
// device memory laid out by bindGenericBuffers().
#include "engine/error.h"
#include "engine/gpu/cublas_library.h"
#include "engine/gpu/cuda_check.h"
#include "engine/gpu/cuda_resources.h"
#include "engine/gpu/device_exec.h"
#include "engine/gpu/generic_buffers.h"
#include "engine/gpu/generic_rnn.h"
#include "engine/gpu/generic_transfer.h"
#include "engine/gpu/gpu_info.h"
#include "engine/gpu/gpu_session_factory.h"
#include "engine/gpu/phase_graphs.h"
#include "engine/gpu/stream_queue.h"
#include "engine/host_memory.h"
#include "engine/problem.h"

#include <thread>

namespace rnnprof::gpu {
namespace {

class GenericSession final : public Session {
public:
    GenericSession(const Problem& problem, const ResolvedProblem<float>& host, const MemoryFootprint& memory)
        : m_problem(problem), m_dims(GenericDims::of(problem)), m_memory(memory),
          m_cublas(m_stream.get(), problem.options.allowTf32),
          m_arena(std::size_t(genericArenaElements(m_dims)) * sizeof(float), "the gpu-generic buffers"),
          m_buffers(bindGenericBuffers(m_dims, m_arena.as<float>())), m_exec(m_stream.get(), m_cublas.get()),
          m_rnn(m_dims, m_buffers, m_exec) {
        // Zero everything once: biases of a bias-free model, and no buffer is ever read uninitialised.
        checkCuda(cudaMemsetAsync(m_arena.get(), 0, m_arena.bytes(), m_stream.get()), "cudaMemsetAsync");
        const cudaStream_t s = m_stream.get();
        uploadGenericProblem(m_dims, m_buffers, host, problem.overrides,
                             [s](float* dst, const float* src, std::size_t n) {
                                 copyToDevice(dst, src, n * sizeof(float), s);
                             });
    }

    void run(PhaseHook& hook) override {
        requireOwnerThread();
        m_ran = false;
        const cudaStream_t s = m_stream.get();
        {
            PhaseScope phase(hook, Phase::Forward);
            m_graphs.run(Phase::Forward, s, hook, [&](PhaseHook& h) { m_rnn.forward(h); });
        }
        if (m_dims.training) {
            {
                PhaseScope phase(hook, Phase::Backward);
                m_graphs.run(Phase::Backward, s, hook, [&](PhaseHook& h) { m_rnn.backward(h); });
            }
            {
                PhaseScope phase(hook, Phase::Update);
                m_graphs.run(Phase::Update, s, hook,
                             [&](PhaseHook& h) { m_rnn.update(h, float(m_problem.options.learningRate)); });
            }
        }
        m_stream.synchronize();
        m_ran = true;
    }

    [[nodiscard]] RunOutputs outputs() const override {
        if (!m_ran) {
            RunOutputs out;
            out.training = m_dims.training;
            return out;
        }
        const cudaStream_t s = m_stream.get();
        return downloadGenericOutputs(m_dims, m_buffers, [s](float* dst, const float* src, std::size_t n) {
            copyToHost(dst, src, n * sizeof(float), s);
        });
    }

    [[nodiscard]] MemoryFootprint memory() const override { return m_memory; }

    [[nodiscard]] std::vector<std::string> notes() const override {
        std::vector<std::string> notes;
        const GpuInfo& info = gpuInfo();
        if (!info.devices.empty()) notes.push_back("device: " + info.summary());
        notes.push_back("math type: " + mathType());
        if (m_graphs.enabled()) notes.push_back(std::string(kCudaGraphNote));
        notes.push_back("GEMM: cuBLAS SGEMM (input projection of every step per layer, one per step for the "
                        "recurrence, weight gradients over all steps)");
        notes.push_back("element-wise kernels: rnnprof step kernels, " +
                        std::to_string(kElementwiseBlockSize) + " threads per block");
        notes.push_back("device memory: " + formatBytes(m_memory.total()) + " (cuBLAS workspace " +
                        formatBytes(kCublasWorkspaceBytes) + ")");
        return notes;
    }

    [[nodiscard]] DeviceQueue* deviceQueue() override { return &m_queue; }

    // What CublasHandle was told (engine/gpu/cuda_resources.h); the step kernels are plain FP32.
    [[nodiscard]] std::string mathType() const override {
        return m_problem.options.allowTf32 ? "TF32 allowed (CUBLAS_TF32_TENSOR_OP_MATH)"
                                           : "strict FP32 (CUBLAS_DEFAULT_MATH, no tensor cores)";
    }

private:
    void requireOwnerThread() const {
        if (std::this_thread::get_id() != m_owner)
            throw Error(ErrorKind::BackendFailure,
                        "gpu-generic session run on another thread than the one that "
                        "prepared it: GPU state belongs to the engine thread");
    }

    Problem m_problem;
    GenericDims m_dims;
    MemoryFootprint m_memory;
    std::thread::id m_owner = std::this_thread::get_id();
    CudaStream m_stream;
    StreamQueue m_queue{m_stream};
    CublasHandle m_cublas;
    DeviceBuffer m_arena;
    GenericBuffers m_buffers;
    DeviceExec m_exec;
    GenericRnn<DeviceExec> m_rnn;
    PhaseGraphs m_graphs{m_problem.options.cudaGraph};
    bool m_ran = false;
};

} // namespace

std::string genericLibraryProblem() {
    return cublasUnavailableReason();
}

std::unique_ptr<Session> makeGenericSession(const Problem& problem) {
    requireValidOverrides(problem); // bad overrides fail before any device work
    selectDevice();
    const MemoryFootprint memory = genericFootprint(GenericDims::of(problem));
    requireDeviceFits(memory.total(), freeDeviceMemory(), describePoint("gpu-generic", problem));
    // Only now build the host data: a refused point must not allocate its (possibly huge) weights.
    return std::make_unique<GenericSession>(problem, resolve(problem), memory);
}

} // namespace rnnprof::gpu

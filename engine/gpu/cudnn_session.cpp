// The gpu-cudnn session: cudnnRNNForward (training or inference mode), then in training the MSE
// loss gradient, cudnnRNNBackwardData_v8, cudnnRNNBackwardWeights_v8 into a zeroed dweight space,
// and SGD on the weight space, all on one stream. The loss is summed by rnnprof's own reduction
// kernel (engine/gpu/reduce_launch.h): the session creates no cuBLAS handle and no cuBLAS workspace.
#include "engine/error.h"
#include "engine/gpu/cuda_check.h"
#include "engine/gpu/cuda_resources.h"
#include "engine/gpu/cudnn_rnn_setup.h"
#include "engine/gpu/elementwise_launch.h"
#include "engine/gpu/gpu_info.h"
#include "engine/gpu/gpu_session_factory.h"
#include "engine/gpu/phase_graphs.h"
#include "engine/gpu/reduce_launch.h"
#include "engine/gpu/stream_queue.h"
#include "engine/host_memory.h"
#include "engine/problem.h"

#include <optional>
#include <sstream>
#include <thread>

namespace rnnprof::gpu {
namespace {

template <class T>
std::size_t bytesOf(const std::vector<T>& v) {
    return v.size() * sizeof(T);
}

class CudnnSession final : public Session {
public:
    explicit CudnnSession(const Problem& problem)
        : m_problem(problem), m_training(problem.mode == Mode::Training),
          m_lstm(problem.config.cell == CellType::Lstm), m_setup(m_handle.get(), m_stream.get(), problem) {
        m_memory = cudnnFootprint(problem, m_setup.spaces());
        // The dropout states already exist; everything else is allocated only if it fits.
        requireDeviceFits(m_memory.total() - m_setup.spaces().dropoutStates, freeDeviceMemory(),
                          describePoint("gpu-cudnn", problem));
        allocate();
        m_blocks = m_setup.locateBlocks(m_weights.get());
        upload(resolve(problem)); // host data only once the point is known to fit
    }

    void run(PhaseHook& hook) override {
        requireOwnerThread();
        m_ran = false;
        const cudaStream_t s = m_stream.get();
        {
            PhaseScope phase(hook, Phase::Forward);
            m_graphs.run(Phase::Forward, s, hook,
                         [&](PhaseHook& h) { step(h, "cudnnRNNForward", [&] { forward(); }); });
        }
        if (m_training) {
            {
                PhaseScope phase(hook, Phase::Backward);
                m_graphs.run(Phase::Backward, s, hook, [&](PhaseHook& h) {
                    if (!m_problem.overrides.outputGrad) step(h, "loss", [&] { lossGradient(); });
                    step(h, "cudnnRNNBackwardData_v8", [&] { backwardData(); });
                    step(h, "cudnnRNNBackwardWeights_v8", [&] { backwardWeights(); });
                });
            }
            {
                PhaseScope phase(hook, Phase::Update);
                m_graphs.run(Phase::Update, s, hook, [&](PhaseHook& h) {
                    step(h, "SGD update", [&] {
                        launchElementwise(kernels::SgdKernel<float>{m_weights.as<float>(),
                                                                    m_dweights.as<float>(),
                                                                    float(m_problem.options.learningRate)},
                                          kernels::Index(m_weights.bytes() / sizeof(float)), s);
                    });
                });
            }
        }
        m_stream.synchronize();
        m_ran = true;
    }

    [[nodiscard]] RunOutputs outputs() const override {
        RunOutputs out;
        out.training = m_training;
        if (!m_ran) return out;
        const auto& sh = m_problem.shape;
        const RnnConfig& c = m_problem.config;
        const std::int64_t D = directionCount(c);
        const std::vector<std::int64_t> states{c.layers * D, sh.batch, c.hiddenSize};
        out.y = download({sh.seqLen, sh.batch, D * c.hiddenSize}, m_y);
        out.hN = download(states, m_hy);
        if (m_lstm) out.cN = download(states, m_cy);
        if (!m_training) return out;
        if (!m_problem.overrides.outputGrad) {
            float sum = 0.0f;
            copyToHost(&sum, m_lossSum.get(), sizeof sum, m_stream.get());
            out.loss = double(sum) / double(out.y.size()); // the mean of the squared errors
        }
        out.gradients.dParams = gatherFromWeightSpace(m_blocks, c, downloadSpace(m_dweights));
        if (m_problem.inputGradients) {
            out.gradients.dx = download({sh.seqLen, sh.batch, c.inputSize}, m_dx);
            out.gradients.dh0 = download(states, m_dhx);
            if (m_lstm) out.gradients.dc0 = download(states, m_dcx);
        }
        out.paramsAfter = gatherFromWeightSpace(m_blocks, c, downloadSpace(m_weights));
        return out;
    }

    [[nodiscard]] MemoryFootprint memory() const override { return m_memory; }

    [[nodiscard]] std::vector<std::string> notes() const override {
        std::vector<std::string> notes;
        const GpuInfo& info = gpuInfo();
        if (!info.devices.empty())
            notes.push_back("device: " + info.summary() + ", cuDNN " + info.cudnnVersion);
        notes.push_back("math type: " + mathType());
        if (m_graphs.enabled()) notes.push_back(std::string(kCudaGraphNote));
        notes.push_back("cuDNN RNN: algorithm " + std::string(toString(m_setup.algo())) + ", " +
                        std::string(cudnnBiasModeName(cudnnBiasMode(m_problem.config))) +
                        ", SEQ_MAJOR_UNPACKED with padded I/O, " +
                        std::string(m_training ? "CUDNN_FWD_MODE_TRAINING" : "CUDNN_FWD_MODE_INFERENCE"));
        const CudnnSpaceSizes& sp = m_setup.spaces();
        notes.push_back(
            "cuDNN workspace: " + formatBytes(sp.workspace) +
            ", reserve space: " + (m_training ? formatBytes(sp.reserve) : std::string("none (inference)")) +
            ", weight space: " + formatBytes(sp.weightSpace) +
            (sp.dropoutStates > 0 ? ", dropout states: " + formatBytes(sp.dropoutStates) : std::string()) +
            " (sizes cuDNN asked for at this shape); no cuBLAS handle or workspace");
        if (sp.weightSpace != std::uint64_t(cudnnDenseParameterCount(m_problem.config)) * sizeof(float))
            notes.push_back("cuDNN weight space is larger than the dense parameter count (" +
                            std::to_string(cudnnDenseParameterCount(m_problem.config)) + " floats): padding");
        if (m_setup.dropout() > 0.0f) {
            std::ostringstream s;
            s << "dropout between layers: cuDNN samples its own mask (p=" << m_setup.dropout()
              << "), not the shared seeded one";
            notes.push_back(s.str());
        }
        return notes;
    }

    [[nodiscard]] std::string mathType() const override {
        return m_setup.mathType() == CUDNN_FMA_MATH ? "strict FP32 (CUDNN_FMA_MATH)"
                                                    : "TF32 allowed (CUDNN_DEFAULT_MATH)";
    }

    [[nodiscard]] Comparability numericsComparable() const override {
        if (m_setup.dropout() > 0.0f) return {false, "cuDNN samples its own dropout mask"};
        return {};
    }

    [[nodiscard]] DeviceQueue* deviceQueue() override { return &m_queue; }

private:
    template <class F>
    static void step(PhaseHook& hook, const char* name, F&& work) {
        StepScope scope(hook, name);
        work();
    }

    void requireOwnerThread() const {
        if (std::this_thread::get_id() != m_owner)
            throw Error(ErrorKind::BackendFailure,
                        "gpu-cudnn session run on another thread than the one that "
                        "prepared it: GPU state belongs to the engine thread");
    }

    void allocate() {
        const RnnConfig& c = m_problem.config;
        const auto& sh = m_problem.shape;
        const std::size_t f = sizeof(float), T = std::size_t(sh.seqLen), B = std::size_t(sh.batch);
        const std::size_t H = std::size_t(c.hiddenSize), D = std::size_t(directionCount(c));
        const std::size_t xBytes = T * B * std::size_t(c.inputSize) * f, yBytes = T * B * D * H * f;
        const std::size_t states = std::size_t(c.layers) * D * B * H * f;
        const CudnnSpaceSizes& sp = m_setup.spaces();
        m_weights = DeviceBuffer(sp.weightSpace, "the cuDNN weight space");
        m_workspace = DeviceBuffer(sp.workspace, "the cuDNN workspace");
        m_reserve = DeviceBuffer(sp.reserve, "the cuDNN reserve space");
        m_seqLengths = DeviceBuffer(B * sizeof(std::int32_t), "the sequence lengths");
        m_x = DeviceBuffer(xBytes, "x");
        m_y = DeviceBuffer(yBytes, "y");
        m_hx = DeviceBuffer(states, "h0");
        m_hy = DeviceBuffer(states, "h_n");
        if (m_lstm) {
            m_cx = DeviceBuffer(states, "c0");
            m_cy = DeviceBuffer(states, "c_n");
        }
        if (!m_training) return;
        m_dweights = DeviceBuffer(sp.weightSpace, "the cuDNN dweight space");
        if (!m_problem.overrides.outputGrad) m_target = DeviceBuffer(yBytes, "the training target");
        m_dy = DeviceBuffer(yBytes, "dy");
        m_dx = DeviceBuffer(xBytes, "dx");
        if (!m_problem.overrides.outputGrad) {
            m_lossSum = DeviceBuffer(f, "the loss");
            m_lossPartials = DeviceBuffer(kernels::kReducePartialsBytes, "the loss partial sums");
        }
        if (m_problem.inputGradients) {
            m_dhx = DeviceBuffer(states, "dh0");
            if (m_lstm) m_dcx = DeviceBuffer(states, "dc0");
        }
        if (m_problem.overrides.hNGrad) m_dhy = DeviceBuffer(states, "dh_n");
        if (m_problem.overrides.cNGrad && m_lstm) m_dcy = DeviceBuffer(states, "dc_n");
    }

    void upload(const ResolvedProblem<float>& host) {
        const cudaStream_t s = m_stream.get();
        std::vector<float> space(m_weights.bytes() / sizeof(float), 0.0f); // padding, if any, stays zero
        scatterToWeightSpace(m_blocks, host.params, space);
        copyToDevice(m_weights.get(), space.data(), bytesOf(space), s);
        const std::vector<std::int32_t> lengths(std::size_t(m_problem.shape.batch), m_problem.shape.seqLen);
        copyToDevice(m_seqLengths.get(), lengths.data(), bytesOf(lengths), s);
        copyToDevice(m_x.get(), host.data.x.ptr(), bytesOf(host.data.x.data), s);
        copyToDevice(m_hx.get(), host.data.h0.ptr(), bytesOf(host.data.h0.data), s);
        if (m_lstm) copyToDevice(m_cx.get(), host.data.c0.ptr(), bytesOf(host.data.c0.data), s);
        if (m_target.get())
            copyToDevice(m_target.get(), host.data.target.ptr(), bytesOf(host.data.target.data), s);
        const ProblemOverrides& o = m_problem.overrides;
        if (m_training && o.outputGrad)
            copyToDevice(m_dy.get(), o.outputGrad->ptr(), bytesOf(o.outputGrad->data), s);
        if (m_dhy.get()) copyToDevice(m_dhy.get(), o.hNGrad->ptr(), bytesOf(o.hNGrad->data), s);
        if (m_dcy.get()) copyToDevice(m_dcy.get(), o.cNGrad->ptr(), bytesOf(o.cNGrad->data), s);
    }

    void forward() {
        const CudnnSpaceSizes& sp = m_setup.spaces();
        checkCudnn(cudnnRNNForward(m_handle.get(), m_setup.rnn(), m_setup.forwardMode(),
                                   m_seqLengths.as<std::int32_t>(), m_setup.xDesc(), m_x.get(),
                                   m_setup.yDesc(), m_y.get(), m_setup.hDesc(), m_hx.get(), m_hy.get(),
                                   m_setup.cDesc(), m_cx.get(), m_cy.get(), sp.weightSpace, m_weights.get(),
                                   sp.workspace, m_workspace.get(), sp.reserve, m_reserve.get()),
                   "cudnnRNNForward");
    }

    void lossGradient() {
        const kernels::Index n = kernels::Index(m_y.bytes() / sizeof(float));
        launchElementwise(kernels::MseGradKernel<float>{m_y.as<float>(), m_target.as<float>(),
                                                        m_dy.as<float>(), float(2.0 / double(n))},
                          n, m_stream.get());
        // The sum of squared errors, read back by outputs(); the mean divides it by N.
        launchSum(kernels::SquaredErrorTerm<float>{m_y.as<float>(), m_target.as<float>()}, n,
                  m_lossPartials.as<float>(), m_lossSum.as<float>(), m_stream.get());
    }

    void backwardData() {
        const CudnnSpaceSizes& sp = m_setup.spaces();
        checkCudnn(cudnnRNNBackwardData_v8(m_handle.get(), m_setup.rnn(), m_seqLengths.as<std::int32_t>(),
                                           m_setup.yDesc(), m_y.get(), m_dy.get(), m_setup.xDesc(),
                                           m_dx.get(), m_setup.hDesc(), m_hx.get(), m_dhy.get(), m_dhx.get(),
                                           m_setup.cDesc(), m_cx.get(), m_dcy.get(), m_dcx.get(),
                                           sp.weightSpace, m_weights.get(), sp.workspace, m_workspace.get(),
                                           sp.reserve, m_reserve.get()),
                   "cudnnRNNBackwardData_v8");
    }

    void backwardWeights() {
        const CudnnSpaceSizes& sp = m_setup.spaces();
        // cuDNN only accumulates (CUDNN_WGRAD_MODE_ADD): start every iteration from zero.
        checkCuda(cudaMemsetAsync(m_dweights.get(), 0, m_dweights.bytes(), m_stream.get()),
                  "cudaMemsetAsync");
        // Note the order: the dweight space comes before the workspace.
        checkCudnn(cudnnRNNBackwardWeights_v8(m_handle.get(), m_setup.rnn(), CUDNN_WGRAD_MODE_ADD,
                                              m_seqLengths.as<std::int32_t>(), m_setup.xDesc(), m_x.get(),
                                              m_setup.hDesc(), m_hx.get(), m_setup.yDesc(), m_y.get(),
                                              sp.weightSpace, m_dweights.get(), sp.workspace,
                                              m_workspace.get(), sp.reserve, m_reserve.get()),
                   "cudnnRNNBackwardWeights_v8");
    }

    [[nodiscard]] Tensor<float> download(std::vector<std::int64_t> shape, const DeviceBuffer& src) const {
        Tensor<float> t(std::move(shape));
        copyToHost(t.ptr(), src.get(), bytesOf(t.data), m_stream.get());
        return t;
    }

    [[nodiscard]] std::vector<float> downloadSpace(const DeviceBuffer& src) const {
        std::vector<float> space(src.bytes() / sizeof(float));
        copyToHost(space.data(), src.get(), bytesOf(space), m_stream.get());
        return space;
    }

    Problem m_problem;
    bool m_training;
    bool m_lstm;
    std::thread::id m_owner = std::this_thread::get_id();
    CudaStream m_stream;
    StreamQueue m_queue{m_stream};
    CudnnHandle m_handle;
    CudnnRnnSetup m_setup;
    MemoryFootprint m_memory;
    DeviceBuffer m_weights, m_dweights, m_workspace, m_reserve, m_seqLengths;
    DeviceBuffer m_x, m_y, m_hx, m_cx, m_hy, m_cy;
    DeviceBuffer m_target, m_dy, m_dx, m_dhx, m_dcx, m_dhy, m_dcy, m_lossSum, m_lossPartials;
    std::vector<CudnnPlacedBlock> m_blocks;
    PhaseGraphs m_graphs{m_problem.options.cudaGraph};
    bool m_ran = false;
};

} // namespace

std::unique_ptr<Session> makeCudnnSession(const Problem& problem) {
    requireValidOverrides(problem); // bad overrides fail before any device work
    selectDevice();
    return std::make_unique<CudnnSession>(problem);
}

} // namespace rnnprof::gpu

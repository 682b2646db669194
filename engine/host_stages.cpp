#include "engine/host_stages.h"

#include "engine/cpu/gemm.h"
#include "engine/error.h"
#include "engine/kernels/gate_math.h"

#include <algorithm>
#include <cmath>

namespace rnnprof {
namespace {

using cpu::Op;
constexpr std::uint64_t kInputSalt = 0x696e70ULL, kTargetSalt = 0x746172ULL, kGradSalt = 0x677264ULL,
                        kMaskSalt = 0x6d736bULL;

std::uint64_t bytes(std::int64_t floats) {
    return std::uint64_t(floats) * sizeof(float);
}

Tensor<float> inputOf(HostStageSetup& s) {
    if (s.input) {
        if (s.input->size() != s.rows * s.inputWidth)
            throw Error(ErrorKind::InvalidInput, "the input of " + describeLayer(s.layer) + " holds " +
                                                     std::to_string(s.input->size()) + " values, expected " +
                                                     std::to_string(s.rows * s.inputWidth));
        Tensor<float> x = std::move(*s.input);
        x.shape = {s.rows, s.inputWidth};
        return x;
    }
    return seededUniform<float>({s.rows, s.inputWidth}, s.seed ^ kInputSalt, 1.0);
}

// The gradient backward starts from: the MSE loss's against a seeded target for the model's last
// layer, a seeded one otherwise (what the layer above would hand down; its values do not change the time).
struct BackwardStart {
    Tensor<float> target; // last: the loss's target
    Tensor<float> given;  // otherwise
};
BackwardStart backwardStart(const HostStageSetup& s, std::int64_t width) {
    BackwardStart b;
    if (s.mode != Mode::Training) return b;
    if (s.last)
        b.target = seededUniform<float>({s.rows, width}, s.seed ^ kTargetSalt, 0.5);
    else
        b.given = seededUniform<float>({s.rows, width}, s.seed ^ kGradSalt, 0.5);
    return b;
}

class DenseStage final : public Session {
public:
    explicit DenseStage(HostStageSetup s)
        : m_s(std::move(s)), m_x(inputOf(m_s)), m_p(seededDenseParams(m_s.layer, m_s.inputWidth, m_s.seed)),
          m_start(backwardStart(m_s, m_s.layer.units)), m_y({m_s.rows, m_s.layer.units}) {
        if (m_s.mode == Mode::Training) {
            m_dy = Tensor<float>(m_y.shape);
            m_dz = Tensor<float>(m_y.shape);
            m_dw = Tensor<float>(m_p.weight.shape);
            m_db = Tensor<float>(m_p.bias.shape);
            if (m_s.inputGradients) m_dx = Tensor<float>(m_x.shape);
        }
    }

    void run(PhaseHook& hook) override {
        const cpu::CpuThreadScope threads(m_s.options.gemm, m_s.options.threads);
        const std::int64_t rows = m_s.rows, in = m_s.inputWidth, units = m_s.layer.units;
        {
            const PhaseScope forward(hook, Phase::Forward);
            cpu::sgemm(m_s.options.gemm, {.opA = Op::N,
                                          .opB = Op::T,
                                          .m = rows,
                                          .n = units,
                                          .k = in,
                                          .a = m_x.ptr(),
                                          .lda = in,
                                          .b = m_p.weight.ptr(),
                                          .ldb = in,
                                          .c = m_y.ptr(),
                                          .ldc = units});
            for (std::int64_t r = 0; r < rows; ++r)
                for (std::int64_t j = 0; j < units; ++j)
                    m_y.data[std::size_t(r * units + j)] += m_p.bias.data[std::size_t(j)];
            denseActivate(m_s.layer.denseActivation, rows, units, m_y.ptr());
        }
        if (m_s.mode != Mode::Training) return;
        {
            const PhaseScope backward(hook, Phase::Backward);
            if (m_s.last)
                m_loss = mseLoss(m_y, m_start.target, &m_dy);
            else
                m_dy.data = m_start.given.data;
            denseActivationGrad(m_s.layer.denseActivation, rows, units, m_y.ptr(), m_dy.ptr(), m_dz.ptr());
            cpu::sgemm(m_s.options.gemm, {.opA = Op::T,
                                          .opB = Op::N,
                                          .m = units,
                                          .n = in,
                                          .k = rows,
                                          .a = m_dz.ptr(),
                                          .lda = units,
                                          .b = m_x.ptr(),
                                          .ldb = in,
                                          .c = m_dw.ptr(),
                                          .ldc = in});
            std::fill(m_db.data.begin(), m_db.data.end(), 0.0f);
            if (m_s.layer.bias)
                for (std::int64_t r = 0; r < rows; ++r)
                    for (std::int64_t j = 0; j < units; ++j)
                        m_db.data[std::size_t(j)] += m_dz.data[std::size_t(r * units + j)];
            if (m_s.inputGradients)
                cpu::sgemm(m_s.options.gemm, {.opA = Op::N,
                                              .opB = Op::N,
                                              .m = rows,
                                              .n = in,
                                              .k = units,
                                              .a = m_dz.ptr(),
                                              .lda = units,
                                              .b = m_p.weight.ptr(),
                                              .ldb = in,
                                              .c = m_dx.ptr(),
                                              .ldc = in});
        }
        const PhaseScope update(hook, Phase::Update);
        const float lr = float(m_s.options.learningRate);
        for (std::size_t i = 0; i < m_dw.data.size(); ++i)
            m_p.weight.data[i] -= lr * m_dw.data[i];
        for (std::size_t i = 0; i < m_db.data.size(); ++i)
            m_p.bias.data[i] -= lr * m_db.data[i];
    }

    [[nodiscard]] RunOutputs outputs() const override {
        RunOutputs out;
        out.y = m_y;
        out.training = m_s.mode == Mode::Training;
        out.loss = m_loss;
        out.gradients.dx = m_dx;
        return out;
    }
    [[nodiscard]] MemoryFootprint memory() const override { return hostStageFootprint(m_s); }
    [[nodiscard]] std::vector<std::string> notes() const override {
        return {describeLayer(m_s.layer) + ": host GEMMs, " + cpu::providerName(m_s.options.gemm)};
    }

private:
    HostStageSetup m_s;
    Tensor<float> m_x;
    DenseParams m_p;
    BackwardStart m_start;
    Tensor<float> m_y, m_dy, m_dz, m_dw, m_db, m_dx;
    double m_loss = 0.0;
};

class DropoutStage final : public Session {
public:
    explicit DropoutStage(HostStageSetup s) : m_s(std::move(s)), m_x(inputOf(m_s)) {
        if (m_s.mode != Mode::Training) return; // inference: the layer does nothing
        m_mask = seededMask<float>(m_x.shape, m_s.seed ^ kMaskSalt, m_s.layer.rate);
        m_start = backwardStart(m_s, m_s.inputWidth);
        m_y = Tensor<float>(m_x.shape);
        if (m_s.inputGradients) m_dx = Tensor<float>(m_x.shape);
    }

    void run(PhaseHook& hook) override {
        if (m_s.mode != Mode::Training) {
            const PhaseScope forward(hook, Phase::Forward);
            return;
        }
        {
            const PhaseScope forward(hook, Phase::Forward);
            for (std::size_t i = 0; i < m_y.data.size(); ++i)
                m_y.data[i] = m_x.data[i] * m_mask.data[i];
        }
        const PhaseScope backward(hook, Phase::Backward);
        Tensor<float> dy(m_y.shape);
        if (m_s.last)
            m_loss = mseLoss(m_y, m_start.target, &dy);
        else
            dy.data = m_start.given.data;
        if (m_s.inputGradients)
            for (std::size_t i = 0; i < m_dx.data.size(); ++i)
                m_dx.data[i] = dy.data[i] * m_mask.data[i];
    }

    [[nodiscard]] RunOutputs outputs() const override {
        RunOutputs out;
        out.y = m_s.mode == Mode::Training ? m_y : m_x;
        out.training = m_s.mode == Mode::Training;
        out.loss = m_loss;
        out.gradients.dx = m_dx;
        return out;
    }
    [[nodiscard]] MemoryFootprint memory() const override { return hostStageFootprint(m_s); }

private:
    HostStageSetup m_s;
    Tensor<float> m_x, m_mask, m_y, m_dx;
    BackwardStart m_start;
    double m_loss = 0.0;
};

} // namespace

DenseParams seededDenseParams(const LayerSpec& layer, int inputWidth, std::uint64_t seed) {
    const double bound = 1.0 / std::sqrt(double(inputWidth));
    DenseParams p;
    p.weight = seededUniform<float>({layer.units, inputWidth}, seed ^ 0x77ULL, bound);
    p.bias = layer.bias ? seededUniform<float>({layer.units}, seed ^ 0x62ULL, bound)
                        : Tensor<float>({std::int64_t(layer.units)});
    return p;
}

void denseActivate(DenseActivation act, std::int64_t rows, std::int64_t width, float* z) {
    using gates::Act;
    const std::int64_t n = rows * width;
    switch (act) {
    case DenseActivation::Linear:
        return;
    case DenseActivation::Relu:
        for (std::int64_t i = 0; i < n; ++i)
            z[i] = gates::activate<Act::Relu>(z[i]);
        return;
    case DenseActivation::Tanh:
        for (std::int64_t i = 0; i < n; ++i)
            z[i] = gates::activate<Act::Tanh>(z[i]);
        return;
    case DenseActivation::Sigmoid:
        for (std::int64_t i = 0; i < n; ++i)
            z[i] = gates::activate<Act::Sigmoid>(z[i]);
        return;
    case DenseActivation::Softmax:
        for (std::int64_t r = 0; r < rows; ++r) {
            float* row = z + r * width;
            const float top = *std::max_element(row, row + width);
            double sum = 0.0;
            for (std::int64_t j = 0; j < width; ++j)
                sum += row[j] = std::exp(row[j] - top);
            for (std::int64_t j = 0; j < width; ++j)
                row[j] = float(row[j] / sum);
        }
        return;
    }
}

void denseActivationGrad(DenseActivation act, std::int64_t rows, std::int64_t width, const float* y,
                         const float* dy, float* dz) {
    using gates::Act;
    const std::int64_t n = rows * width;
    switch (act) {
    case DenseActivation::Linear:
        std::copy(dy, dy + n, dz);
        return;
    case DenseActivation::Relu:
        for (std::int64_t i = 0; i < n; ++i)
            dz[i] = dy[i] * gates::derivativeFromOutput<Act::Relu>(y[i]);
        return;
    case DenseActivation::Tanh:
        for (std::int64_t i = 0; i < n; ++i)
            dz[i] = dy[i] * gates::derivativeFromOutput<Act::Tanh>(y[i]);
        return;
    case DenseActivation::Sigmoid:
        for (std::int64_t i = 0; i < n; ++i)
            dz[i] = dy[i] * gates::derivativeFromOutput<Act::Sigmoid>(y[i]);
        return;
    case DenseActivation::Softmax:
        // dz_j = y_j (dy_j - sum_k dy_k y_k)
        for (std::int64_t r = 0; r < rows; ++r) {
            const std::int64_t o = r * width;
            double dot = 0.0;
            for (std::int64_t j = 0; j < width; ++j)
                dot += double(dy[o + j]) * y[o + j];
            for (std::int64_t j = 0; j < width; ++j)
                dz[o + j] = float(y[o + j] * (dy[o + j] - dot));
        }
        return;
    }
}

MemoryFootprint hostStageFootprint(const HostStageSetup& s) {
    MemoryFootprint f;
    const bool training = s.mode == Mode::Training;
    const std::int64_t in = s.rows * s.inputWidth;
    if (s.layer.kind == LayerKind::Dropout) {
        f.io = bytes(in);
        if (training) {
            f.workspace = bytes(in);                        // the mask
            f.io += bytes(in) * (s.inputGradients ? 3 : 2); // y, the target or dy, dx
        }
        return f;
    }
    const std::int64_t out = s.rows * s.layer.units;
    const std::int64_t params = std::int64_t(s.layer.units) * s.inputWidth + s.layer.units;
    f.weights = bytes(params);
    f.io = bytes(in + out);
    if (training) {
        f.gradients = bytes(params);
        f.workspace = bytes(2 * out);                            // dy, dz
        f.io += bytes(out) + (s.inputGradients ? bytes(in) : 0); // the target or given dy, dx
    }
    return f;
}

std::unique_ptr<Session> makeHostStage(HostStageSetup setup) {
    if (setup.layer.kind == LayerKind::Dense) return std::make_unique<DenseStage>(std::move(setup));
    if (setup.layer.kind == LayerKind::Dropout) return std::make_unique<DropoutStage>(std::move(setup));
    throw Error(ErrorKind::InvalidConfig,
                "a host stage is a dense or a dropout layer, not " + describeLayer(setup.layer));
}

} // namespace rnnprof

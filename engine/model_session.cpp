#include "engine/model_session.h"

#include "engine/error.h"
#include "engine/host_memory.h"

#include <algorithm>
#include <chrono>

namespace rnnprof {
namespace {

constexpr std::uint64_t kGivenGradSalt = 0x64795fULL;

bool isLast(const std::vector<ModelStage>& stages, int index) {
    return index + 1 == int(stages.size());
}

// Training: whether the stage must compute the gradient of its input (a layer with parameters
// lies below it).
bool needsInputGradient(const ModelProblem& p, const ModelStage& stage) {
    if (p.mode != Mode::Training) return false;
    for (int i = 0; i < stage.firstLayer; ++i)
        if (p.model.layers[std::size_t(i)].kind != LayerKind::Dropout) return true;
    return false;
}

std::int64_t rowsOf(const ModelProblem& p, const ModelStage& stage) {
    return stage.perStep ? std::int64_t(p.shape.seqLen) * p.shape.batch : p.shape.batch;
}

void addFootprint(MemoryFootprint& total, const MemoryFootprint& f) {
    total.weights += f.weights;
    total.gradients += f.gradients;
    total.activations += f.activations;
    total.workspace += f.workspace;
    total.io += f.io;
    total.onDevice = total.onDevice || f.onDevice;
    total.detail.insert(total.detail.end(), f.detail.begin(), f.detail.end());
}

// "layers[0] (LSTM 64 ...): reason", and a stage's data from the output of the one before it.
std::string prefixed(const std::string& name, const std::string& what) {
    return name + ": " + what;
}

// What a stage hands on: its output, or for a recurrent call that keeps its last step only, each
// row's final state of the top layer, both directions side by side ([B, D*H]), as Keras'
// return_sequences=False (and its Bidirectional wrapper) gives.
Tensor<float> handedOn(const ModelStage& stage, RunOutputs out) {
    if (stage.kind != StageKind::Recurrent || stage.returnSequences) return std::move(out.y);
    const RnnConfig& c = stage.config;
    const std::int64_t D = directionCount(c), H = c.hiddenSize, B = out.hN.shape.at(1);
    Tensor<float> last({B, D * H});
    for (std::int64_t d = 0; d < D; ++d) {
        const float* state = out.hN.ptr() + ((c.layers - 1) * D + d) * B * H;
        for (std::int64_t b = 0; b < B; ++b)
            std::copy(state + b * H, state + (b + 1) * H, last.ptr() + b * D * H + d * H);
    }
    return last;
}

} // namespace

std::string stageName(const ModelSpec& model, const ModelStage& stage) {
    const std::string layers =
        stage.firstLayer == stage.lastLayer
            ? "layers[" + std::to_string(stage.firstLayer) + "]"
            : "layers[" + std::to_string(stage.firstLayer) + ".." + std::to_string(stage.lastLayer) + "]";
    const LayerSpec& first = model.layers.at(std::size_t(stage.firstLayer));
    if (stage.kind == StageKind::Recurrent && stage.config.layers > 1)
        return layers + " (" + std::to_string(stage.config.layers) + " x " + describeLayer(first) + ")";
    return layers + " (" + describeLayer(first) + ")";
}

std::vector<std::string> modelUnsupportedReasons(const Backend& backend, const ModelSpec& model, Mode mode) {
    std::vector<std::string> reasons;
    const std::vector<ModelStage> all = stages(model);
    if (backend.isGpu() && all.size() > 1) {
        std::string names;
        for (const ModelStage& s : all)
            names += (names.empty() ? "" : ", ") + stageName(model, s);
        reasons.push_back(std::string(backend.id()) +
                          " runs a model of one recurrent call only so far; this one needs " +
                          std::to_string(all.size()) + " (" + names + "): a CPU backend runs it");
    }
    for (const ModelStage& s : all) {
        if (s.kind != StageKind::Recurrent) continue;
        for (const std::string& r : backend.unsupportedReasons(s.config, mode))
            reasons.push_back(prefixed(stageName(model, s), r));
    }
    return reasons;
}

Problem stageProblem(const ModelProblem& p, const std::vector<ModelStage>& stages, int index) {
    const ModelStage& s = stages.at(std::size_t(index));
    Problem problem;
    problem.config = s.config;
    problem.shape = p.shape;
    problem.mode = p.mode;
    problem.options = p.options;
    problem.inputGradients = needsInputGradient(p, s);
    if (p.mode == Mode::Training && !isLast(stages, index))
        problem.overrides.outputGrad = std::make_shared<const Tensor<float>>(
            seededUniform<float>({p.shape.seqLen, p.shape.batch, std::int64_t(s.outputWidth)},
                                 s.config.seed ^ kGivenGradSalt, 0.5));
    return problem;
}

HostStageSetup hostStageSetup(const ModelProblem& p, const std::vector<ModelStage>& stages, int index) {
    const ModelStage& s = stages.at(std::size_t(index));
    HostStageSetup h;
    h.layer = p.model.layers.at(std::size_t(s.firstLayer));
    h.inputWidth = s.inputWidth;
    h.rows = rowsOf(p, s);
    h.mode = p.mode;
    h.options = p.options;
    h.seed = p.model.seed + std::uint64_t(index);
    h.last = isLast(stages, index);
    h.inputGradients = needsInputGradient(p, s);
    return h;
}

MemoryFootprint estimateModelMemory(const Backend& backend, const ModelProblem& p) {
    const std::vector<ModelStage> all = stages(p.model);
    MemoryFootprint total;
    for (int k = 0; k < int(all.size()); ++k)
        addFootprint(total, all[std::size_t(k)].kind == StageKind::Recurrent
                                ? backend.estimateMemory(stageProblem(p, all, k))
                                : hostStageFootprint(hostStageSetup(p, all, k)));
    return total;
}

ModelSession::ModelSession(std::vector<ModelStage> stages, std::vector<std::string> names,
                           std::vector<std::unique_ptr<Session>> sessions)
    : m_stages(std::move(stages)), m_names(std::move(names)), m_sessions(std::move(sessions)),
      m_stageMs(m_sessions.size(), 0.0) {}

void ModelSession::run(PhaseHook& hook) {
    using Clock = std::chrono::steady_clock;
    for (std::size_t k = 0; k < m_sessions.size(); ++k) {
        m_sessions[k]->setStopToken(stopToken());
        const Clock::time_point start = Clock::now();
        m_sessions[k]->run(hook);
        m_stageMs[k] = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    }
}

RunOutputs ModelSession::outputs() const {
    RunOutputs out = m_sessions.back()->outputs();
    out.y = handedOn(m_stages.back(), out);
    return out;
}

MemoryFootprint ModelSession::memory() const {
    MemoryFootprint total;
    for (const auto& s : m_sessions)
        addFootprint(total, s->memory());
    return total;
}

std::vector<std::string> ModelSession::notes() const {
    if (m_sessions.size() == 1) return m_sessions.front()->notes();
    std::string calls;
    for (const std::string& n : m_names)
        calls += (calls.empty() ? "" : ", ") + n;
    std::vector<std::string> out{"model run as " + std::to_string(m_sessions.size()) + " calls: " + calls};
    for (const auto& s : m_sessions)
        for (const std::string& note : s->notes())
            if (std::find(out.begin(), out.end(), note) == out.end()) out.push_back(note);
    return out;
}

std::string ModelSession::mathType() const {
    for (const auto& s : m_sessions)
        if (std::string m = s->mathType(); !m.empty()) return m;
    return {};
}

Session::Comparability ModelSession::numericsComparable() const {
    for (std::size_t k = 0; k < m_sessions.size(); ++k)
        if (Comparability c = m_sessions[k]->numericsComparable(); !c.comparable)
            return {false, prefixed(m_names[k], c.why)};
    return {};
}

DeviceQueue* ModelSession::deviceQueue() {
    return m_sessions.size() == 1 ? m_sessions.front()->deviceQueue() : nullptr;
}

std::unique_ptr<ModelSession> prepareModel(const Backend& backend, const ModelProblem& p) {
    if (const auto issues = validate(p.model); !issues.empty())
        throw Error(ErrorKind::InvalidConfig, joinIssues(issues));
    const std::vector<ModelStage> all = stages(p.model);
    const std::string point = std::string(backend.id()) + " at batch " + std::to_string(p.shape.batch) +
                              ", seq_len " + std::to_string(p.shape.seqLen);
    for (const ModelStage& s : all) {
        const std::int64_t widest = rowsOf(p, s) * std::max(s.inputWidth, s.outputWidth);
        if (s.kind != StageKind::Recurrent && widest > Limits::maxBufferElements)
            throw Error(ErrorKind::InvalidConfig,
                        stageName(p.model, s) + " would hold " + std::to_string(widest) +
                            " elements in one buffer, at most " + std::to_string(Limits::maxBufferElements) +
                            " are allowed (reduce batch or seq_len)");
    }
    if (const Availability a = backend.availability(); !a.available)
        throw Error(ErrorKind::DeviceUnavailable, a.reason);
    if (const auto reasons = modelUnsupportedReasons(backend, p.model, p.mode); !reasons.empty()) {
        std::string text;
        for (const std::string& r : reasons)
            text += (text.empty() ? "" : " ") + r;
        throw Error(ErrorKind::Unsupported, text);
    }
    if (const MemoryFootprint f = estimateModelMemory(backend, p); !f.onDevice)
        if (const auto available = availableHostMemory()) requireFits(f.total(), *available, point);

    std::vector<std::unique_ptr<Session>> sessions;
    std::vector<std::string> names;
    std::optional<Tensor<float>> carried; // inference: the previous stage's output
    for (int k = 0; k < int(all.size()); ++k) {
        const ModelStage& s = all[std::size_t(k)];
        names.push_back(stageName(p.model, s));
        std::unique_ptr<Session> session;
        if (s.kind == StageKind::Recurrent) {
            Problem problem = stageProblem(p, all, k);
            if (carried) {
                auto data = std::make_shared<ProblemData<float>>(
                    makeProblemData<float>(problem.config, problem.shape, problem.mode));
                data->x = std::move(*carried);
                data->x.shape = {p.shape.seqLen, p.shape.batch, s.inputWidth};
                problem.overrides.data = std::move(data);
            }
            session = backend.prepare(problem);
        } else {
            HostStageSetup setup = hostStageSetup(p, all, k);
            setup.input = std::move(carried);
            session = makeHostStage(std::move(setup));
        }
        carried.reset();
        if (p.mode == Mode::Inference && !isLast(all, k)) { // what the next stage reads
            NullPhaseHook hook;
            session->run(hook);
            carried = handedOn(s, session->outputs());
        }
        sessions.push_back(std::move(session));
    }
    return std::make_unique<ModelSession>(all, std::move(names), std::move(sessions));
}

} // namespace rnnprof

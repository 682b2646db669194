#pragma once
// A model (engine/model.h) run on one backend: a session per stage, run in order every iteration.
// Recurrent stages are the backend's own sessions; dense and dropout layers run on the host
// (engine/host_stages.h), so a GPU backend takes a model of one recurrent call only, for now.
// In inference each stage reads what the stage before it wrote (computed once, when the model is
// prepared), so the last stage's outputs are the model's. In training every stage reads seeded
// inputs and all but the last start backward from a seeded gradient instead of the one the layer
// above would hand down: an iteration's time does not depend on the values, but its gradients are
// each stage's own, not the model's.
#include "engine/backend.h"
#include "engine/host_stages.h"
#include "engine/model.h"

#include <memory>
#include <string>
#include <vector>

namespace rnnprof {

struct ModelProblem {
    ModelSpec model;
    Shape shape;
    Mode mode = Mode::Inference;
    BackendOptions options;
};

// Every reason `backend` cannot run `model` in `mode`, each naming the layers it is about; empty
// when it can run all of them. The model must be valid.
[[nodiscard]] std::vector<std::string> modelUnsupportedReasons(const Backend& backend, const ModelSpec& model,
                                                               Mode mode);
// "layers[0] (LSTM 64, tanh/sigmoid)", "layers[0..4] (3 x LSTM 32, tanh/sigmoid)": how messages name a stage.
[[nodiscard]] std::string stageName(const ModelSpec& model, const ModelStage& stage);
// Stage `index`'s problem as its session is prepared from, without the inputs of the stage before.
[[nodiscard]] Problem stageProblem(const ModelProblem& problem, const std::vector<ModelStage>& stages,
                                   int index);
[[nodiscard]] HostStageSetup hostStageSetup(const ModelProblem& problem,
                                            const std::vector<ModelStage>& stages, int index);
// Bytes of every stage's buffers together, without allocating anything.
[[nodiscard]] MemoryFootprint estimateModelMemory(const Backend& backend, const ModelProblem& problem);

class ModelSession final : public Session {
public:
    ModelSession(std::vector<ModelStage> stages, std::vector<std::string> names,
                 std::vector<std::unique_ptr<Session>> sessions);
    void run(PhaseHook& hook) override;
    // The last stage's, its y as the model hands it on ([B, D*H] after a last step only).
    [[nodiscard]] RunOutputs outputs() const override;
    [[nodiscard]] MemoryFootprint memory() const override; // every stage's together
    [[nodiscard]] std::vector<std::string> notes() const override;
    [[nodiscard]] std::string mathType() const override;
    [[nodiscard]] Comparability numericsComparable() const override;
    [[nodiscard]] DeviceQueue* deviceQueue() override; // a model of one stage: its session's

    [[nodiscard]] int stageCount() const { return int(m_stages.size()); }
    [[nodiscard]] const ModelStage& stage(int k) const { return m_stages.at(std::size_t(k)); }
    [[nodiscard]] const Session& stageSession(int k) const { return *m_sessions.at(std::size_t(k)); }
    // Wall time of stage k in the last run(), in milliseconds (GPU stages wait for their work).
    [[nodiscard]] double stageMs(int k) const { return m_stageMs.at(std::size_t(k)); }

private:
    std::vector<ModelStage> m_stages;
    std::vector<std::string> m_names;
    std::vector<std::unique_ptr<Session>> m_sessions;
    std::vector<double> m_stageMs;
};

// Checks the model, the backend's support of every stage and the memory estimate, then prepares
// every stage in order. Throws Error as Backend::prepare() does.
[[nodiscard]] std::unique_ptr<ModelSession> prepareModel(const Backend& backend, const ModelProblem& problem);

} // namespace rnnprof

#pragma once
// The cpu-blas session: owns every buffer of one (config, shape, mode) and runs iterations.
// See blas_backend.h for the algorithm; blas_layout.h for the buffer sizes.
#include "engine/backend.h"
#include "engine/cpu/blas_layout.h"
#include "engine/cpu/gemm.h"
#include "engine/cpu/step_team.h"

#include <vector>

namespace rnnprof::cpu {

class BlasSession final : public Session {
public:
    explicit BlasSession(const Problem& problem);

    void run(PhaseHook& hook) override;
    [[nodiscard]] RunOutputs outputs() const override;
    [[nodiscard]] MemoryFootprint memory() const override;
    [[nodiscard]] std::vector<std::string> notes() const override;

private:
    using Buffer = std::vector<float>;
    struct Weights {
        const float* wih = nullptr; // [D*G*H, in] both directions
        const float* whh[2] = {};   // [G*H, H]
        const float* bih[2] = {};   // [G*H] (zeros without bias)
        const float* bhh[2] = {};
    };
    struct Kept { // per layer, training only
        Buffer saved[2], hrec[2], cells[2], rh[2];
        Buffer maskedInput; // dropout between layers
    };

    [[nodiscard]] Weights weights(int layer) const;
    [[nodiscard]] const float* layerInput(int layer) const;
    [[nodiscard]] float* layerOutput(int layer);
    [[nodiscard]] const float* recurrentMask(int layer, int dir) const; // ones without dropout
    // Where step s of direction d is in time (RecurrenceDims::step), and its (layer, dir) slot.
    // Callers copy the fields into plain variables, not a structured binding: the kernels' lambdas
    // capture them, which clang < 16 (the fuzz build's clang 14) does not allow for bindings.
    struct StepAt {
        std::int64_t t, prev, next, slot;
    };
    [[nodiscard]] StepAt stepAt(int layer, int d, int s) const;
    [[nodiscard]] int teamSize() const;
    void forward(PhaseHook& hook);
    void forwardLayer(PhaseHook& hook, int layer);
    void recurrentForward(StepTeam& team, int layer, const Weights& w);
    // Columns g*H + j (g < gates, j in the team's slice) of hp = hRec * W_hh^T (rows from `whh`).
    void gateGemm(StepTeam& team, int gates, const float* a, std::int64_t lda, const float* whh,
                  float* hp) const;
    void forwardStep(StepTeam& team, int layer, int d, int s, const Weights& w);
    void forwardResetBeforeTail(StepTeam& team, int layer, int d, int s, const Weights& w);
    void backward(PhaseHook& hook);
    void backwardLayer(PhaseHook& hook, int layer);
    void recurrentBackward(StepTeam& team, int layer, const Weights& w);
    void backwardCell(StepTeam& team, int layer, int d, int s);
    void backwardGemm(StepTeam& team, int layer, int d, int s, const Weights& w);
    void backwardResetBeforeTail(StepTeam& team, int layer, int d, int s, const Weights& w);
    void weightGradients(int layer);
    void update(PhaseHook& hook);
    void gemm(const GemmArgs& args) const { sgemm(m_provider, args); }

    Problem m_problem;
    BlasLayout m_lay;
    GemmProvider m_provider;
    int m_threads;
    int m_loopThreads = 1;
    ResolvedProblem<float> m_in; // inputs, and the parameters that training updates
    ParamSet<float> m_grads;
    Buffer m_zeros; // bias stand-in when bias is off
    // The kernels run unchecked (branch-free, vectorised): every optional view must be valid, so
    // outputs that are not kept go to scratch and a missing mask is a mask of ones.
    Buffer m_ones;                             // [B*H]
    Buffer m_scratchSaved[2], m_scratchRec[2]; // one step's gates and recurrent input

    std::vector<Buffer> m_y; // per layer [T*B, D*H]
    std::vector<Kept> m_kept;
    Buffer m_xp, m_hp[2];
    Buffer m_cstate[2][2];              // inference LSTM cell ping-pong per direction
    Buffer m_stepGates[2], m_stepRh[2]; // inference GRU reset_before
    Tensor<float> m_hN, m_cN;

    Buffer m_dy, m_dxp, m_dhp[2];
    Buffer m_dhCarry[2], m_dhRec[2], m_dcCarry[2], m_drh[2];
    Tensor<float> m_dx, m_dh0, m_dc0;
    double m_loss = 0.0;
};

} // namespace rnnprof::cpu

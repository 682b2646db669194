#pragma once
// The cpu-blas session: owns every buffer of one (config, shape, mode) and runs iterations.
// See blas_backend.h for the algorithm; blas_plan.h for what it decides before allocating (threads,
// packed products); blas_layout.h for the buffer sizes. Why it does not share
// gpu-generic's step sequence (engine/gpu/generic_rnn.h): see the note there.
#include "engine/backend.h"
#include "engine/cpu/blas_layout.h"
#include "engine/cpu/blas_plan.h"
#include "engine/cpu/fused_step.h"
#include "engine/cpu/gemm.h"
#include "engine/cpu/packed_gemm.h"
#include "engine/cpu/step_team.h"
#include "engine/cpu/transposed_gemm.h"

#include <optional>
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
    using Buffer = BlasBuffers::Buffer;
    using Kept = BlasBuffers::Kept;
    struct Weights {
        const float* wih = nullptr; // [D*G*H, in] both directions
        const float* whh[2] = {};   // [G*H, H]
        const float* bih[2] = {};   // [G*H] (zeros without bias)
        const float* bhh[2] = {};
        // W_hh as the forward steps read it: the padded copy (RecurrentProduct::PaddedCopy) or whh.
        const float* whhStep[2] = {};
        std::int64_t ldStep = 0;
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
    // An input GEMM on W_ih packed once (isPackedInput()): x rows * W_ih^T.
    struct InputGemm {
        std::optional<PackedGemm> gemm; // none for a share of no rows
        int threads;                    // inputGemmThreads()
    };
    // The recurrent products of one team thread on one (layer, direction), on W_hh packed for its
    // slice of units [j0, j1) (width w): forward hRec[B, H] * (gate rows of the slice)^T -> [B, G*w],
    // backward (gate gradients)[B, GH] * W_hh[:, slice] -> [B, w]. `out` receives a result that
    // cannot land in place (a team of several threads): the step copies it to its columns, or with
    // EachStep its gate pass reads it there.
    struct SliceProducts {
        std::optional<PackedGemm> forward, backward;
        std::optional<PackedGemm> input; // InputProjection::EachStep
        AlignedFloats out;
        AlignedFloats in;      // EachStep in a team: input projection [B, G*w], read by the gate pass
        AlignedFloats bias;    // with `in`: the slice's b_ih [G*w], then its b_hh [G*w]
        AlignedFloats paddedH; // RecurrentProduct::PackedPaddedH: h_{t-1} [m, forward->shape().lda]
    };
    // Whether the slice's forward product can read h_{t-1} from rows `ld` apart: its own stride, or
    // any through its padded rows.
    static bool readsRowsAt(const SliceProducts& p, std::int64_t ld);
    // Where the slice's forward product reads h_{t-1}'s rows, the first at `a`, `ld` apart: in place,
    // or copied into its padded rows.
    static const float* productRows(SliceProducts& p, const float* a, std::int64_t ld);
    void createPackedProducts();
    void createPackedInputGemms();
    void createWeightGradientProducts();
    void packRecurrentWeights();
    // W_hh row-blocked for the fused step, once: per (layer, direction) one copy per team thread,
    // or one that the threads of a row-splitting team share (fusedCopies()); and, for the streamed
    // step, each team thread's buffer of transposed rows of h_{t-1}.
    void packFusedSlices();
    // This thread's fused copy (a row-splitting team's shared one); null where the step runs GEMM
    // and cell kernel.
    [[nodiscard]] const AlignedFloats* fusedSlice(const StepTeam& team, int layer, int d) const;
    [[nodiscard]] FusedOrder fusedOrder() const {
        return m_plan.product == RecurrentProduct::FusedStream ? FusedOrder::GateMajor : FusedOrder::KMajor;
    }
    // W_hh of every (layer, direction) into m_paddedWhh (RecurrentPlan::paddedWhh): in prepare()
    // and after every SGD step.
    void copyPaddedWhh();
    [[nodiscard]] SliceProducts* products(StepTeam& team, int layer, int d);
    [[nodiscard]] int teamSize() const { return m_plan.threads.team; }
    void forward(PhaseHook& hook);
    void forwardLayer(PhaseHook& hook, int layer);
    // The recurrence of `layer`; with `ahead` (InputProjection::PackedAhead) each step first waits for
    // its input projection.
    void recurrentForward(StepTeam& team, int layer, const Weights& w, StepsAhead* ahead = nullptr);
    // InputProjection::PackedAhead: the recurrence of `layer` on this thread while a second one
    // projects its input, inputSteps steps at a time, into m_b.xp. Returns like StepTeam::run().
    int recurrenceBesideInput(int layer, const Weights& w);
    // Columns g*H + j (g < gates, j in the team's slice) of hp = hRec * W_hh^T (rows from `whh`,
    // `ldw` apart; a team of several threads reads W_hh itself, rows H apart, as the plan never
    // gives it the padded copy).
    void gateGemm(StepTeam& team, SliceProducts* packed, int gates, const float* a, std::int64_t lda,
                  const float* whh, std::int64_t ldw, float* hp) const;
    // Columns g*H + j (g < gates, j in the team's slice; row stride G*H) of c = a * W^T, W = `weights`
    // [G*H, k]: the team's share of a gate product by sgemm, one call per gate.
    void teamGateColumns(StepTeam& team, int gates, const float* a, std::int64_t lda, std::int64_t k,
                         const float* weights, float* c) const;
    // InputProjection::EachStep (D = 1) where the step reads m_b.xp: the team's columns of step t's
    // input projection, into it.
    void stepInputGemm(StepTeam& team, SliceProducts* packed, int layer, std::int64_t t, const Weights& w);
    // Row 0 of time step t of the layer's input (rows of layerInput(layer) floats).
    [[nodiscard]] const float* stepInputRows(int layer, std::int64_t t) const {
        return layerInput(layer) + t * m_lay.B * m_lay.layerInput(layer);
    }
    // InputProjection::PackedChunks: the input projection of the chunk of steps from time step t on,
    // into m_b.xp (the last chunk may be shorter); on a team, this thread's share of its rows, then
    // the barrier.
    void inputChunkGemm(StepTeam& team, int layer, std::int64_t t, const Weights& w);
    // The implementation of the input GEMMs (oneDNN's name), for the notes.
    [[nodiscard]] std::string inputGemmImplementation() const;
    // The input GEMM note's account of where the projection runs: ", 8 steps at a time, just
    // before them", or "" for all steps at once.
    [[nodiscard]] std::string whereInputIsProjected() const;
    // InputProjection::PackedRows: this team thread's rows of time step t's input projection, into
    // m_b.xp.
    void inputRowsGemm(StepTeam& team, int layer, std::int64_t t, const Weights& w);
    // Rows [rows.b0, rows.b1) of the input projection whose input rows start at x, into the same
    // rows of m_b.xp: on this team thread's planned product, or, where OpenMP gave the team fewer
    // threads than planned (planned null), through sgemm.
    void teamInputRows(StepTeam& team, InputGemm* planned, int layer, const float* x, RowSlice rows,
                       const Weights& w);
    // Row 0 of time step t's input projection in m_b.xp, whichever steps it holds.
    [[nodiscard]] const float* stepProjection(std::int64_t t) const {
        return m_b.xp.data() + t % inputProjectionSteps(m_lay, m_plan) * m_lay.B * m_lay.DGH();
    }
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
    // The checks of a stop request (Session::setStopToken): before each layer of a pass, and the
    // error of a recurrence whose team stopped before time step `step`.
    void stopBeforeLayer(const char* pass, int layer) const;
    [[noreturn]] void stoppedInRecurrence(const char* pass, int layer, int step) const;
    // One of the all-steps GEMMs, on the threads allStepsGemmThreads() gives it.
    void gemm(const GemmArgs& args) const;

    Problem m_problem;
    BlasLayout m_lay;
    GemmProvider m_provider;
    int m_threads;
    int m_loopThreads = 1;
    RecurrentPlan m_plan;
    std::vector<SliceProducts> m_products;  // [(layer * D + d) * team + thread], as m_plan says
    std::vector<AlignedFloats> m_fused;     // [(layer * D + d) * fusedCopies(m_plan) + copy]; if fused
    std::vector<AlignedFloats> m_fusedHByK; // [team thread]: FusedStepArgs::hByK; with FusedStream
    std::vector<AlignedFloats> m_paddedWhh; // [layer * D + d]; with PaddedCopy
    // [layer][i]: inputGemmShapes()'s products; only with isPackedInput(m_plan.input)
    std::vector<std::vector<InputGemm>> m_inputGemms;
    // Training: [layer][i] the product i of weightGradientShapes() on TransposedGemm, or none
    // (sgemm); the scratchpad they share.
    std::vector<std::vector<std::optional<TransposedGemm>>> m_weightGradients;
    AlignedFloats m_weightGradientScratchpad;
    BlasBuffers m_b;          // every buffer, from declareBlasBuffers()
    MemoryFootprint m_memory; // what the constructor allocated (and resolve() built), by category
    double m_loss = 0.0;
};

} // namespace rnnprof::cpu

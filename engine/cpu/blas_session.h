#pragma once
// The cpu-blas session: owns every buffer of one (config, shape, mode) and runs iterations.
// See blas_backend.h for the algorithm; blas_layout.h for the buffer sizes. Why it does not share
// gpu-generic's step sequence (engine/gpu/generic_rnn.h): see the note there.
#include "engine/backend.h"
#include "engine/cpu/blas_layout.h"
#include "engine/cpu/gemm.h"
#include "engine/cpu/packed_gemm.h"
#include "engine/cpu/step_team.h"
#include "engine/cpu/transposed_gemm.h"

#include <optional>
#include <vector>

namespace rnnprof::cpu {

// How cpu-blas runs the recurrence of one problem: the threads of a step (recurrentThreads) and the
// recurrent products on packed W_hh of each team thread, the same for every (layer, direction).
// Shared by the session, which creates them, and estimateMemory(), which sizes them.
struct RecurrentPlan {
    struct Slice {
        UnitSlice units;
        PackedGemm::Shape forward;                 // hRec[B, H] * (the slice's rows of every gate)^T
        std::optional<PackedGemm::Shape> backward; // training: (gate gradients)[B, GH] * W_hh[:, slice]
        std::int64_t outFloats = 0;                // the dense result of a team thread (SliceProducts::out)
        std::int64_t inFloats = 0; // stepInput in a team: the slice's own input projection [B, G*w]
    };
    RecurrentThreads threads;
    int gemmThreads = 1;       // the threads each packed product runs with
    std::vector<Slice> slices; // one per team thread; empty: no packed products (sgemm per step)
    bool fused = false;        // the fused step (fused_step.h) on each team thread's slice instead
    // Packed products of one direction from kMinStepInputBatch rows (inference in a team of several
    // threads: from kMinTeamStepInputBatch; training only in a team of one): each step projects
    // its own input, x_t * (the slice's rows of W_ih)^T on W_ih packed once, just before its
    // recurrent product, instead of one GEMM over all steps whose result the gate pass then reads
    // back from memory. A team of one writes it to a one-step buffer; a team's threads to their
    // slice's `in`, and their gate pass reads both products where they landed, in the slice's own
    // layout.
    bool stepInput = false;
    // Inference without stepInput: the input GEMM over all steps on W_ih packed once, in prepare(),
    // where sgemm packs W_ih again on every call (a third of the GEMM at T*B = 20 rows).
    bool inputPacked = false;
};
// The smallest batch whose recurrence projects each step's input (RecurrentPlan::stepInput), on a
// team of one and, in inference, on a team of several threads (whose gate pass then also skips two
// copies).
inline constexpr std::int64_t kMinStepInputBatch = 64;
inline constexpr std::int64_t kMinTeamStepInputBatch = 16;
// Training below batch 4 packs its recurrent products only on a team whose thread's slice of W_hh
// is at least this large (a team thread reads a slice of this size in place through sgemm from
// beyond its L2; a smaller one stays there either way, and the repack after every SGD step does
// not pay).
inline constexpr std::int64_t kMinSmallBatchPackedSliceBytes = std::int64_t(1) << 20;
// The input product of one team thread's slice in `layer` (RecurrentPlan::stepInput).
[[nodiscard]] PackedGemm::Shape stepInputShape(const BlasLayout& l, const RecurrentPlan::Slice& slice,
                                               int layer);
// The input GEMM over all steps of `layer` (RecurrentPlan::inputPacked): x[T*B, in] * W_ih^T.
[[nodiscard]] PackedGemm::Shape inputGemmShape(const BlasLayout& l, int layer);
// The named part "packed W_ih" (weights) of RecurrentPlan::inputPacked; empty without it.
[[nodiscard]] MemoryFootprint packedInputFootprint(const BlasLayout& l, const RecurrentPlan& plan,
                                                   int threads);
// The largest batch that runs the fused step (inference, LSTM and reset-after GRU) at any hidden
// size; larger batches run it where a block's weights fit in L1 (fusedBlockInL1()).
inline constexpr std::int64_t kFusedMaxBatch = 4;
[[nodiscard]] RecurrentPlan recurrentPlan(const BlasLayout& l, GemmProvider provider, int threads);
// Training whose steps run on one thread (recurrentThreads(): no team, no split) and whose GEMMs
// over all steps (input projection, weight and input gradients) come to less than this many FLOPs
// an iteration runs on one thread altogether: its serial parts (the steps, SGD) read what the other
// threads' GEMMs wrote from those threads' caches, and lost more to it than the GEMMs gained.
inline constexpr double kMinThreadedTrainingGemmFlops = 32e6;
// The threads a cpu-blas session of this layout runs on: the requested count (0: every core), or
// one by the rule above. The session and its memory estimate both use it.
[[nodiscard]] int sessionThreads(const BlasLayout& l, GemmProvider provider, int requested);
// The named part "packed W_hh" (weights) and the team's dense results (workspace) of all layers.
[[nodiscard]] MemoryFootprint packedProductsFootprint(const BlasLayout& l, const RecurrentPlan& plan);

// The weight-gradient products of one layer over all steps, c = a^T * b, in the order
// weightGradients() runs them: dW_ih = dXP^T * layer input (both directions at once), then per
// direction dW_hh = (gate gradients)^T * hRec (GRU reset-before: rows [0, 2H) on hRec, then the
// candidate's rows [2H, 3H) on r * hRec).
[[nodiscard]] std::vector<TransposedGemm::Shape> weightGradientShapes(const BlasLayout& l, int layer);
// The threads of a weight-gradient product that runs on TransposedGemm (oneDNN as the GEMM
// provider and transposedGemmPays()), 0 where it runs on sgemm.
[[nodiscard]] int weightGradientMatmulThreads(const TransposedGemm::Shape& shape, GemmProvider provider,
                                              int threads);
// The named part "weight-gradient scratchpad" (workspace): one buffer that the TransposedGemm
// products of every layer share, sized for the largest; empty when none runs on one.
[[nodiscard]] MemoryFootprint weightGradientFootprint(const BlasLayout& l, GemmProvider provider,
                                                      int threads);

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
    // The recurrent products of one team thread on one (layer, direction), on W_hh packed for its
    // slice of units [j0, j1) (width w): forward hRec[B, H] * (gate rows of the slice)^T -> [B, G*w],
    // backward (gate gradients)[B, GH] * W_hh[:, slice] -> [B, w]. `out` receives a result that
    // cannot land in place (a team of several threads): the step copies it to its columns, or with
    // stepInput its gate pass reads it there.
    struct SliceProducts {
        std::optional<PackedGemm> forward, backward;
        std::optional<PackedGemm> input; // RecurrentPlan::stepInput
        AlignedFloats out;
        AlignedFloats in;   // stepInput in a team: input projection [B, G*w], read by the gate pass
        AlignedFloats bias; // with `in`: the slice's b_ih [G*w], then its b_hh [G*w]
    };
    void createPackedProducts();
    void createPackedInputGemms();
    void createWeightGradientProducts();
    void packRecurrentWeights();
    // W_hh of every (layer, direction, team thread) row-blocked for the fused step, once.
    void packFusedSlices();
    // The fused step's copy for this team thread; null where the step runs GEMM and cell kernel.
    [[nodiscard]] const AlignedFloats* fusedSlice(const StepTeam& team, int layer, int d) const;
    [[nodiscard]] SliceProducts* products(StepTeam& team, int layer, int d);
    [[nodiscard]] int teamSize() const { return m_plan.threads.team; }
    void forward(PhaseHook& hook);
    void forwardLayer(PhaseHook& hook, int layer);
    void recurrentForward(StepTeam& team, int layer, const Weights& w);
    // Columns g*H + j (g < gates, j in the team's slice) of hp = hRec * W_hh^T (rows from `whh`).
    void gateGemm(StepTeam& team, SliceProducts* packed, int gates, const float* a, std::int64_t lda,
                  const float* whh, float* hp) const;
    // Columns g*H + j (g < gates, j in the team's slice; row stride G*H) of c = a * W^T, W = `weights`
    // [G*H, k]: the team's share of a gate product by sgemm, one call per gate.
    void teamGateColumns(StepTeam& team, int gates, const float* a, std::int64_t lda, std::int64_t k,
                         const float* weights, float* c) const;
    // RecurrentPlan::stepInput (D = 1) where the step reads m_b.xp: the team's columns of step t's
    // input projection, into it.
    void stepInputGemm(StepTeam& team, SliceProducts* packed, int layer, std::int64_t t, const Weights& w);
    // Row 0 of time step t of the layer's input (rows of layerInput(layer) floats).
    [[nodiscard]] const float* stepInputRows(int layer, std::int64_t t) const {
        return layerInput(layer) + t * m_lay.B * m_lay.layerInput(layer);
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
    std::vector<SliceProducts> m_products; // [(layer * D + d) * team + thread], as m_plan says
    std::vector<AlignedFloats> m_fused;    // the same index; only with m_plan.fused
    struct InputGemm {
        PackedGemm gemm;
        int threads; // allStepsGemmThreads() of its FLOPs
    };
    std::vector<InputGemm> m_inputGemms; // [layer]; only with m_plan.inputPacked
    // Training: [layer][i] the product i of weightGradientShapes() on TransposedGemm, or none
    // (sgemm); the scratchpad they share.
    std::vector<std::vector<std::optional<TransposedGemm>>> m_weightGradients;
    AlignedFloats m_weightGradientScratchpad;
    BlasBuffers m_b;          // every buffer, from declareBlasBuffers()
    MemoryFootprint m_memory; // what the constructor allocated (and resolve() built), by category
    double m_loss = 0.0;
};

} // namespace rnnprof::cpu

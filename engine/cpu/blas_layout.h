#pragma once
// Every plain buffer of a cpu-blas session, declared once (declareBlasBuffers; the packed copies
// and scratchpads are sized by blas_plan.h): the session allocates
// from the list and tallies what it got, estimateMemory() sums the same list without allocating.
#include "engine/backend.h"
#include "engine/cpu/cache_aligned.h"
#include "engine/params.h"
#include "engine/problem.h"
#include "engine/recurrence_dims.h"

#include <cstdint>
#include <functional>
#include <variant>
#include <vector>

namespace rnnprof::cpu {

struct BlasLayout : RecurrenceDims {
    std::int64_t paramCount = 0;
    bool bias = true;

    explicit BlasLayout(const Problem& problem);
};

// The buffers themselves, owned by the session. Per-direction arrays use [0, D).
struct BlasBuffers {
    using Buffer = AlignedFloats; // the team's threads write slices of its rows (cache_aligned.h)
    struct Kept {                 // per layer, training only
        Buffer saved[2], hrec[2], cells[2], rh[2];
        Buffer maskedInput; // dropout between layers
    };

    ResolvedProblem<float> in; // inputs, masks, and the parameters that training updates (resolve())
    ParamSet<float> grads;
    Buffer zeros; // bias stand-in when bias is off
    // The kernels run unchecked (branch-free, vectorised): every view they read or write must be
    // valid, so training's unkept outputs and reset-before GRU's go to scratch (inference's
    // kernels skip what they do not keep) and a missing mask is a mask of ones.
    Buffer ones;          // [B*H]
    Buffer scratchRec[2]; // one step's recurrent input: training's last step, GRU reset-before's

    std::vector<Buffer> y; // per layer [T*B, D*H]
    std::vector<Kept> kept;
    // xp: the input projection of `projectionSteps` steps [steps*B, D*G*H] (declareBlasBuffers)
    Buffer xp, hp[2];
    Buffer cstate[2][2];            // inference LSTM cell ping-pong per direction
    Buffer stepGates[2], stepRh[2]; // inference GRU reset_before
    Tensor<float> hN, cN;

    Buffer dy, dxp, dhp[2];
    Buffer dhCarry[2], dhRec[2], dcCarry[2], drh[2];
    Tensor<float> dx, dh0, dc0;
};

// Who fills a declared buffer: the session (zeros, or ones for the stand-in mask) or resolve(),
// which built it from the problem before the list runs (the session only counts it).
enum class BlasFill { Zeros, Ones, Resolved };

// Where the session keeps a buffer: its own (BlasBuffers::Buffer) or one of the engine's vectors
// (the resolved inputs and parameters, the gradients, the output tensors).
using BlasBufferRef = std::variant<BlasBuffers::Buffer*, std::vector<float>*>;

// Called once per buffer that exists for this problem, with its category, its element count and
// where the session keeps it.
using DeclareBlasBuffer = std::function<void(BufferCategory, std::int64_t, BlasBufferRef, BlasFill)>;

// The one list of cpu-blas's buffers. Sets the shapes of b's tensors and the sizes of its
// per-layer vectors; allocates nothing itself. `projectionSteps`: the steps of the input projection
// held at once (inputProjectionSteps(): T, a chunk of steps, or one where each step projects its own).
void declareBlasBuffers(const BlasLayout& l, std::int64_t projectionSteps, BlasBuffers& b,
                        const DeclareBlasBuffer& declare);

// Bytes by category of every buffer in the list, without allocating any.
[[nodiscard]] MemoryFootprint blasFootprint(const BlasLayout& l, std::int64_t projectionSteps);

} // namespace rnnprof::cpu

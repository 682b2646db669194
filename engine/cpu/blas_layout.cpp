#include "engine/cpu/blas_layout.h"

namespace rnnprof::cpu {

MemoryFootprint BlasLayout::footprint(std::int64_t paramCount) const {
    const std::uint64_t f = sizeof(float);
    const std::int64_t states = L * D * B * H;
    MemoryFootprint m;
    m.weights = std::uint64_t(paramCount) * f;
    // io: input x, output y, initial and final states (h, c), training target.
    std::int64_t io = TB() * I + TB() * DH() + states * (lstm ? 4 : 2);
    // Scratch of the forward pass: input projection, recurrent projection per direction.
    // plus the unchecked kernels' stand-ins: a mask of ones, one step's gates and recurrent input.
    std::int64_t work = TB() * DGH() + D * B * GH() + B * H + D * B * (savedWidth() + H);
    std::int64_t kept = 0;
    if (training) {
        m.gradients = m.weights;
        io += TB() * DH();
        // Kept for backward: the outputs of the layers below the last, and per layer and direction
        // the gate values, the recurrent inputs, LSTM cell states, GRU (reset before) r * h.
        kept = (L - 1) * TB() * DH() +
               L * D * TB() * (savedWidth() + H + (lstm ? H : 0) + (!lstm && !resetAfter ? H : 0));
        if (betweenDropout) kept += (L - 1) * TB() * DH(); // the masked inputs of the upper layers
        // Backward scratch: output and gate gradients, GRU recurrent-gate gradients, carries,
        // the input gradient and the initial-state gradients.
        work += TB() * DH() + TB() * DGH() + (lstm ? 0 : D * TB() * 3 * H) + D * B * H * 4 + TB() * I +
                2 * states;
    } else {
        work += (L - 1) * TB() * DH();                    // outputs of the layers below the last
        work += lstm ? 2 * D * B * H : 0;                 // cell state ping-pong
        work += !lstm && !resetAfter ? D * B * 4 * H : 0; // r, z, n and r * h of one step
    }
    m.io = std::uint64_t(io) * f;
    m.activations = std::uint64_t(kept) * f;
    m.workspace = std::uint64_t(work) * f;
    return m;
}

} // namespace rnnprof::cpu

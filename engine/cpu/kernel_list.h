#pragma once
// Every per-element kernel cpu-blas runs, as one list, so that each ISA translation unit
// instantiates exactly the same set (X is called with the kernel type).
#include "engine/kernels/step_kernels.h"

namespace rnnprof::cpu {

using ActsTanhSigmoid = gates::CellActs<gates::Act::Tanh, gates::Act::Sigmoid>;
using ActsTanhHard = gates::CellActs<gates::Act::Tanh, gates::Act::HardSigmoid>;
using ActsReluSigmoid = gates::CellActs<gates::Act::Relu, gates::Act::Sigmoid>;
using ActsReluHard = gates::CellActs<gates::Act::Relu, gates::Act::HardSigmoid>;

} // namespace rnnprof::cpu

#define RNNPROF_CPU_CELL_KERNELS(X, A)                                                                       \
    X(kernels::LstmForwardKernel<A, float, false>)                                                           \
    X(kernels::GruForwardKernel<A, float, false>)                                                            \
    X(kernels::LstmForwardKernel<A, float, false, false>)                                                    \
    X(kernels::GruForwardKernel<A, float, false, false>)                                                     \
    X(kernels::GruResetBeforeGatesKernel<A, float>)                                                          \
    X(kernels::GruResetBeforeOutputKernel<A, float, false>)                                                  \
    X(kernels::LstmBackwardKernel<A, float, false>)                                                          \
    X(kernels::GruBackwardKernel<A, float, false>)                                                           \
    X(kernels::GruResetBeforeBackwardKernel<A, float, false>)                                                \
    X(kernels::GruResetBeforeResetKernel<A, float>)

#define RNNPROF_CPU_KERNELS(X)                                                                               \
    RNNPROF_CPU_CELL_KERNELS(X, ActsTanhSigmoid)                                                             \
    RNNPROF_CPU_CELL_KERNELS(X, ActsTanhHard)                                                                \
    RNNPROF_CPU_CELL_KERNELS(X, ActsReluSigmoid)                                                             \
    RNNPROF_CPU_CELL_KERNELS(X, ActsReluHard)                                                                \
    X(kernels::MaskKernel<float, false>)                                                                     \
    X(kernels::InitialStateGradKernel<float, false>)

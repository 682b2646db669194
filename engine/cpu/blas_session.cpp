#include "engine/cpu/blas_session.h"

#include "engine/cpu/cpu_libraries.h"
#include "engine/cpu/fused_step.h"
#include "engine/cpu/kernel_runner.h"
#include "engine/cpu/onednn_support.h"
#include "engine/cpu/row_loops.h"
#include "engine/cpu/small_batch_gemm.h"
#include "engine/kernels/act_dispatch.h"
#include "engine/kernels/step_kernels.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include <variant>

namespace rnnprof::cpu {

using kernels::CRows;
using kernels::Rows;

namespace {

template <class T>
CRows<float> crows(const T* p, std::int64_t ld) {
    return {p, ld};
}

// dst[r, b * blockStride + c] = src[r, b * width + c] for `blocks` blocks of `width` columns: a
// team thread's dense product back into the columns of its units. A vector loop rather than
// std::copy_n: the blocks are a few cache lines (32 floats at H=64 on 2 threads), where a memmove
// call per block cost more than the copy (memmove was 8-12 % of a GRU training step at H=64, B=16).
void copyColumnBlocks(const float* src, std::int64_t rows, std::int64_t blocks, std::int64_t width,
                      float* dst, std::int64_t ldDst, std::int64_t blockStride) {
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t b = 0; b < blocks; ++b) {
            const float* from = src + (r * blocks + b) * width;
            float* to = dst + r * ldDst + b * blockStride;
#pragma omp simd
            for (std::int64_t c = 0; c < width; ++c)
                to[c] = from[c];
        }
}

} // namespace

BlasSession::BlasSession(const Problem& problem)
    : m_problem(problem), m_lay(problem), m_provider(problem.options.gemm),
      m_threads(sessionThreads(m_lay, m_provider, problem.options.threads)),
      m_loopThreads(m_provider == GemmProvider::OneDnn ? m_threads : 1),
      m_plan(recurrentPlan(m_lay, m_provider, m_threads)) {
    m_b.in = resolve(problem);
    m_problem.overrides = {}; // resolved into m_b.in (masks checked there); not kept alive twice
    if (m_lay.training) m_b.grads.layout = ParamLayout(problem.config);
    // Allocates what the list declares and counts what each buffer really holds, so that memory()
    // reports the allocation and a test can compare it with the estimate (blasFootprint).
    declareBlasBuffers(m_lay, inputProjectionSteps(m_lay, m_plan), m_b,
                       [&](BufferCategory c, std::int64_t n, BlasBufferRef ref, BlasFill fill) {
                           std::visit(
                               [&](auto* buffer) {
                                   if (fill != BlasFill::Resolved)
                                       buffer->assign(std::size_t(n), fill == BlasFill::Ones ? 1.0f : 0.0f);
                                   m_memory.add(c, std::uint64_t(buffer->size()) * sizeof(float));
                               },
                               ref);
                       });
    if (isPacked(m_plan.product)) {
        createPackedProducts();
        packRecurrentWeights();
    }
    if (isFused(m_plan.product)) packFusedSlices();
    if (m_plan.product == RecurrentProduct::PaddedCopy) copyPaddedWhh();
    if (isPackedInput(m_plan.input)) createPackedInputGemms();
    if (m_lay.training) createWeightGradientProducts();
}

void BlasSession::createWeightGradientProducts() {
    const BlasLayout& l = m_lay;
    m_weightGradients.resize(std::size_t(l.L));
    const std::int64_t floats = weightGradientScratchpadFloats(l, m_provider, m_threads);
    if (floats == 0) return; // every product on sgemm
    const dnnl::engine engine = cpuEngine();
    for (int layer = 0; layer < l.L; ++layer)
        for (const TransposedGemm::Shape& shape : weightGradientShapes(l, layer)) {
            auto& product = m_weightGradients[std::size_t(layer)].emplace_back();
            if (const int n = weightGradientMatmulThreads(shape, m_provider, m_threads))
                product.emplace(engine, shape, n);
        }
    m_weightGradientScratchpad.resize(std::size_t(floats));
    m_memory.addNamed("weight-gradient scratchpad", BufferCategory::Workspace,
                      std::uint64_t(floats) * sizeof(float));
}

void BlasSession::createPackedProducts() {
    const BlasLayout& l = m_lay;
    const int team = teamSize();
    const dnnl::engine engine = cpuEngine();
    m_products.resize(std::size_t(l.L * l.D * team));
    std::uint64_t packed = 0, input = 0, floats = 0, bias = 0;
    declarePackedProducts(l, m_plan, [&](const SliceProductsPlan& s) {
        SliceProducts& p = m_products[std::size_t((s.layer * l.D + s.direction) * team + s.slice)];
        packed += p.forward.emplace(engine, s.forward, m_plan.gemmThreads).bytes();
        if (s.backward) packed += p.backward.emplace(engine, *s.backward, m_plan.gemmThreads).bytes();
        if (s.input) input += p.input.emplace(engine, *s.input, m_plan.gemmThreads).bytes();
        p.out.resize(std::size_t(s.outFloats));
        p.in.resize(std::size_t(s.inFloats));
        p.paddedH.resize(std::size_t(s.paddedHFloats));
        p.bias.resize(std::size_t(s.biasFloats));
        floats += p.out.size() + p.in.size() + p.paddedH.size();
        bias += p.bias.size();
    });
    m_memory.addNamed("packed W_hh", BufferCategory::Weights, packed);
    if (m_plan.input == InputProjection::EachStep)
        m_memory.addNamed("packed W_ih", BufferCategory::Weights, input);
    m_memory.add(BufferCategory::Weights, bias * sizeof(float));
    m_memory.add(BufferCategory::Workspace, floats * sizeof(float));
}

void BlasSession::createPackedInputGemms() {
    const dnnl::engine engine = cpuEngine();
    std::uint64_t bytes = 0;
    for (int layer = 0; layer < m_lay.L; ++layer) {
        std::vector<InputGemm>& gemms = m_inputGemms.emplace_back();
        for (const PackedGemm::Shape& shape : inputGemmShapes(m_lay, m_plan, layer)) {
            const int threads = inputGemmThreads(m_plan, shape, m_threads);
            InputGemm& g = gemms.emplace_back(InputGemm{std::nullopt, threads});
            if (shape.m == 0) continue;
            g.gemm.emplace(engine, shape, threads);
            // W[k, n] = W_ih[n, k]: W_ih is [D*G*H, in], every direction's gates one after another.
            g.gemm->pack(weights(layer).wih, 1, shape.k);
            bytes += g.gemm->bytes();
        }
    }
    m_memory.addNamed("packed W_ih", BufferCategory::Weights, bytes);
}

// Once in prepare(), and after every SGD update in training.
void BlasSession::packRecurrentWeights() {
    const BlasLayout& l = m_lay;
    const int slices = teamSize();
    // Each thread of the step team packs its own slices, so that they are packed in parallel and
    // land in the cache of the core whose steps read them (training repacks after every SGD step:
    // on one thread this took 0.9 ms an iteration at LSTM H=512, B=1 on a team of two).
    StepTeam::run(m_provider, m_plan.threads, l.H, l.B, nullptr, [&](StepTeam& team) {
        team.guarded([&] {
            std::vector<float> rows; // the slice's rows of every gate, one after another
            // Packs (the rows g*H + j of `weights` [G*H, cols] for j in the slice, every gate g)^T.
            const auto packGateRows = [&](PackedGemm& product, const float* weights, std::int64_t cols,
                                          UnitSlice u) {
                if (u.width() == l.H) return product.pack(weights, 1, cols);
                const std::int64_t w = u.width();
                rows.resize(std::size_t(l.G * w * cols));
                for (std::int64_t g = 0; g < l.G; ++g)
                    for (std::int64_t j = 0; j < w; ++j)
                        std::copy_n(weights + (g * l.H + u.j0 + j) * cols, cols,
                                    rows.data() + (g * w + j) * cols);
                product.pack(rows.data(), 1, cols);
            };
            // OpenMP may give the team fewer threads than planned: each then packs several slices.
            for (int i = team.index(); i < slices; i += team.size())
                for (int layer = 0; layer < l.L; ++layer) {
                    const Weights weightsOf = weights(layer);
                    for (int d = 0; d < l.D; ++d) {
                        SliceProducts& p = m_products[std::size_t((layer * l.D + d) * slices + i)];
                        if (!p.forward) continue;
                        const float* whh = weightsOf.whh[d];
                        const std::int64_t in = l.layerInput(layer);
                        const UnitSlice u = m_plan.slices[std::size_t(i)].units;
                        const std::int64_t w = u.width();
                        packGateRows(*p.forward, whh, l.H, u);
                        if (p.input) packGateRows(*p.input, weightsOf.wih + d * l.GH() * in, in, u);
                        if (p.backward) p.backward->pack(whh + u.j0, l.H, 1);
                        if (!p.bias.empty())
                            for (std::int64_t g = 0; g < l.G; ++g) { // gate g's biases of the slice
                                std::copy_n(weightsOf.bih[d] + g * l.H + u.j0, w, p.bias.data() + g * w);
                                std::copy_n(weightsOf.bhh[d] + g * l.H + u.j0, w,
                                            p.bias.data() + (l.G + g) * w);
                            }
                    }
                }
        });
    });
}

void BlasSession::packFusedSlices() {
    const BlasLayout& l = m_lay;
    const int copies = fusedCopies(m_plan);
    m_fused.resize(std::size_t(l.L * l.D * copies));
    std::uint64_t floats = 0;
    for (int layer = 0; layer < l.L; ++layer) {
        const Weights w = weights(layer);
        for (int d = 0; d < l.D; ++d)
            for (int i = 0; i < copies; ++i) {
                const UnitSlice u = fusedUnits(l, m_plan, i);
                AlignedFloats& packed = m_fused[std::size_t((layer * l.D + d) * copies + i)];
                packed.resize(std::size_t(fusedFloats(l, m_plan, i)));
                packFusedSlice({.whh = w.whh[d],
                                .bih = w.bih[d],
                                .bhh = w.bhh[d],
                                .hidden = l.H,
                                .gates = int(l.G),
                                .j0 = u.j0,
                                .j1 = u.j1,
                                .order = fusedOrder()},
                               kernelIsa(), packed.data());
                floats += packed.size();
            }
    }
    m_memory.addNamed("packed W_hh", BufferCategory::Weights, floats * sizeof(float));
    m_fusedHByK.resize(m_plan.product == RecurrentProduct::FusedStream ? std::size_t(teamSize()) : 0);
    for (AlignedFloats& rows : m_fusedHByK) {
        rows.resize(std::size_t(fusedStreamRowsFloats(l, m_plan)));
        m_memory.add(BufferCategory::Workspace, rows.size() * sizeof(float));
    }
}

void BlasSession::copyPaddedWhh() {
    const BlasLayout& l = m_lay;
    const std::int64_t ld = paddedRowLd(l.H);
    if (m_paddedWhh.empty()) { // in prepare(): allocate the copies and count what they hold, once
        m_paddedWhh.resize(std::size_t(l.L * l.D));
        std::uint64_t floats = 0;
        for (AlignedFloats& copy : m_paddedWhh) {
            copy.assign(std::size_t(l.GH() * ld), 0.0f);
            floats += copy.size();
        }
        m_memory.addNamed("packed W_hh", BufferCategory::Weights, floats * sizeof(float));
    }
    for (int layer = 0; layer < l.L; ++layer)
        for (int d = 0; d < l.D; ++d) {
            const float* whh = m_b.in.params.data(layer, d, ParamKind::WeightHh);
            float* copy = m_paddedWhh[std::size_t(layer * l.D + d)].data();
            for (std::int64_t row = 0; row < l.GH(); ++row)
                std::copy_n(whh + row * l.H, l.H, copy + row * ld);
        }
}

const AlignedFloats* BlasSession::fusedSlice(const StepTeam& team, int layer, int d) const {
    if (m_fused.empty()) return nullptr;
    const int copies = fusedCopies(m_plan); // per (layer, direction), as packFusedSlices() laid them out
    const std::size_t first = std::size_t((layer * m_lay.D + d) * copies);
    // A team splitting the rows shares one copy, whatever number of threads OpenMP gave it.
    if (m_plan.threads.rows) return &m_fused[first];
    // OpenMP may give a team fewer threads than asked: the slices then differ from the packed ones.
    if (team.size() != copies) return nullptr;
    return &m_fused[first + std::size_t(team.index())];
}

BlasSession::SliceProducts* BlasSession::products(StepTeam& team, int layer, int d) {
    // OpenMP may give a team fewer threads than asked: the slices then differ from the packed ones.
    const int n = teamSize();
    if (m_products.empty() || team.size() != n) return nullptr;
    SliceProducts& p = m_products[std::size_t((layer * m_lay.D + d) * n + team.index())];
    return p.forward ? &p : nullptr;
}

BlasSession::Weights BlasSession::weights(int layer) const {
    Weights w;
    w.wih = m_b.in.params.data(layer, 0, ParamKind::WeightIh);
    for (int d = 0; d < m_lay.D; ++d) {
        w.whh[d] = m_b.in.params.data(layer, d, ParamKind::WeightHh);
        const float* bih = m_b.in.params.data(layer, d, ParamKind::BiasIh);
        const float* bhh = m_b.in.params.data(layer, d, ParamKind::BiasHh);
        w.bih[d] = bih ? bih : m_b.zeros.data();
        w.bhh[d] = bhh ? bhh : m_b.zeros.data();
        w.whhStep[d] = m_paddedWhh.empty() ? w.whh[d] : m_paddedWhh[std::size_t(layer * m_lay.D + d)].data();
    }
    w.ldStep = m_paddedWhh.empty() ? m_lay.H : paddedRowLd(m_lay.H);
    return w;
}

const float* BlasSession::layerInput(int layer) const {
    if (layer == 0) return m_b.in.data.x.ptr();
    if (m_lay.betweenDropout) return m_b.kept[std::size_t(layer)].maskedInput.data();
    return m_b.y[std::size_t(layer - 1)].data();
}

float* BlasSession::layerOutput(int layer) {
    return m_b.y[std::size_t(layer)].data();
}

const float* BlasSession::recurrentMask(int layer, int dir) const {
    if (!m_lay.recurrentDropout) return m_b.ones.data();
    return m_b.in.data.masks.recurrent[std::size_t(layer * m_lay.D + dir)].ptr();
}

void BlasSession::run(PhaseHook& hook) {
    CpuThreadScope threads(m_provider, m_threads);
    m_loopThreads = threads.loopThreads();
    forward(hook);
    if (!m_lay.training) return;
    backward(hook);
    if (stopRequested()) throw StopRequested("before update");
    update(hook);
}

void BlasSession::stopBeforeLayer(const char* pass, int layer) const {
    if (stopRequested())
        throw StopRequested("in " + std::string(pass) + ", before layer " + std::to_string(layer + 1) +
                            " of " + std::to_string(m_lay.L));
}

void BlasSession::stoppedInRecurrence(const char* pass, int layer, int step) const {
    throw StopRequested("in " + std::string(pass) + ", layer " + std::to_string(layer + 1) + " of " +
                        std::to_string(m_lay.L) + ", before time step " + std::to_string(step + 1) + " of " +
                        std::to_string(m_lay.T));
}

void BlasSession::gemm(const GemmArgs& args) const {
    // OpenBLAS keeps a small GEMM on one thread by itself; oneDNN's follow OpenMP's count.
    if (m_provider == GemmProvider::OneDnn &&
        allStepsGemmThreads(AllStepsGemm::Training, args.m, args.n, args.k, m_threads) == 1) {
        const OmpThreadCount one(1);
        sgemm(m_provider, args);
        return;
    }
    sgemm(m_provider, args);
}

// ---- forward ------------------------------------------------------------------------------

void BlasSession::forward(PhaseHook& hook) {
    PhaseScope phase(hook, Phase::Forward);
    for (int layer = 0; layer < m_lay.L; ++layer) {
        stopBeforeLayer("forward", layer);
        if (layer > 0 && m_lay.betweenDropout) {
            StepScope step(hook, "dropout");
            kernels::MaskKernel<float, false> k{
                crows(m_b.y[std::size_t(layer - 1)].data(), m_lay.DH()),
                crows(m_b.in.data.masks.between[std::size_t(layer - 1)].ptr(), m_lay.DH()),
                {m_b.kept[std::size_t(layer)].maskedInput.data(), m_lay.DH()},
                m_lay.DH()};
            runKernel(k, m_lay.TB(), 0, m_lay.DH(), m_loopThreads);
        }
        forwardLayer(hook, layer);
    }
}

BlasSession::StepAt BlasSession::stepAt(int layer, int d, int s) const {
    const TimeStep when = m_lay.step(d, s);
    return {when.t, when.prev, when.next, layer * m_lay.D + d};
}

void BlasSession::forwardLayer(PhaseHook& hook, int layer) {
    const BlasLayout& l = m_lay;
    const Weights w = weights(layer);
    // The input projection of all steps runs here, before the recurrence; the others run within it
    // (recurrentForward(): PackedChunks, PackedRows, EachStep) or beside it (PackedAhead).
    switch (m_plan.input) {
    case InputProjection::PackedAllSteps: {
        StepScope step(hook, kInputGemmStep);
        InputGemm& g = m_inputGemms[std::size_t(layer)].front();
        const OmpThreadCount count(g.threads);
        g.gemm->run(layerInput(layer), m_b.xp.data());
        break;
    }
    case InputProjection::AllSteps: {
        StepScope step(hook, kInputGemmStep);
        gemm({.opA = Op::N,
              .opB = Op::T,
              .m = l.TB(),
              .n = l.DGH(),
              .k = l.layerInput(layer),
              .a = layerInput(layer),
              .lda = l.layerInput(layer),
              .b = w.wih,
              .ldb = l.layerInput(layer),
              .c = m_b.xp.data(),
              .ldc = l.DGH()});
        break;
    }
    case InputProjection::PackedChunks:
    case InputProjection::PackedRows:
    case InputProjection::PackedAhead:
    case InputProjection::EachStep:
        break;
    }
    {
        StepScope step(hook, kRecurrentStepsStep);
        const int stopped = m_plan.input == InputProjection::PackedAhead
                                ? recurrenceBesideInput(layer, w)
                                : StepTeam::run(m_provider, m_plan.threads, l.H, l.B, stopToken(),
                                                [&](StepTeam& team) { recurrentForward(team, layer, w); });
        if (stopped >= 0) stoppedInRecurrence("forward", layer, stopped);
    }
    // Final states: the direction's last step is t = T-1 forward, t = 0 reverse.
    const float* y = layerOutput(layer);
    for (int d = 0; d < l.D; ++d) {
        const std::int64_t slot = layer * l.D + d;
        const std::int64_t tLast = l.lastTime(d);
        for (std::int64_t b = 0; b < l.B; ++b)
            std::memcpy(m_b.hN.ptr() + (slot * l.B + b) * l.H, y + (tLast * l.B + b) * l.DH() + d * l.H,
                        std::size_t(l.H) * sizeof(float));
        if (l.lstm) {
            const float* c = l.training ? m_b.kept[std::size_t(layer)].cells[d].data() + tLast * l.B * l.H
                                        : m_b.cstate[d][(l.T - 1) & 1].data();
            std::memcpy(m_b.cN.ptr() + slot * l.B * l.H, c, std::size_t(l.B * l.H) * sizeof(float));
        }
    }
}

int BlasSession::recurrenceBesideInput(int layer, const Weights& w) {
    const std::int64_t T = m_lay.T, chunk = m_plan.inputSteps, first = inputAheadFirstSteps(chunk),
                       rows = m_lay.B * m_lay.DGH();
    std::vector<InputGemm>& gemms = m_inputGemms[std::size_t(layer)]; // inputGemmShapes(): first, chunk, last
    StepsAhead ahead;
    return StepTeam::runBeside(
        m_provider, m_lay.H, m_lay.B, stopToken(), ahead,
        [&](StepTeam& team) {
            team.gemm(*gemms[0].gemm, stepInputRows(layer, 0), m_b.xp.data());
            ahead.projectedFirst(first);
            recurrentForward(team, layer, w, &ahead);
        },
        [&] {
            for (std::int64_t t = first; t < T && !ahead.abandoned(); t += chunk) {
                InputGemm& g = gemms[t + chunk > T ? 2 : 1];
                g.gemm->run(stepInputRows(layer, t), m_b.xp.data() + t * rows);
                ahead.publish(std::min(t + chunk, T));
            }
        });
}

void BlasSession::recurrentForward(StepTeam& team, int layer, const Weights& w, StepsAhead* ahead) {
    const BlasLayout& l = m_lay;
    const UnitSlice u = team.slice();
    const RowSlice r = team.rows();
    if (l.training) {
        // The first step's recurrent input h0 * mask; later ones are written by the cell kernels.
        for (int d = 0; d < l.D; ++d) {
            const std::int64_t t0 = l.firstTime(d);
            kernels::MaskKernel<float, false> k{
                crows(m_b.in.data.h0.ptr() + (layer * l.D + d) * l.B * l.H, l.H),
                crows(recurrentMask(layer, d), l.H),
                {m_b.kept[std::size_t(layer)].hrec[d].data() + t0 * l.B * l.H, l.H},
                l.H};
            runKernel(k, r.b0, r.b1, u.j0, u.j1, team.loopThreads());
        }
        team.barrier();
    }
    const bool resetBefore = l.resetBefore();
    for (int s = 0; s < l.T; ++s) {
        if (team.stopBefore(s)) return;              // every thread at the same step
        if (ahead && !ahead->waitFor(s + 1)) return; // its projection failed: rethrown after
        if (m_plan.input == InputProjection::PackedChunks && s % m_plan.inputSteps == 0)
            inputChunkGemm(team, layer, s, w);
        if (m_plan.input == InputProjection::PackedRows) inputRowsGemm(team, layer, s, w);
        for (int d = 0; d < l.D; ++d)
            forwardStep(team, layer, d, s, w);
        if (resetBefore) { // the candidate's product needs r * h of every unit
            team.barrier();
            for (int d = 0; d < l.D; ++d)
                forwardResetBeforeTail(team, layer, d, s, w);
        }
        team.barrier(); // the next step's GEMM reads every unit of this step's state
    }
}

bool BlasSession::readsRowsAt(const SliceProducts& p, std::int64_t ld) {
    return ld == p.forward->shape().lda || !p.paddedH.empty();
}

const float* BlasSession::productRows(SliceProducts& p, const float* a, std::int64_t ld) {
    if (p.paddedH.empty()) return a;
    const PackedGemm::Shape& s = p.forward->shape();
    for (std::int64_t b = 0; b < s.m; ++b)
        std::copy_n(a + b * ld, s.k, p.paddedH.data() + b * s.lda);
    return p.paddedH.data();
}

void BlasSession::gateGemm(StepTeam& team, SliceProducts* packed, int gates, const float* a, std::int64_t lda,
                           const float* whh, std::int64_t ldw, float* hp) const {
    const std::int64_t B = m_lay.B, H = m_lay.H, GH = m_lay.GH();
    const UnitSlice u = team.slice();
    const RowSlice r = team.rows(); // every row but on a team that splits them
    if (packed && gates == m_lay.G && readsRowsAt(*packed, lda)) {
        if (team.wholeUnits()) {
            team.gemm(*packed->forward, productRows(*packed, a + r.b0 * lda, lda), hp + r.b0 * GH);
        } else {
            team.gemm(*packed->forward, productRows(*packed, a, lda), packed->out.data());
            copyColumnBlocks(packed->out.data(), B, gates, u.width(), hp + u.j0, GH, H);
        }
        return;
    }
    if (team.wholeUnits()) {
        const GemmArgs args{.opA = Op::N,
                            .opB = Op::T,
                            .m = r.count(),
                            .n = gates * H,
                            .k = H,
                            .a = a + r.b0 * lda,
                            .lda = lda,
                            .b = whh,
                            .ldb = ldw,
                            .c = hp + r.b0 * GH,
                            .ldc = GH};
        if (m_plan.product == RecurrentProduct::PaddedCopy)
            team.guarded([&] { smallBatchGemm(args); });
        else
            team.gemm(args);
        return;
    }
    teamGateColumns(team, gates, a, lda, H, whh, hp); // a team never reads the padded copy
}

void BlasSession::teamGateColumns(StepTeam& team, int gates, const float* a, std::int64_t lda, std::int64_t k,
                                  const float* weights, float* c) const {
    const std::int64_t H = m_lay.H;
    const UnitSlice u = team.slice();
    for (int g = 0; g < gates; ++g)
        team.gemm({.opA = Op::N,
                   .opB = Op::T,
                   .m = m_lay.B,
                   .n = u.width(),
                   .k = k,
                   .a = a,
                   .lda = lda,
                   .b = weights + (g * H + u.j0) * k,
                   .ldb = k,
                   .c = c + g * H + u.j0,
                   .ldc = m_lay.GH()});
}

void BlasSession::stepInputGemm(StepTeam& team, SliceProducts* packed, int layer, std::int64_t t,
                                const Weights& w) {
    const std::int64_t in = m_lay.layerInput(layer);
    const float* x = stepInputRows(layer, t);
    if (packed && packed->input && team.single()) return team.gemm(*packed->input, x, m_b.xp.data());
    // OpenMP gave the team fewer threads than planned: sgemm on the team's columns.
    teamGateColumns(team, int(m_lay.G), x, in, in, w.wih, m_b.xp.data());
}

void BlasSession::inputChunkGemm(StepTeam& team, int layer, std::int64_t t, const Weights& w) {
    std::vector<InputGemm>& gemms = m_inputGemms[std::size_t(layer)];
    const bool last = t + m_plan.inputSteps > m_lay.T;
    if (m_plan.threads.team == 1) {
        InputGemm& g = last ? gemms.back() : gemms.front();
        const OmpThreadCount count(g.threads);
        team.gemm(*g.gemm, stepInputRows(layer, t), m_b.xp.data());
        return;
    }
    // A team: this thread's share of the chunk's rows.
    const std::int64_t rows = (last ? m_lay.T - t : m_plan.inputSteps) * m_lay.B;
    const RowSlice share = inputChunkShare(rows, team.index(), team.size());
    InputGemm* planned = team.size() == m_plan.threads.team
                             ? &gemms[std::size_t((last ? team.size() : 0) + team.index())]
                             : nullptr;
    teamInputRows(team, planned, layer, stepInputRows(layer, t), share, w);
    team.barrier(); // every thread's step reads every row
}

void BlasSession::inputRowsGemm(StepTeam& team, int layer, std::int64_t t, const Weights& w) {
    std::vector<InputGemm>& gemms = m_inputGemms[std::size_t(layer)];
    InputGemm* planned = team.size() == m_plan.threads.team ? &gemms[std::size_t(team.index())] : nullptr;
    teamInputRows(team, planned, layer, stepInputRows(layer, t), team.rows(), w);
}

void BlasSession::teamInputRows(StepTeam& team, InputGemm* planned, int layer, const float* x, RowSlice rows,
                                const Weights& w) {
    const std::int64_t in = m_lay.layerInput(layer), GH = m_lay.DGH();
    const float* a = x + rows.b0 * in;
    float* c = m_b.xp.data() + rows.b0 * GH;
    if (planned) {
        if (planned->gemm) team.gemm(*planned->gemm, a, c); // none for a share of no rows
        return;
    }
    if (rows.count() == 0) return;
    team.gemm({.opA = Op::N,
               .opB = Op::T,
               .m = rows.count(),
               .n = GH,
               .k = in,
               .a = a,
               .lda = in,
               .b = w.wih,
               .ldb = in,
               .c = c,
               .ldc = GH});
}

void BlasSession::forwardStep(StepTeam& team, int layer, int d, int s, const Weights& w) {
    const BlasLayout& l = m_lay;
    const std::int64_t B = l.B, H = l.H, GH = l.GH();
    const UnitSlice u = team.slice();
    const StepAt at = stepAt(layer, d, s);
    [[maybe_unused]] const std::int64_t t = at.t, tPrev = at.prev, tNext = at.next, slot = at.slot;
    float* y = layerOutput(layer);
    const float* mask = recurrentMask(layer, d);
    Kept* kept = l.training ? &m_b.kept[std::size_t(layer)] : nullptr;

    const CRows<float> xp = crows(stepProjection(t) + d * GH, l.DGH());
    const CRows<float> hPrev = s == 0 ? crows(m_b.in.data.h0.ptr() + slot * B * H, H)
                                      : crows(y + tPrev * B * l.DH() + d * H, l.DH());
    const CRows<float> hRec = kept ? crows(kept->hrec[d].data() + t * B * H, H) : hPrev;
    const Rows<float> hOut{y + t * B * l.DH() + d * H, l.DH()};
    // Training's next recurrent input (the last step's goes to scratch); inference writes none.
    const Rows<float> hRecNext{!kept         ? nullptr
                               : s + 1 < l.T ? kept->hrec[d].data() + tNext * B * H
                                             : m_b.scratchRec[d].data(),
                               H};
    // LSTM's cell state, row stride H.
    const float* cPrev = !l.lstm  ? nullptr
                         : s == 0 ? m_b.in.data.c0.ptr() + slot * B * H
                         : kept   ? kept->cells[d].data() + tPrev * B * H
                                  : m_b.cstate[d][(s - 1) & 1].data();
    float* c = !l.lstm ? nullptr : kept ? kept->cells[d].data() + t * B * H : m_b.cstate[d][s & 1].data();
    if (const AlignedFloats* fused = fusedSlice(team, layer, d)) { // inference: hRec is hPrev
        // The team's rows (every row unless it splits the rows): the same step on a shorter batch.
        const std::int64_t b0 = team.rows().b0;
        const FusedStepArgs args{.batch = team.rows().count(),
                                 .hidden = H,
                                 .h = hPrev.p + b0 * hPrev.ld,
                                 .ldh = hPrev.ld,
                                 .xp = xp.p + b0 * xp.ld,
                                 .ldxp = xp.ld,
                                 .cPrev = cPrev ? cPrev + b0 * H : nullptr,
                                 .c = c ? c + b0 * H : nullptr,
                                 .hOut = hOut.p + b0 * hOut.ld,
                                 .ldhOut = hOut.ld,
                                 .hByK = m_fusedHByK.empty() ? nullptr
                                                             : m_fusedHByK[std::size_t(team.index())].data()};
        kernels::withCellActs(m_problem.config, [&](auto acts) {
            fusedStep(acts, l.lstm, {fused->data(), u.j0, u.j1, fusedOrder(), fusedBackwards(s)}, args);
        });
        return;
    }
    float* hp = m_b.hp[d].data();
    const bool resetBefore = l.resetBefore();
    // The gate pass's inputs: both projections [B, G*H] with the team's units at columns g*H + j,
    // or, for a team thread with its own input projection (EachStep), its slice products as they
    // landed, [B, G*w] with unit j at column g*w + j - j0 (no copy into the shared buffers).
    struct GateInputs {
        CRows<float> xp, hp;
        const float *bih, *bhh;
        std::int64_t gateStride, unitOffset; // units [u.j0, u.j1) are columns [j0, j1) - unitOffset
    } in{xp, crows(hp, GH), w.bih[d], w.bhh[d], H, 0};
    SliceProducts* packed = products(team, layer, d);
    const bool eachStep = m_plan.input == InputProjection::EachStep;
    if (eachStep && packed && !packed->in.empty() && readsRowsAt(*packed, hRec.ld)) {
        const std::int64_t gw = l.G * u.width();
        team.gemm(*packed->input, stepInputRows(layer, t), packed->in.data());
        team.gemm(*packed->forward, productRows(*packed, hRec.p, hRec.ld), packed->out.data());
        in = {crows(packed->in.data(), gw),
              crows(packed->out.data(), gw),
              packed->bias.data(),
              packed->bias.data() + gw,
              u.width(),
              u.j0};
    } else {
        if (eachStep) stepInputGemm(team, packed, layer, t, w);
        gateGemm(team, packed, resetBefore ? 2 : int(l.G), hRec.p, hRec.ld, w.whhStep[d], w.ldStep, hp);
    }
    const std::int64_t o = in.unitOffset; // the state views below are shifted with the units
    const std::int64_t j0 = u.j0 - o, j1 = u.j1 - o;
    const RowSlice r = team.rows(); // every row but on a team that splits them

    const Rows<float> saved{kept ? kept->saved[d].data() + t * B * 4 * H : nullptr, 4 * H};
    kernels::withCellActs(m_problem.config, [&](auto acts) {
        using A = decltype(acts);
        // Inference keeps nothing for backward: its kernels write the state only (Keeps = false).
        const auto cell = [&](auto keeps) {
            constexpr bool Keeps = decltype(keeps)::value;
            const Rows<float> h{hOut.p + o, hOut.ld};
            if (l.lstm) {
                kernels::LstmForwardKernel<A, float, false, Keeps> k{
                    in.xp,         in.hp, in.bih, in.bhh,   crows(cPrev + o, H),
                    {c + o, H},    h,     saved,  hRecNext, crows(mask + o, H),
                    in.gateStride, acts};
                runKernel(k, r.b0, r.b1, j0, j1, team.loopThreads());
            } else {
                kernels::GruForwardKernel<A, float, false, Keeps> k{in.xp,
                                                                    in.hp,
                                                                    in.bih,
                                                                    in.bhh,
                                                                    crows(hPrev.p + o, hPrev.ld),
                                                                    h,
                                                                    saved,
                                                                    hRecNext,
                                                                    crows(mask + o, H),
                                                                    in.gateStride,
                                                                    acts};
                runKernel(k, r.b0, r.b1, j0, j1, team.loopThreads());
            }
        };
        if (l.lstm || l.resetAfter) {
            if (kept)
                cell(std::true_type{});
            else
                cell(std::false_type{});
        } else {
            float* gates = kept ? kept->saved[d].data() + t * B * 3 * H : m_b.stepGates[d].data();
            float* rh = kept ? kept->rh[d].data() + t * B * H : m_b.stepRh[d].data();
            kernels::GruResetBeforeGatesKernel<A, float> k1{
                xp, crows(hp, GH), w.bih[d], w.bhh[d], hRec, {gates, 3 * H}, {rh, H}, H, acts};
            runKernel(k1, r.b0, r.b1, u.j0, u.j1, team.loopThreads());
        }
    });
}

// GRU with reset_after = false: the candidate's recurrent product reads r * hRec of every unit
// (W_hn is rows [2H, 3H) of W_hh), then the output kernel.
void BlasSession::forwardResetBeforeTail(StepTeam& team, int layer, int d, int s, const Weights& w) {
    const BlasLayout& l = m_lay;
    const std::int64_t B = l.B, H = l.H, GH = l.GH();
    const UnitSlice u = team.slice();
    const StepAt at = stepAt(layer, d, s);
    [[maybe_unused]] const std::int64_t t = at.t, tPrev = at.prev, tNext = at.next, slot = at.slot;
    float* y = layerOutput(layer);
    Kept* kept = l.training ? &m_b.kept[std::size_t(layer)] : nullptr;
    float* gates = kept ? kept->saved[d].data() + t * B * 3 * H : m_b.stepGates[d].data();
    const float* rh = kept ? kept->rh[d].data() + t * B * H : m_b.stepRh[d].data();
    float* hp = m_b.hp[d].data();
    gateGemm(team, nullptr, 1, rh, H, w.whhStep[d] + 2 * H * w.ldStep, w.ldStep, hp + 2 * H);
    const CRows<float> hPrev = s == 0 ? crows(m_b.in.data.h0.ptr() + slot * B * H, H)
                                      : crows(y + tPrev * B * l.DH() + d * H, l.DH());
    const Rows<float> hRecNext{
        kept && s + 1 < l.T ? kept->hrec[d].data() + tNext * B * H : m_b.scratchRec[d].data(), H};
    kernels::withCellActs(m_problem.config, [&](auto acts) {
        using A = decltype(acts);
        kernels::GruResetBeforeOutputKernel<A, float, false> k2{crows(stepProjection(t) + d * GH, l.DGH()),
                                                                crows(hp + 2 * H, GH),
                                                                w.bih[d],
                                                                w.bhh[d],
                                                                hPrev,
                                                                {gates, 3 * H},
                                                                {y + t * B * l.DH() + d * H, l.DH()},
                                                                hRecNext,
                                                                crows(recurrentMask(layer, d), H),
                                                                H,
                                                                acts};
        runKernel(k2, team.rows().b0, team.rows().b1, u.j0, u.j1, team.loopThreads());
    });
}

// ---- backward -----------------------------------------------------------------------------

void BlasSession::backward(PhaseHook& hook) {
    PhaseScope phase(hook, Phase::Backward);
    const BlasLayout& l = m_lay;
    {
        if (m_b.in.outputGrad) {
            std::copy(m_b.in.outputGrad->data.begin(), m_b.in.outputGrad->data.end(), m_b.dy.begin());
        } else {
            StepScope step(hook, "loss");
            const float* y = m_b.y.back().data();
            const float* target = m_b.in.data.target.ptr();
            m_loss = mseAndGradient(y, target, m_b.dy.data(), l.TB() * l.DH(), m_loopThreads);
        }
    }
    for (int layer = l.L - 1; layer >= 0; --layer) {
        stopBeforeLayer("backward", layer);
        backwardLayer(hook, layer);
    }
}

void BlasSession::backwardLayer(PhaseHook& hook, int layer) {
    const BlasLayout& l = m_lay;
    const Weights w = weights(layer);
    for (int d = 0; d < l.D; ++d) {
        const std::int64_t offset = (layer * l.D + d) * l.B * l.H;
        const std::size_t n = std::size_t(l.B * l.H);
        std::fill(m_b.dhRec[d].begin(), m_b.dhRec[d].end(), 0.0f);
        if (m_b.in.hNGrad)
            std::copy_n(m_b.in.hNGrad->ptr() + offset, n, m_b.dhCarry[d].begin());
        else
            std::fill(m_b.dhCarry[d].begin(), m_b.dhCarry[d].end(), 0.0f);
        if (m_b.in.cNGrad && l.lstm)
            std::copy_n(m_b.in.cNGrad->ptr() + offset, n, m_b.dcCarry[d].begin());
        else
            std::fill(m_b.dcCarry[d].begin(), m_b.dcCarry[d].end(), 0.0f);
    }
    {
        StepScope step(hook, "recurrent steps (backward)");
        const int stopped = StepTeam::run(m_provider, m_plan.threads, l.H, l.B, stopToken(),
                                          [&](StepTeam& team) { recurrentBackward(team, layer, w); });
        if (stopped >= 0) stoppedInRecurrence("backward", layer, stopped);
    }
    {
        StepScope step(hook, "weight-gradient GEMM");
        weightGradients(layer);
    }
    if (layer == 0 && !m_problem.inputGradients) return;
    StepScope step(hook, "input-gradient GEMM");
    // The gradient of this layer's input: the gradient of the layer below's output (after undoing
    // dropout), or of x. The output gradient m_b.dy is no longer needed, so it receives it.
    const std::int64_t in = l.layerInput(layer);
    float* dIn = layer > 0 ? m_b.dy.data() : m_b.dx.ptr();
    gemm({.opA = Op::N,
          .opB = Op::N,
          .m = l.TB(),
          .n = in,
          .k = l.DGH(),
          .a = m_b.dxp.data(),
          .lda = l.DGH(),
          .b = w.wih,
          .ldb = in,
          .c = dIn,
          .ldc = in});
    if (layer > 0 && l.betweenDropout) {
        kernels::MaskKernel<float, false> k{
            crows(dIn, in),
            crows(m_b.in.data.masks.between[std::size_t(layer - 1)].ptr(), in),
            {dIn, in},
            in};
        runKernel(k, l.TB(), 0, in, m_loopThreads);
    }
}

void BlasSession::recurrentBackward(StepTeam& team, int layer, const Weights& w) {
    const BlasLayout& l = m_lay;
    const bool resetBefore = l.resetBefore();
    for (int s = l.T - 1; s >= 0; --s) {
        if (team.stopBefore(int(l.T) - 1 - s)) return; // every thread at the same step
        for (int d = 0; d < l.D; ++d)
            backwardCell(team, layer, d, s);
        team.barrier(); // the GEMMs read the gate gradients of every unit
        for (int d = 0; d < l.D; ++d)
            backwardGemm(team, layer, d, s, w);
        if (resetBefore) {
            team.barrier(); // dr of every unit, before the r, z part of the recurrent gradient
            for (int d = 0; d < l.D; ++d)
                backwardResetBeforeTail(team, layer, d, s, w);
        }
        // No barrier here: the next step's cell kernel reads only its own units' dhRec, and
        // writes gate gradients of another time step than the GEMMs still reading this one.
    }
    if (!m_problem.inputGradients) return;
    // Gradients of the initial states: what reached h_{-1} and c_{-1}.
    const UnitSlice u = team.slice();
    const RowSlice r = team.rows();
    for (int d = 0; d < l.D; ++d) {
        const std::int64_t offset = (layer * l.D + d) * l.B * l.H;
        kernels::InitialStateGradKernel<float, false> k{crows(m_b.dhCarry[d].data(), l.H),
                                                        crows(m_b.dhRec[d].data(), l.H),
                                                        crows(recurrentMask(layer, d), l.H),
                                                        {m_b.dh0.ptr() + offset, l.H},
                                                        l.H};
        runKernel(k, r.b0, r.b1, u.j0, u.j1, team.loopThreads());
        if (l.lstm)
            for (std::int64_t b = r.b0; b < r.b1; ++b)
                std::copy(m_b.dcCarry[d].begin() + b * l.H + u.j0, m_b.dcCarry[d].begin() + b * l.H + u.j1,
                          m_b.dc0.ptr() + offset + b * l.H + u.j0);
    }
}

void BlasSession::backwardCell(StepTeam& team, int layer, int d, int s) {
    const BlasLayout& l = m_lay;
    const std::int64_t B = l.B, H = l.H;
    const UnitSlice u = team.slice();
    const RowSlice r = team.rows(); // every row but on a team that splits them
    const StepAt at = stepAt(layer, d, s);
    [[maybe_unused]] const std::int64_t t = at.t, tPrev = at.prev, tNext = at.next, slot = at.slot;
    Kept& kept = m_b.kept[std::size_t(layer)];
    const float* y = layerOutput(layer);
    const CRows<float> dy = crows(m_b.dy.data() + t * B * l.DH() + d * H, l.DH());
    const CRows<float> mask = crows(recurrentMask(layer, d), H);
    const CRows<float> hPrev = s == 0 ? crows(m_b.in.data.h0.ptr() + slot * B * H, H)
                                      : crows(y + tPrev * B * l.DH() + d * H, l.DH());
    const Rows<float> dhCarry{m_b.dhCarry[d].data(), H};
    const CRows<float> dhRec = crows(m_b.dhRec[d].data(), H);
    const Rows<float> dxp{m_b.dxp.data() + t * B * l.DGH() + d * l.GH(), l.DGH()};
    kernels::withCellActs(m_problem.config, [&](auto acts) {
        using A = decltype(acts);
        if (l.lstm) {
            const CRows<float> cPrev = s == 0 ? crows(m_b.in.data.c0.ptr() + slot * B * H, H)
                                              : crows(kept.cells[d].data() + tPrev * B * H, H);
            kernels::LstmBackwardKernel<A, float, false> k{crows(kept.saved[d].data() + t * B * 4 * H, 4 * H),
                                                           crows(kept.cells[d].data() + t * B * H, H),
                                                           cPrev,
                                                           dy,
                                                           dhCarry,
                                                           dhRec,
                                                           mask,
                                                           {m_b.dcCarry[d].data(), H},
                                                           dxp,
                                                           H,
                                                           acts};
            runKernel(k, r.b0, r.b1, u.j0, u.j1, team.loopThreads());
            return;
        }
        const Rows<float> dhp{m_b.dhp[d].data() + t * B * 3 * H, 3 * H};
        if (l.resetAfter) {
            kernels::GruBackwardKernel<A, float, false> k{crows(kept.saved[d].data() + t * B * 4 * H, 4 * H),
                                                          hPrev,
                                                          dy,
                                                          dhCarry,
                                                          dhRec,
                                                          mask,
                                                          dxp,
                                                          dhp,
                                                          H,
                                                          acts};
            runKernel(k, r.b0, r.b1, u.j0, u.j1, team.loopThreads());
            return;
        }
        kernels::GruResetBeforeBackwardKernel<A, float, false> k{
            crows(kept.saved[d].data() + t * B * 3 * H, 3 * H),
            hPrev,
            dy,
            dhCarry,
            dhRec,
            mask,
            dxp,
            dhp,
            H,
            acts};
        runKernel(k, r.b0, r.b1, u.j0, u.j1, team.loopThreads());
    });
}

// dhRec[:, slice] = (gate gradients) * W_hh[:, slice] for LSTM and GRU reset_after; for GRU reset
// before, drh[:, slice] = dn * W_hn[:, slice], then dr and the r * drh part of dhRec.
void BlasSession::backwardGemm(StepTeam& team, int layer, int d, int s, const Weights& w) {
    const BlasLayout& l = m_lay;
    const std::int64_t B = l.B, H = l.H;
    const UnitSlice u = team.slice();
    const RowSlice r = team.rows(); // every row but on a team that splits them
    const std::int64_t t = stepAt(0, d, s).t;
    if (l.lstm || l.resetAfter) {
        const float* dg =
            l.lstm ? m_b.dxp.data() + t * B * l.DGH() + d * l.GH() : m_b.dhp[d].data() + t * B * 3 * H;
        const std::int64_t ld = l.lstm ? l.DGH() : 3 * H;
        if (SliceProducts* p = products(team, layer, d); p && p->backward) {
            if (team.wholeUnits()) {
                team.gemm(*p->backward, dg + r.b0 * ld, m_b.dhRec[d].data() + r.b0 * H);
            } else {
                team.gemm(*p->backward, dg, p->out.data());
                copyColumnBlocks(p->out.data(), B, 1, u.width(), m_b.dhRec[d].data() + u.j0, H, 0);
            }
            return;
        }
        team.gemm({.opA = Op::N,
                   .opB = Op::N,
                   .m = r.count(),
                   .n = u.width(),
                   .k = l.GH(),
                   .a = dg + r.b0 * ld,
                   .lda = ld,
                   .b = w.whh[d] + u.j0,
                   .ldb = H,
                   .c = m_b.dhRec[d].data() + r.b0 * H + u.j0,
                   .ldc = H});
        return;
    }
    const float* dhp = m_b.dhp[d].data() + t * B * 3 * H;
    team.gemm({.opA = Op::N,
               .opB = Op::N,
               .m = r.count(),
               .n = u.width(),
               .k = H,
               .a = dhp + r.b0 * 3 * H + 2 * H,
               .lda = 3 * H,
               .b = w.whh[d] + 2 * H * H + u.j0,
               .ldb = H,
               .c = m_b.drh[d].data() + r.b0 * H + u.j0,
               .ldc = H});
    Kept& kept = m_b.kept[std::size_t(layer)];
    const float* gates = kept.saved[d].data() + t * B * 3 * H;
    kernels::withCellActs(m_problem.config, [&](auto acts) {
        using A = decltype(acts);
        kernels::GruResetBeforeResetKernel<A, float> k{
            crows(gates, 3 * H),
            crows(kept.hrec[d].data() + t * B * H, H),
            crows(m_b.drh[d].data(), H),
            {m_b.dxp.data() + t * B * l.DGH() + d * l.GH(), l.DGH()},
            {m_b.dhp[d].data() + t * B * 3 * H, 3 * H},
            {m_b.dhRec[d].data(), H},
            H,
            acts};
        runKernel(k, r.b0, r.b1, u.j0, u.j1, team.loopThreads());
    });
}

// GRU reset before: dhRec[:, slice] += [dr, dz] * W_hh[0:2H, slice].
void BlasSession::backwardResetBeforeTail(StepTeam& team, int, int d, int s, const Weights& w) {
    const BlasLayout& l = m_lay;
    const std::int64_t B = l.B, H = l.H;
    const UnitSlice u = team.slice();
    const RowSlice r = team.rows(); // every row but on a team that splits them
    const std::int64_t t = stepAt(0, d, s).t;
    team.gemm({.opA = Op::N,
               .opB = Op::N,
               .m = r.count(),
               .n = u.width(),
               .k = 2 * H,
               .a = m_b.dhp[d].data() + (t * B + r.b0) * 3 * H,
               .lda = 3 * H,
               .b = w.whh[d] + u.j0,
               .ldb = H,
               .beta = 1.0f,
               .c = m_b.dhRec[d].data() + r.b0 * H + u.j0,
               .ldc = H});
}

void BlasSession::weightGradients(int layer) {
    const BlasLayout& l = m_lay;
    const std::int64_t H = l.H, GH = l.GH();
    Kept& kept = m_b.kept[std::size_t(layer)];
    // The operands of weightGradientShapes(), in its order.
    struct Operands {
        const float* a;
        const float* b;
        float* c;
    };
    std::vector<Operands> operands{
        {m_b.dxp.data(), layerInput(layer), m_b.grads.data(layer, 0, ParamKind::WeightIh)}};
    for (int d = 0; d < l.D; ++d) {
        float* dWhh = m_b.grads.data(layer, d, ParamKind::WeightHh);
        const float* dhp = l.lstm ? m_b.dxp.data() + d * GH : m_b.dhp[d].data();
        operands.push_back({dhp, kept.hrec[d].data(), dWhh});
        if (l.resetBefore()) operands.push_back({dhp + 2 * H, kept.rh[d].data(), dWhh + 2 * H * H});
    }
    const std::vector<TransposedGemm::Shape> shapes = weightGradientShapes(l, layer);
    auto& products = m_weightGradients[std::size_t(layer)];
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        const TransposedGemm::Shape& s = shapes[i];
        const Operands& o = operands[i];
        if (i < products.size() && products[i]) {
            products[i]->run(o.a, o.b, o.c, m_weightGradientScratchpad.data());
            continue;
        }
        gemm({.opA = Op::T,
              .opB = Op::N,
              .m = s.m,
              .n = s.n,
              .k = s.k,
              .a = o.a,
              .lda = s.lda,
              .b = o.b,
              .ldb = s.ldb,
              .c = o.c,
              .ldc = s.ldc});
    }
    // Bias gradients: b_ih's are the column sums of dXP (both directions are adjacent); LSTM's b_hh
    // gets the same gradient, GRU's the sums of dHP, which differ in the candidate's rows.
    float* dbih = m_b.grads.data(layer, 0, ParamKind::BiasIh);
    if (dbih) columnSums(m_b.dxp.data(), l.TB(), l.DGH(), l.DGH(), dbih, m_loopThreads);
    for (int d = 0; d < l.D; ++d)
        if (float* dbhh = m_b.grads.data(layer, d, ParamKind::BiasHh)) {
            if (l.lstm && dbih)
                std::copy_n(dbih + d * GH, GH, dbhh);
            else
                columnSums(m_b.dhp[d].data(), l.TB(), GH, 3 * H, dbhh, m_loopThreads);
        }
}

// ---- update and outputs ---------------------------------------------------------------------

void BlasSession::update(PhaseHook& hook) {
    PhaseScope phase(hook, Phase::Update);
    {
        StepScope step(hook, "SGD");
        sgdStep(m_b.in.params.values.data(), m_b.grads.values.data(), float(m_problem.options.learningRate),
                std::int64_t(m_b.in.params.values.size()), m_loopThreads);
    }
    if (!m_products.empty()) {
        StepScope pack(hook, "pack recurrent weights");
        packRecurrentWeights();
    }
    if (m_plan.product == RecurrentProduct::PaddedCopy) {
        StepScope pack(hook, "pack recurrent weights");
        copyPaddedWhh();
    }
}

RunOutputs BlasSession::outputs() const {
    const BlasLayout& l = m_lay;
    RunOutputs out;
    out.y = Tensor<float>({l.T, l.B, l.DH()});
    std::copy(m_b.y.back().begin(), m_b.y.back().end(), out.y.data.begin());
    out.hN = m_b.hN;
    out.cN = m_b.cN;
    out.training = l.training;
    if (l.training) {
        out.loss = m_loss;
        out.gradients.dParams = m_b.grads;
        if (m_problem.inputGradients) {
            out.gradients.dx = m_b.dx;
            out.gradients.dh0 = m_b.dh0;
            out.gradients.dc0 = m_b.dc0;
        }
        out.paramsAfter = m_b.in.params;
    }
    return out;
}

MemoryFootprint BlasSession::memory() const {
    return m_memory;
}

std::string BlasSession::inputGemmImplementation() const {
    for (const auto& layer : m_inputGemms)
        for (const InputGemm& g : layer)
            if (g.gemm) return g.gemm->implementation();
    return "none";
}

std::string BlasSession::whereInputIsProjected() const {
    const std::string steps = std::to_string(m_plan.inputSteps);
    switch (m_plan.input) {
    case InputProjection::PackedRows:
        return ", each team thread its rows of each step's, just before it";
    case InputProjection::PackedAhead:
        return ", the first " + std::to_string(inputAheadFirstSteps(m_plan.inputSteps)) +
               " steps' on the recurrence's thread, then " + steps +
               " steps at a time on a second thread, ahead of the recurrence";
    case InputProjection::PackedChunks:
        return m_plan.inputSteps == 1 ? ", each step's just before it"
                                      : ", " + steps + " steps at a time, just before them";
    default:
        return {};
    }
}

std::vector<std::string> BlasSession::notes() const {
    const RecurrentThreads& r = m_plan.threads;
    const int stepThreads = r.team > 1 ? r.team : r.singleTeam;
    std::vector<std::string> notes{
        std::string("GEMM: ") + providerName(m_provider) + ", " + threadCount(m_threads),
        std::string("step kernels: ") + isaName(kernelIsa()) +
            (*kernelIsaNote() ? std::string(" (") + kernelIsaNote() + ")" : std::string()) +
            ", recurrence on " + threadCount(stepThreads) +
            (r.team > 1 ? r.rows ? " (batch rows split across the team)" : " (units split across the team)"
                        : "") +
            (forcedStepTeam().note.empty() ? std::string() : " (" + forcedStepTeam().note + ")")};
    if (const int requested = resolveThreads(m_problem.options.threads); m_threads < requested)
        notes.push_back("1 thread of " + std::to_string(requested) +
                        ": training this small runs faster on one (its steps on one thread, its GEMMs over "
                        "all steps below " +
                        std::to_string(int(kMinThreadedTrainingGemmFlops / 1e6)) + " MFLOP an iteration)");
    if (m_plan.product == RecurrentProduct::FusedStream)
        notes.push_back("recurrent steps fused (inference, W_hh streamed from beyond L2 once a step): W_hh "
                        "blocked by gate once, every batch row in one pass (" +
                        std::to_string(fusedStreamRows(m_lay.B)) +
                        " rows), one gate at a time, product and gate math in one pass");
    else if (m_plan.product == RecurrentProduct::Fused)
        notes.push_back(std::string("recurrent steps fused (inference, ") +
                        (m_lay.B <= kFusedMaxBatch ? "batch <= " + std::to_string(kFusedMaxBatch)
                                                   : std::string("W_hh blocks in L1")) +
                        "): W_hh row-blocked once, product and gate math in one pass");
    if (m_plan.product == RecurrentProduct::PaddedCopy)
        notes.push_back("forward recurrent products (training, batch 1): own kernel on a copy of W_hh in "
                        "rows padded by " +
                        std::to_string(kPaddedRowFloats) +
                        " floats (its rows otherwise lie a multiple of 4 KiB "
                        "apart), made again after every SGD step");
    if (!m_products.empty())
        for (const SliceProducts& p : m_products)
            if (p.forward) {
                notes.push_back(
                    "recurrent GEMMs on W_hh packed once: " +
                    (p.forward->onPackedSgemm() ? std::string("oneDNN's packed sgemm")
                                                : "oneDNN matmul (" + p.forward->implementation() + ")") +
                    (p.input ? ", each step's input projection on W_ih packed once" : "") +
                    (m_plan.product == RecurrentProduct::PackedPaddedH
                         ? ", h_{t-1} copied into rows padded by " + std::to_string(kPaddedRowFloats) +
                               " floats (its rows otherwise lie a multiple of 4 KiB apart)"
                         : ""));
                break;
            }
    if (!m_inputGemms.empty())
        notes.push_back("input GEMM: oneDNN matmul on W_ih packed once (" + inputGemmImplementation() + ")" +
                        whereInputIsProjected());
    for (const auto& layer : m_weightGradients)
        if (const auto product =
                std::find_if(layer.begin(), layer.end(), [](const auto& p) { return p.has_value(); });
            product != layer.end()) {
            notes.push_back("weight gradients: oneDNN matmul on the transposed gate gradients (" +
                            (*product)->implementation() + ")");
            break;
        }
    if (m_provider == GemmProvider::OpenBlas)
        if (const std::string warning = openBlasKernelWarning(); !warning.empty()) notes.push_back(warning);
    return notes;
}

} // namespace rnnprof::cpu

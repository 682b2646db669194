// cpu-blas's recurrence: the threading rule (recurrentThreads), the recurrent weights packed once
// per prepare() and again after every SGD step (or copied into padded rows), h_{t-1} copied into
// padded rows for the packed sgemm, and inference's input projections (per step, or over all steps
// on W_ih packed once), checked against the double reference.
#include "engine/backend.h"
#include "engine/cpu/blas_plan.h"
#include "engine/cpu/blas_session.h"
#include "engine/cpu/cpu_libraries.h"
#include "engine/cpu/fused_step.h"
#include "engine/cpu/onednn_packed_sgemm.h"
#include "engine/cpu/recurrent_threads.h"
#include "engine/reference/reference_rnn.h"
#include "support/compare.h"
#include "support/cpu_problems.h"
#include "support/random_problems.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <tuple>

namespace rnnprof {
namespace {

using cpu::kMinStepFlopsPerThread;
using cpu::recurrentThreads;
using cpu::RecurrentThreads;

// Projecting each step's input (InputProjection::EachStep).
constexpr const char* kStepInputNote = "each step's input projection";
constexpr const char* kPackedInputNote = "input GEMM: oneDNN matmul on W_ih packed once";
constexpr const char* kPaddedWhhNote = "copy of W_hh in rows padded by";
constexpr const char* kPaddedHNote = "h_{t-1} copied into rows padded by";

using test::hasNote;

// How a plan projects the input: the chunk of PackedChunks or PackedAhead (0 for any other way),
// PackedRows, or any projection on W_ih packed once in prepare().
std::int64_t chunkOf(const cpu::RecurrentPlan& plan) {
    return plan.input == cpu::InputProjection::PackedChunks ? plan.inputSteps : 0;
}
std::int64_t aheadOf(const cpu::RecurrentPlan& plan) {
    return plan.input == cpu::InputProjection::PackedAhead ? plan.inputSteps : 0;
}
bool projectsRows(const cpu::RecurrentPlan& plan) {
    return plan.input == cpu::InputProjection::PackedRows;
}
bool projectsOnPackedWih(const cpu::RecurrentPlan& plan) {
    return cpu::isPackedInput(plan.input);
}

// Prepares cpu-blas for `p` and runs one iteration: the session, for its outputs, notes and memory.
std::unique_ptr<Session> runBlasOnce(const Problem& p) {
    const Backend* blas = builtinBackends().find("cpu-blas");
    if (!blas) {
        ADD_FAILURE() << "no cpu-blas backend";
        return nullptr;
    }
    auto session = blas->prepare(p);
    NullPhaseHook hook;
    session->run(hook);
    return session;
}

// LSTM and both forms of GRU, for the tests that run each of them.
struct CellForm {
    CellType type;
    bool resetAfter;
    const char* name;
};
constexpr CellForm kEveryCellForm[] = {
    {CellType::Lstm, true, "LSTM"}, {CellType::Gru, true, "GRU"}, {CellType::Gru, false, "GRU reset before"}};

double lstmStepFlops(double batch, double hidden) {
    return 2.0 * batch * 4.0 * hidden * hidden;
}

// Two layers of inference with input 24 (the second layer projects the first's output); the shape
// is the caller's.
Problem twoLayerInference(CellType cell, int hidden, int seed, int threads) {
    return test::inferenceProblem(cell, 24, hidden, 2, seed, threads);
}

// An inference session's y, h_n and (LSTM) c_n against the double reference of the same problem.
void expectInferenceEqualsTheReference(const Session& session, const Problem& p) {
    const RunOutputs out = session.outputs();
    const auto ref = reference::runIteration<double>(p);
    EXPECT_TRUE(test::tensorsClose(out.y.cast<double>(), ref.y, 1e-5, "output y"));
    EXPECT_TRUE(test::tensorsClose(out.hN.cast<double>(), ref.hN, 1e-5, "final h"));
    if (p.config.cell == CellType::Lstm) {
        EXPECT_TRUE(test::tensorsClose(out.cN.cast<double>(), ref.cN, 1e-5, "final c"));
    }
}

TEST(RecurrentThreads, EveryTeamThreadGetsEnoughUnitsAndWork) {
    for (const bool training : {false, true})
        for (int threads : {1, 2, 3, 8, 16, 64})
            for (std::int64_t hidden : {1, 16, 31, 64, 100, 127, 128, 256, 512, 1024, 4096})
                for (double batch : {1.0, 4.0, 64.0, 256.0}) {
                    const double flops = lstmStepFlops(batch, double(hidden));
                    const RecurrentThreads r = recurrentThreads(flops, hidden, threads, training);
                    SCOPED_TRACE(testing::Message() << threads << " threads, H=" << hidden << ", B=" << batch
                                                    << (training ? ", training" : ", inference"));
                    EXPECT_GE(r.team, 1);
                    EXPECT_LE(r.team, threads);
                    EXPECT_GE(r.singleTeam, 1);
                    EXPECT_LE(r.singleTeam, threads);
                    if (r.team > 1) {
                        EXPECT_EQ(r.singleTeam, 1);
                        EXPECT_GE(hidden, cpu::kMinTeamUnits * r.team);
                        // Every thread of the team owns units (unitSlice's 16-unit rounding left none idle).
                        EXPECT_GT(cpu::unitSlice(hidden, r.team - 1, r.team).width(), 0);
                        if (training) {
                            EXPECT_GE(hidden, cpu::kMinTrainingTeamUnits);
                        }
                        EXPECT_GE(flops / r.team,
                                  training ? cpu::kMinTrainingStepFlopsPerThread : kMinStepFlopsPerThread);
                    }
                    // A team of one runs its GEMMs on one thread or on all of them, never on some:
                    // that would shrink OpenMP's pool, whose threads libgomp then ends and restarts.
                    if (r.singleTeam > 1) {
                        EXPECT_EQ(r.singleTeam, threads);
                        const double teamByUnits =
                            double(std::min<std::int64_t>(hidden / cpu::kMinTeamUnits, threads));
                        const std::int64_t teamUnits =
                            training ? cpu::kMinTrainingTeamUnits : 2 * cpu::kMinTeamUnits;
                        EXPECT_TRUE(hidden < teamUnits || flops / teamByUnits > cpu::kMaxTeamShareFlops)
                            << "a team of " << teamByUnits << " threads would do";
                        EXPECT_GE(flops, 2 * (training ? cpu::kMinTrainingStepFlopsPerThread
                                                       : kMinStepFlopsPerThread));
                        EXPECT_GE(flops, cpu::kMinSplitStepFlops);
                    }
                }
}

TEST(RecurrentThreads, ATinyStepStaysOnOneThreadAndABigOneUsesEveryCore) {
    // B=1, H=64: 33 kFLOP a step, well under a microsecond of one core; a barrier would cost more.
    const RecurrentThreads tiny = recurrentThreads(lstmStepFlops(1, 64), 64, 16, false);
    EXPECT_EQ(tiny.team, 1);
    EXPECT_EQ(tiny.singleTeam, 1);
    const RecurrentThreads big = recurrentThreads(lstmStepFlops(64, 1024), 1024, 16, false);
    EXPECT_EQ(big.team, 16);
    // B=1, H=256: 524 kFLOP, work for 8 threads of 65 kFLOP (32 units each); H=512 on 10 threads'
    // worth of work would leave 2 of them no units (slices of 64): the team has 8.
    EXPECT_EQ(recurrentThreads(lstmStepFlops(1, 256), 256, 16, false).team, 8);
    EXPECT_EQ(recurrentThreads(10.5 * kMinStepFlopsPerThread, 512, 16, false).team, 8);
    // Few units: 16 units each allow a team of 4, which takes them although the work would pay
    // for more threads while each thread's share stays small (B=16: 131 kFLOP); with many rows
    // (B=512: 4.2 MFLOP a thread), or fewer than 32 units, a team of one runs its GEMMs on every
    // core instead.
    const RecurrentThreads narrow = recurrentThreads(lstmStepFlops(16, 64), 64, 16, false);
    EXPECT_EQ(narrow.team, 4);
    EXPECT_EQ(narrow.singleTeam, 1);
    const RecurrentThreads narrowButTall = recurrentThreads(lstmStepFlops(512, 64), 64, 16, false);
    EXPECT_EQ(narrowButTall.team, 1);
    EXPECT_EQ(narrowButTall.singleTeam, 16);
    const RecurrentThreads tooFewUnits = recurrentThreads(lstmStepFlops(256, 24), 24, 16, false);
    EXPECT_EQ(tooFewUnits.team, 1);
    EXPECT_EQ(tooFewUnits.singleTeam, 16);
}

// Training at B=1 whose team would run its products on sgemm (slices of W_hh under
// kMinSmallBatchPackedSliceBytes) takes a team of one on every GEMM thread instead, from a team of
// three on. Hand-derived: LSTM H=512 B=1 is 2.1 MFLOP a step, 13 threads' worth of training's
// 150 kFLOP, 11 of them with units (48 each), slices of 48 * 4 * 512 floats = 384 KiB; at H=1024 the
// team of 16 has 64 units, 1 MiB each, and packs them; on 2 threads the team of two keeps sgemm.
TEST(RecurrentThreads, SmallBatchTrainingSplitsItsGemmsWhereATeamWouldRunOnSgemm) {
    const auto training = [](int hidden, int batch) {
        Problem p;
        p.config.inputSize = 128;
        p.config.hiddenSize = hidden;
        p.shape = {.batch = batch, .seqLen = 20};
        p.mode = Mode::Training;
        return cpu::BlasLayout(p);
    };
    const RecurrentThreads h512 = cpu::layoutStepThreads(training(512, 1), 16);
    EXPECT_EQ(h512.team, 1);
    EXPECT_EQ(h512.singleTeam, 16);
    EXPECT_EQ(recurrentThreads(lstmStepFlops(1, 512), 512, 16, true).team, 11) << "what the team would be";
    EXPECT_EQ(cpu::layoutStepThreads(training(1024, 1), 16).team, 16) << "slices of 1 MiB: packed";
    EXPECT_EQ(cpu::layoutStepThreads(training(512, 4), 16).team, 16) << "batch 4 packs its slices";
    EXPECT_EQ(cpu::layoutStepThreads(training(512, 1), 2).team, 2);
    EXPECT_EQ(cpu::layoutStepThreads(training(256, 2), 2).team, 2) << "a team of two keeps sgemm";
}

// A team member needs 16 units (kMinTeamUnits): inference at H=48, B=12 (LSTM 221 kFLOP a step, GRU
// 166: work for two threads of 65 kFLOP, too few rows for a team over them) splits the units into
// 32 and 16 on two threads. y, h_n and c_n must be the double reference's, for LSTM and GRU.
TEST(RecurrentThreads, ATeamOfSixteenUnitSlicesEqualsTheReference) {
    if (availableCpuCores() < 2) GTEST_SKIP() << "one core: no team";
    for (CellType cell : {CellType::Lstm, CellType::Gru}) {
        SCOPED_TRACE(cell == CellType::Lstm ? "LSTM" : "GRU");
        Problem p = twoLayerInference(cell, 48, 23, 2);
        p.shape = {.batch = 12, .seqLen = 9};
        const auto session = runBlasOnce(p);
        ASSERT_NE(session, nullptr);
        expectInferenceEqualsTheReference(*session, p);
        EXPECT_TRUE(hasNote(session->notes(), "recurrence on 2 threads (units split across the team)"));
    }
}

// RNNPROF_STEP_TEAM replaces the rule's choice for a measurement, within the units and threads.
TEST(RecurrentThreads, AForcedStepTeamReplacesTheRuleWithinTheUnitsAndThreads) {
    const RecurrentThreads rule{.team = 3};
    const auto forced = [&](const char* value, std::int64_t units, int threads) {
        return cpu::forcedStepThreads(rule, cpu::parseForcedStepTeam(value), units, threads);
    };
    EXPECT_EQ(forced(nullptr, 256, 16).team, 3);
    EXPECT_EQ(forced("", 256, 16).team, 3);
    EXPECT_EQ(forced("8", 256, 16).team, 8);
    EXPECT_EQ(forced("32", 256, 16).team, 16) << "no more than the threads";
    EXPECT_EQ(forced("16", 64, 16).team, 4) << "16 units a thread at least";
    EXPECT_EQ(forced("1", 256, 16).team, 1);
    EXPECT_EQ(forced("1", 256, 16).singleTeam, 1);
    const RecurrentThreads split = forced("split", 256, 16);
    EXPECT_EQ(split.team, 1);
    EXPECT_EQ(split.singleTeam, 16);
    EXPECT_EQ(cpu::parseForcedStepTeam("8").note, "set by RNNPROF_STEP_TEAM=8");
    // "rows" keeps the rule's team (training may then split the rows at any hidden size).
    const cpu::ForcedStepTeam rows = cpu::parseForcedStepTeam("rows");
    EXPECT_TRUE(rows.rows);
    EXPECT_EQ(rows.note, "set by RNNPROF_STEP_TEAM=rows");
    EXPECT_EQ(cpu::forcedStepThreads(rule, rows, 256, 16).team, 3);
    EXPECT_FALSE(cpu::parseForcedStepTeam("8").rows);
    EXPECT_TRUE(cpu::parseForcedStepTeam(nullptr).note.empty());
    for (const char* bad : {"0", "-2", "eight", "8x", "99999"}) {
        const cpu::ForcedStepTeam parsed = cpu::parseForcedStepTeam(bad);
        EXPECT_EQ(parsed.team, 0) << bad;
        EXPECT_NE(parsed.note.find("ignored"), std::string::npos) << bad;
        EXPECT_EQ(forced(bad, 256, 16).team, 3) << bad;
    }
}

// The threads of this process, by id: a thread that ends and is started again gets a new id.
std::set<std::string> processThreads() {
    std::set<std::string> ids;
    for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task"))
        ids.insert(entry.path().filename().string());
    return ids;
}

// libgomp ends the threads of its pool that a narrower parallel region leaves out and starts them
// again at the next wide one: a run that mixed widths would start threads every time (13 per run
// of a team of 3 on the 16-core host, which made a step of LSTM inference at H=256, B=1 take 107
// us instead of 9.3). So after its first run a session starts no thread. Each shape takes another
// of the rule's branches: a step team narrower than the machine (H=256, B=1: eight threads on 16
// cores; H=64, B=16: four; H=64, B=64: eight that split the rows), a team of one whose GEMMs use
// every core or a team over the rows (H=24, B=256: too few units for a team over them), a full
// team, a training team, training teams over the rows (H=64, B=64: eight threads; B=16: two).
// Bites only with three cores or more (two widths other than one); CI's two cores pass it
// trivially, the 16-core host runs it from the bundle.
TEST(BlasThreads, AfterItsFirstRunASessionStartsNoThread) {
    const Backend* blas = builtinBackends().find("cpu-blas");
    ASSERT_NE(blas, nullptr);
    struct Shape {
        int hidden, batch;
        Mode mode;
    };
    for (const Shape& shape :
         {Shape{256, 1, Mode::Inference}, Shape{64, 16, Mode::Inference}, Shape{64, 64, Mode::Inference},
          Shape{24, 256, Mode::Inference}, Shape{512, 4, Mode::Inference}, Shape{256, 4, Mode::Training},
          Shape{64, 64, Mode::Training}, Shape{64, 16, Mode::Training}}) {
        Problem p;
        p.config.inputSize = 128;
        p.config.hiddenSize = shape.hidden;
        p.shape = {.batch = shape.batch, .seqLen = 4};
        p.mode = shape.mode;
        SCOPED_TRACE(test::describeProblem(p));
        auto session = blas->prepare(p);
        NullPhaseHook hook;
        session->run(hook);
        const std::set<std::string> before = processThreads();
        for (int i = 0; i < 3; ++i)
            session->run(hook);
        EXPECT_EQ(processThreads(), before) << availableCpuCores() << " cores";
    }
}

TEST(RecurrentThreads, TrainingOfASmallLayerRunsNoTeam) {
    // H=64, B=64 on 2 and 16 threads: inference splits the units (over two and four threads),
    // training forms no team over the units but keeps one thread for the step and splits its GEMMs
    // over every core (backward exchanges every unit's gate gradients each step); from 128 units
    // training forms a team too (B=16). (The session's plan then splits such a layer's rows where
    // the batch allows: BlasRowTeam.)
    for (int threads : {2, 16}) {
        EXPECT_EQ(recurrentThreads(lstmStepFlops(64, 64), 64, threads, false).team, std::min(threads, 4));
        const RecurrentThreads training = recurrentThreads(lstmStepFlops(64, 64), 64, threads, true);
        EXPECT_EQ(training.team, 1);
        EXPECT_EQ(training.singleTeam, threads);
        EXPECT_GT(recurrentThreads(lstmStepFlops(16, 128), 128, threads, true).team, 1);
    }
}

TEST(RecurrentThreads, ASmallStepWithoutATeamStaysOnOneThread) {
    // Training at H=64, B=16: 2 * 16 * 256 * 64 = 524 kFLOP a step, work for three threads of
    // kMinStepFlopsPerThread but no team (64 units). Splitting a product that small over the pool
    // costs more than it saves (kMinSplitStepFlops), so one thread runs the step; at B=64
    // (2.1 MFLOP) oneDNN splits it over every thread.
    for (int threads : {2, 16}) {
        const RecurrentThreads small = recurrentThreads(lstmStepFlops(16, 64), 64, threads, true);
        EXPECT_EQ(small.team, 1);
        EXPECT_EQ(small.singleTeam, 1);
        EXPECT_EQ(recurrentThreads(lstmStepFlops(64, 64), 64, threads, true).singleTeam, threads);
        // The same in inference where the units allow no team: H=24, B=128 is 590 kFLOP.
        EXPECT_EQ(recurrentThreads(lstmStepFlops(128, 24), 24, threads, false).singleTeam, 1);
    }
}

// Training whose steps run on one thread and whose all-steps GEMMs are small runs on one thread
// altogether (cpu::sessionThreads): LSTM I=128, H=64 (131 kFLOP a step at B=4: no team, no split).
// Its GEMMs over all steps, 2 * T*B * 256 * (128 + 128 + 64): 13.1 MFLOP at B=4, T=20, below the
// 32 MFLOP bound; 65.5 MFLOP at T=100. Needs two cores (sessionThreads never asks for more than
// the machine has).
TEST(BlasThreads, SmallTrainingRunsOnOneThread) {
    if (availableCpuCores() < 2) GTEST_SKIP() << "one core: every session runs on one thread";
    const auto problem = [](int hidden, int batch, int seqLen, Mode mode) {
        Problem p;
        p.config.inputSize = 128;
        p.config.hiddenSize = hidden;
        p.shape = {.batch = batch, .seqLen = seqLen};
        p.mode = mode;
        p.options.threads = 2;
        return p;
    };
    const auto threads = [](const Problem& p) {
        return cpu::sessionThreads(cpu::BlasLayout(p), p.options.gemm, p.options.threads);
    };
    const Problem small = problem(64, 4, 20, Mode::Training);
    EXPECT_EQ(threads(small), 1);
    EXPECT_EQ(threads(problem(64, 4, 100, Mode::Training)), 2) << "65.5 MFLOP of all-steps GEMMs";
    EXPECT_EQ(threads(problem(64, 4, 20, Mode::Inference)), 2) << "inference keeps every thread";
    EXPECT_EQ(threads(problem(256, 1, 20, Mode::Training)), 2) << "a team of two runs the steps";
    Problem openBlas = small;
    openBlas.options.gemm = GemmProvider::OpenBlas;
    EXPECT_EQ(threads(openBlas), 2);
    // The session says so, runs on one thread, and its memory estimate sizes that session.
    const Backend* blas = builtinBackends().find("cpu-blas");
    ASSERT_NE(blas, nullptr);
    const auto session = runBlasOnce(small);
    ASSERT_NE(session, nullptr);
    const auto notes = session->notes();
    EXPECT_TRUE(hasNote(notes, "GEMM: oneDNN sgemm, 1 thread"));
    EXPECT_TRUE(hasNote(notes, "1 thread of 2: training this small runs faster on one"));
    const MemoryFootprint estimate = blas->estimateMemory(small);
    EXPECT_EQ(estimate.weights, session->memory().weights);
    EXPECT_EQ(estimate.workspace, session->memory().workspace);
    const RunOutputs out = session->outputs();
    const auto ref = reference::runIteration<double>(small);
    EXPECT_NEAR(out.loss, ref.loss, 1e-5 * std::max(1.0, ref.loss));
}

TEST(RecurrentThreads, TrainingSplitsALargeStepOnlyInItsGemms) {
    // LSTM H=256, B=256 on 2 threads: 2 * 256 * 1024 * 256 = 134 MFLOP a step, 67 MFLOP for each
    // of a team of two. Inference takes the team; training runs a team of one whose GEMMs split
    // the rows on both threads. At B=4 each of two gets 1.05 MFLOP, and training forms the team.
    const RecurrentThreads inference = recurrentThreads(lstmStepFlops(256, 256), 256, 2, false);
    EXPECT_EQ(inference.team, 2);
    const RecurrentThreads training = recurrentThreads(lstmStepFlops(256, 256), 256, 2, true);
    EXPECT_EQ(training.team, 1);
    EXPECT_EQ(training.singleTeam, 2);
    EXPECT_EQ(recurrentThreads(lstmStepFlops(4, 256), 256, 2, true).team, 2);
    // 16 threads, H=1024, B=64: 537 MFLOP, 34 MFLOP for each of a team of 16.
    EXPECT_EQ(recurrentThreads(lstmStepFlops(64, 1024), 1024, 16, false).team, 16);
    const RecurrentThreads wide = recurrentThreads(lstmStepFlops(64, 1024), 1024, 16, true);
    EXPECT_EQ(wide.team, 1);
    EXPECT_EQ(wide.singleTeam, 16);
}

TEST(RecurrentThreads, AnAllStepsGemmRunsOnOneThreadOrOnAll) {
    using cpu::AllStepsGemm;
    for (AllStepsGemm gemm : {AllStepsGemm::Training, AllStepsGemm::InferenceInput})
        for (int threads : {1, 2, 16})
            for (std::int64_t m : {1, 20, 100, 2000, 20000}) {
                const int n = cpu::allStepsGemmThreads(gemm, m, 256, 128, threads);
                EXPECT_TRUE(n == 1 || n == threads) << m << " rows, " << threads << " threads: " << n;
            }
    // Training's input projection of LSTM H=64 at B=1, T=20 (I=128): 1.3 MFLOP, less than a
    // fork/join pays for; at B=64, 84 MFLOP.
    EXPECT_EQ(cpu::allStepsGemmThreads(AllStepsGemm::Training, 20, 4 * 64, 128, 16), 1);
    EXPECT_EQ(cpu::allStepsGemmThreads(AllStepsGemm::Training, 20 * 64, 4 * 64, 128, 16), 16);
}

// Inference's input projection of all steps is the one fork of an iteration whose recurrence runs
// on one thread, and splits from 0.5 MFLOP: LSTM H=64 at B=1, T=20 (I=128, 1.3 MFLOP) on every
// thread, where training's all-steps GEMMs of that size stay on one; GRU H=16 (0.25 MFLOP) on one.
TEST(RecurrentThreads, InferencesInputProjectionSplitsFromASmallerGemmThanTrainingsGemms) {
    using cpu::AllStepsGemm;
    EXPECT_EQ(cpu::allStepsGemmThreads(AllStepsGemm::InferenceInput, 20, 4 * 64, 128, 16), 16);
    EXPECT_EQ(cpu::allStepsGemmThreads(AllStepsGemm::Training, 20, 4 * 64, 128, 16), 1);
    EXPECT_EQ(cpu::allStepsGemmThreads(AllStepsGemm::InferenceInput, 20, 3 * 16, 128, 16), 1);

    // In a plan: LSTM inference, I=160, H=64, B=1, T=20 on two threads runs its recurrence on a
    // team of one and its input GEMM (W_ih packed once, 1.6 MFLOP) on both threads, before the
    // steps (an input more than twice the hidden size is not projected beside them: PackedAhead).
    Problem p;
    p.config.cell = CellType::Lstm;
    p.config.inputSize = 160;
    p.config.hiddenSize = 64;
    p.shape = {1, 20};
    p.mode = Mode::Inference;
    const cpu::BlasLayout layout(p);
    const cpu::RecurrentPlan plan = cpu::recurrentPlan(layout, GemmProvider::OneDnn, 2);
    ASSERT_TRUE(projectsOnPackedWih(plan));
    EXPECT_EQ(plan.threads.team, 1);
    EXPECT_EQ(aheadOf(plan), 0);
    const auto shapes = cpu::inputGemmShapes(layout, plan, 0);
    ASSERT_EQ(shapes.size(), 1u);
    EXPECT_EQ(shapes[0].m, 20);
    EXPECT_EQ(cpu::inputGemmThreads(plan, shapes[0], 2), 2);
}

class BlasRepackTest : public testing::TestWithParam<std::tuple<CellType, int, int>> {};

// The second training run of a session starts from the parameters its first run left (SGD): its
// loss and output must be the reference's on those parameters, which fails if the packed copy of
// W_hh (and at B = 64, of W_ih for the per-step input projection) were not refreshed after the
// update. The first run's parameter gradients must be the reference's too: at B = 1 (H = 512) and
// B = 4 on two threads the backward steps run on each team thread's packed slice of W_hh, which
// that thread packed itself.
TEST_P(BlasRepackTest, SecondTrainingRunUsesTheUpdatedWeights) {
    const auto [cell, threads, batch] = GetParam();
    Problem p;
    p.config.cell = cell;
    p.config.inputSize = 24;
    p.config.hiddenSize = batch == 1 ? 512 : 256; // B=1 packs only slices of 1 MiB or more
    p.config.seed = 5;
    p.shape = {.batch = batch, .seqLen = 5};
    p.mode = Mode::Training;
    p.options.threads = threads;
    p.options.learningRate = 0.5; // a visible change of W_hh between the runs
    const Backend* blas = builtinBackends().find("cpu-blas");
    ASSERT_NE(blas, nullptr);
    auto session = blas->prepare(p);
    NullPhaseHook hook;
    session->run(hook);
    const RunOutputs first = session->outputs();
    session->run(hook);
    const RunOutputs second = session->outputs();

    Problem updated = p;
    updated.overrides.params = std::make_shared<const ParamSet<float>>(first.paramsAfter);
    const auto ref = reference::runIteration<double>(updated);
    const auto refFirst = reference::runIteration<double>(p);
    test::expectParamGradientsClose(first.gradients.dParams, refFirst.gradients.dParams, 1e-4);
    EXPECT_TRUE(test::tensorsClose(second.y.cast<double>(), ref.y, 1e-4, "output of the second run"));
    EXPECT_NEAR(second.loss, ref.loss, 1e-4 * std::max(1.0, ref.loss));
    EXPECT_GT(std::abs(ref.loss - refFirst.loss), 1e-6)
        << "the update must change the loss for this check to bite";

    const auto notes = session->notes();
    if (threads > 1 && availableCpuCores() > 1) {
        // B=1 and 4: 2.1 MFLOP a step (LSTM), which a team of two splits; B=64: 67 MFLOP
        // for each of two, which training leaves to a team of one whose GEMMs run on both threads
        // (recurrent_threads.h).
        const bool team = batch < cpu::kMinStepInputBatch;
        EXPECT_TRUE(hasNote(notes, "recurrence on 2 threads"));
        EXPECT_EQ(hasNote(notes, "units split across the team"), team)
            << "this problem is meant to run on " << (team ? "a two-thread team" : "a team of one");
    }
    // Packed products: always from B = 4; at B = 1 only on a team (here of two slices of 2 and 1.5
    // MiB, blas_session.cpp).
    const bool packed = batch >= 4 || hasNote(notes, "units split across the team");
    EXPECT_EQ(hasNote(notes, "recurrent GEMMs on W_hh packed once"), packed);
    if (batch >= cpu::kMinStepInputBatch) {
        EXPECT_TRUE(hasNote(notes, kStepInputNote)) << "this problem is meant to project per step";
    }
}

INSTANTIATE_TEST_SUITE_P(Cells, BlasRepackTest,
                         testing::Combine(testing::Values(CellType::Lstm, CellType::Gru),
                                          testing::Values(1, 2),
                                          testing::Values(1, 4, int(cpu::kMinStepInputBatch))));

// Below batch 4, training packs W_hh only on a team whose threads' slices are large enough to fall
// out of their L2 when sgemm reads them in place (kMinSmallBatchPackedSliceBytes); a team of one,
// or slices of half a MiB, keep sgemm, which was faster there. LSTM at B=1 on two threads: H=256
// gives slices of 4 * 128 * 256 floats (0.5 MiB), H=512 of 4 * 256 * 512 (2 MiB).
TEST(BlasSmallBatchTraining, PacksOnlyLargeSlicesOfATeam) {
    const Backend* blas = builtinBackends().find("cpu-blas");
    ASSERT_NE(blas, nullptr);
    const auto notesOf = [&](int hidden, int threads) {
        Problem p;
        p.config.cell = CellType::Lstm;
        p.config.inputSize = 24;
        p.config.hiddenSize = hidden;
        p.shape = {.batch = 1, .seqLen = 3};
        p.mode = Mode::Training;
        p.options.threads = threads;
        return blas->prepare(p)->notes();
    };
    const char* packed = "recurrent GEMMs on W_hh packed once";
    EXPECT_FALSE(hasNote(notesOf(512, 1), packed)) << "a team of one keeps sgemm at B=1";
    if (availableCpuCores() < 2) GTEST_SKIP() << "needs two cores for a team of two";
    // The premise: the bound lies between the two slices.
    ASSERT_LT(std::int64_t(4 * 128 * 256 * sizeof(float)), cpu::kMinSmallBatchPackedSliceBytes);
    ASSERT_GE(std::int64_t(4 * 256 * 512 * sizeof(float)), cpu::kMinSmallBatchPackedSliceBytes);
    const auto small = notesOf(256, 2), large = notesOf(512, 2);
    EXPECT_TRUE(hasNote(small, "units split across the team"));
    EXPECT_FALSE(hasNote(small, packed));
    EXPECT_TRUE(hasNote(large, "units split across the team"));
    EXPECT_TRUE(hasNote(large, packed));
}

struct PaddedCase {
    CellType cell;
    bool resetAfter;
    int layers;
    bool bidirectional;
};

class BlasPaddedWhhTest : public testing::TestWithParam<PaddedCase> {};

// Training at batch 1 on one thread with H = 1024, whose rows of W_hh lie 4 KiB apart, runs each
// step's forward product on a copy of W_hh in padded rows (RecurrentProduct::PaddedCopy), made again
// after every SGD step. The first run's gradients and the second run's output and loss must be the
// reference's (on the parameters the first run left), which fails if the copy were wrong or not
// refreshed. GRU with reset_before reads the candidate's rows of the copy on their own; two
// bidirectional layers read one copy per (layer, direction).
TEST_P(BlasPaddedWhhTest, TrainingOnThePaddedCopyEqualsTheReference) {
    const PaddedCase c = GetParam();
    Problem p;
    p.config.cell = c.cell;
    p.config.resetAfter = c.resetAfter;
    p.config.layers = c.layers;
    p.config.bidirectional = c.bidirectional;
    p.config.inputSize = 24;
    p.config.hiddenSize = 1024;
    p.config.seed = 7;
    p.shape = {.batch = 1, .seqLen = 3};
    p.mode = Mode::Training;
    p.options.threads = 1;
    p.options.learningRate = 0.5; // a visible change of W_hh between the runs
    const Backend* blas = builtinBackends().find("cpu-blas");
    ASSERT_NE(blas, nullptr);
    auto session = blas->prepare(p);
    EXPECT_TRUE(hasNote(session->notes(), kPaddedWhhNote))
        << "this problem is meant to run on the padded copy";
    NullPhaseHook hook;
    session->run(hook);
    const RunOutputs first = session->outputs();
    session->run(hook);
    const RunOutputs second = session->outputs();

    const auto refFirst = reference::runIteration<double>(p);
    test::expectParamGradientsClose(first.gradients.dParams, refFirst.gradients.dParams, 1e-4);
    Problem updated = p;
    updated.overrides.params = std::make_shared<const ParamSet<float>>(first.paramsAfter);
    const auto ref = reference::runIteration<double>(updated);
    EXPECT_TRUE(test::tensorsClose(second.y.cast<double>(), ref.y, 1e-4, "output of the second run"));
    EXPECT_NEAR(second.loss, ref.loss, 1e-4 * std::max(1.0, ref.loss));

    // The premise that makes that check bite for the copy: with the first run's W_hh (a copy not
    // made again after SGD) and every other parameter updated, the output differs by ten times the
    // tolerance or more.
    ParamSet<float> stale = first.paramsAfter;
    const ParamSet<float> initial = resolve(p).params;
    const std::int64_t whhFloats = (c.cell == CellType::Lstm ? 4 : 3) * 1024 * 1024;
    for (int layer = 0; layer < c.layers; ++layer)
        for (int d = 0; d < (c.bidirectional ? 2 : 1); ++d)
            std::copy_n(initial.data(layer, d, ParamKind::WeightHh), whhFloats,
                        stale.data(layer, d, ParamKind::WeightHh));
    Problem staleProblem = p;
    staleProblem.overrides.params = std::make_shared<const ParamSet<float>>(stale);
    const auto refStale = reference::runIteration<double>(staleProblem);
    EXPECT_FALSE(test::tensorsClose(refStale.y, ref.y, 10 * 1e-4, "output with the first run's W_hh"))
        << "the update of W_hh must change the output well beyond the tolerance for this check to bite";

    // The copies count as packed W_hh: G*H rows of H + 16 floats per (layer, direction).
    const std::int64_t gates = c.cell == CellType::Lstm ? 4 : 3;
    const std::uint64_t copyBytes =
        std::uint64_t(gates * 1024 * cpu::paddedRowLd(1024) * c.layers * (c.bidirectional ? 2 : 1)) *
        sizeof(float);
    EXPECT_EQ(session->memory().part("packed W_hh"), copyBytes);
    EXPECT_EQ(blas->estimateMemory(p).part("packed W_hh"), copyBytes);
}

INSTANTIATE_TEST_SUITE_P(Cells, BlasPaddedWhhTest,
                         testing::Values(PaddedCase{CellType::Lstm, true, 1, false},
                                         PaddedCase{CellType::Gru, true, 1, false},
                                         PaddedCase{CellType::Gru, false, 1, false},
                                         PaddedCase{CellType::Lstm, true, 2, true}));

// Only rows a multiple of 4 KiB apart, only batch 1, only on one thread: elsewhere the products read
// W_hh where it is (H = 512: rows 2 KiB apart, where the padding measured no gain).
TEST(BlasPaddedWhh, OnlyAtBatchOneOnOneThreadWithRowsFourKiBApart) {
    const Backend* blas = builtinBackends().find("cpu-blas");
    ASSERT_NE(blas, nullptr);
    const auto padded = [&](int hidden, int batch, int threads, Mode mode) {
        Problem p;
        p.config.cell = CellType::Lstm;
        p.config.inputSize = 24;
        p.config.hiddenSize = hidden;
        p.shape = {.batch = batch, .seqLen = 3};
        p.mode = mode;
        p.options.threads = threads;
        return hasNote(blas->prepare(p)->notes(), kPaddedWhhNote);
    };
    EXPECT_TRUE(padded(1024, 1, 1, Mode::Training));
    EXPECT_FALSE(padded(512, 1, 1, Mode::Training));
    EXPECT_FALSE(padded(1024, 2, 1, Mode::Training));
    EXPECT_FALSE(padded(1024, 1, 1, Mode::Inference)) << "inference runs the fused step";
    if (availableCpuCores() < 2) GTEST_SKIP() << "needs two cores for a product on two threads";
    EXPECT_FALSE(padded(1024, 1, 2, Mode::Training))
        << "two threads split the product with oneDNN's sgemm (the copy measured no gain there)";
}

class BlasStepInputTest : public testing::TestWithParam<int> {};

// Inference at a large batch projects each step's input just before its recurrent product, on
// W_ih packed once per layer (InputProjection::EachStep); a team's threads read their slice's
// products where they landed. y, h_n and c_n must be the double reference's, on a team of one and of two. Two
// layers, so that the second layer's input is the first layer's output; H = 300 keeps a block of W_hh out of
// L1 on every ISA, so that the fused step does not run instead, and splits into slices of 160 and
// 140 units; B = 65 is not a multiple of any kernel's
// rows.
TEST_P(BlasStepInputTest, InferenceAtALargeBatchEqualsTheReference) {
    const int threads = GetParam();
    for (CellType cell : {CellType::Lstm, CellType::Gru}) {
        SCOPED_TRACE(cell == CellType::Lstm ? "LSTM" : "GRU");
        Problem p = twoLayerInference(cell, 300, 21, threads);
        p.shape = {.batch = int(cpu::kMinStepInputBatch) + 1, .seqLen = 8};
        const auto session = runBlasOnce(p);
        ASSERT_NE(session, nullptr);
        expectInferenceEqualsTheReference(*session, p);
        const auto notes = session->notes();
        EXPECT_TRUE(hasNote(notes, kStepInputNote)) << "this problem is meant to project per step";
        if (threads > 1 && availableCpuCores() > 1) {
            EXPECT_TRUE(hasNote(notes, "units split across the team")) << "meant to run on a team of two";
        }
        // The input projection holds one step, not T: with OpenBLAS (no packed products, one GEMM
        // over all steps) the same problem's workspace is (T - 1) * B * G * H floats larger. A team
        // of two also keeps each layer's slice products, B * G * H floats over the slices, and as
        // much again of slice input projections.
        Problem allSteps = p;
        allSteps.options.gemm = GemmProvider::OpenBlas;
        const std::uint64_t B = std::uint64_t(p.shape.batch), H = 300, G = cell == CellType::Lstm ? 4 : 3;
        const std::uint64_t kept = threads > 1 ? 2 * (2 * B * G * H) : 0;
        EXPECT_EQ(builtinBackends().find("cpu-blas")->prepare(allSteps)->memory().workspace -
                      session->memory().workspace,
                  (std::uint64_t(p.shape.seqLen - 1) * B * G * H - kept) * sizeof(float));
    }
}

INSTANTIATE_TEST_SUITE_P(Teams, BlasStepInputTest, testing::Values(1, 2));

// Training at a large batch on one thread (packed products): two stacked layers with dropout
// between them project each step's input from the masked output of the layer below; a
// bidirectional layer's directions share the input projection's rows, so it keeps the projection
// over all steps. Output and loss must be the reference's either way.
TEST(BlasStepInput, TrainingAtALargeBatchEqualsTheReference) {
    for (bool bidirectional : {false, true}) {
        SCOPED_TRACE(bidirectional ? "bidirectional" : "two layers, dropout between");
        Problem p;
        p.config.cell = CellType::Lstm;
        p.config.inputSize = 12;
        p.config.hiddenSize = 40;
        p.config.bidirectional = bidirectional;
        p.config.layers = bidirectional ? 1 : 2;
        p.config.dropout = bidirectional ? 0.0 : 0.3;
        p.config.seed = 33;
        p.shape = {.batch = int(cpu::kMinStepInputBatch), .seqLen = 4};
        p.mode = Mode::Training;
        p.options.threads = 1;
        const auto session = runBlasOnce(p);
        ASSERT_NE(session, nullptr);
        const RunOutputs out = session->outputs();
        const auto ref = reference::runIteration<double>(p);
        EXPECT_TRUE(test::tensorsClose(out.y.cast<double>(), ref.y, 1e-5, "output y"));
        EXPECT_NEAR(out.loss, ref.loss, 1e-5 * std::max(1.0, ref.loss));
        EXPECT_EQ(hasNote(session->notes(), kStepInputNote), !bidirectional);
    }
}

// Training whose weight gradients run on oneDNN's matmul (transposedGemmPays: 4H = 1024 rows of
// gate gradients over T*B = 1024 rows): every gradient and the parameters after SGD must be the
// reference's, and the session says so in its notes and sizes the scratchpad in its memory.
TEST(BlasWeightGradients, OnOneDnnMatmulEqualTheReference) {
    Problem p;
    p.config.cell = CellType::Lstm;
    p.config.inputSize = 4;
    p.config.hiddenSize = 256;
    p.config.seed = 5;
    p.shape = {.batch = 16, .seqLen = 64};
    p.mode = Mode::Training;
    p.options.threads = 1;
    const auto session = runBlasOnce(p);
    ASSERT_NE(session, nullptr);
    EXPECT_TRUE(hasNote(session->notes(), "weight gradients: oneDNN matmul"));
    EXPECT_GT(session->memory().part("weight-gradient scratchpad"), 0u);
    const RunOutputs out = session->outputs();
    const auto ref = reference::runIteration<double>(p);
    test::expectParamGradientsClose(out.gradients.dParams, ref.gradients.dParams, 1e-4);
    Tensor<double> after({std::int64_t(ref.paramsAfter.values.size())});
    after.data = ref.paramsAfter.values;
    Tensor<double> got({std::int64_t(out.paramsAfter.values.size())});
    for (std::size_t i = 0; i < out.paramsAfter.values.size(); ++i)
        got.data[i] = out.paramsAfter.values[i];
    EXPECT_TRUE(test::tensorsClose(got, after, 1e-5, "parameters after SGD"));
}

// Where the per-step projection applies: from the batch bound of a team of one or of two, in
// training on a team of one only, never with OpenBLAS.
TEST(BlasStepInput, OnlyInferenceOnPackedProductsFromTheBatchBound) {
    const Backend* blas = builtinBackends().find("cpu-blas");
    ASSERT_NE(blas, nullptr);
    const auto problem = [](int batch, Mode mode, int threads) {
        Problem p;
        p.config.cell = CellType::Lstm;
        p.config.inputSize = 16;
        p.config.hiddenSize = 200;
        p.shape = {.batch = batch, .seqLen = 3};
        p.mode = mode;
        p.options.threads = threads;
        return p;
    };
    const auto perStep = [&](const Problem& p) { return hasNote(blas->prepare(p)->notes(), kStepInputNote); };
    for (int threads : {1, 2}) { // 200 units on two threads: a team of two
        SCOPED_TRACE(threads);
        const int bound = int(threads == 1 ? cpu::kMinStepInputBatch : cpu::kMinTeamStepInputBatch);
        EXPECT_TRUE(perStep(problem(bound, Mode::Inference, threads)));
        EXPECT_FALSE(perStep(problem(bound - 1, Mode::Inference, threads)));
        // Training on a team of one only: a team's slice layout does not fit the kept gates.
        EXPECT_EQ(perStep(problem(bound, Mode::Training, threads)), threads == 1);
        Problem openBlas = problem(bound, Mode::Inference, threads);
        openBlas.options.gemm = GemmProvider::OpenBlas;
        EXPECT_FALSE(perStep(openBlas));
    }
}

// Inference without the per-step projection runs its input GEMM over all steps on W_ih packed
// once in prepare() (InputProjection::PackedAllSteps). The packed operand holds every direction's gate
// rows: a bidirectional second layer reads both directions' outputs (in = 2H) and writes both
// directions' projections side by side. y, h_n and c_n must be the double reference's, for the
// fused step (B = 3) and the packed recurrent products (B = 17), LSTM and both GRU forms, on one
// and two threads.
TEST(BlasPackedInput, InferenceOverAllStepsEqualsTheReference) {
    for (const CellForm& cell : kEveryCellForm)
        for (int batch : {3, 17})
            for (int threads : {1, 2}) {
                Problem p;
                p.config.cell = cell.type;
                p.config.resetAfter = cell.resetAfter;
                p.config.inputSize = 24;
                p.config.hiddenSize = 200;
                p.config.layers = 2;
                p.config.bidirectional = true;
                p.config.seed = 8;
                p.shape = {.batch = batch, .seqLen = 5};
                p.mode = Mode::Inference;
                p.options.threads = threads;
                SCOPED_TRACE(testing::Message()
                             << cell.name << ", B=" << batch << ", " << threads << " threads");
                const auto session = runBlasOnce(p);
                ASSERT_NE(session, nullptr);
                EXPECT_TRUE(hasNote(session->notes(), kPackedInputNote));
                EXPECT_GT(session->memory().part("packed W_ih"), 0u);
                expectInferenceEqualsTheReference(*session, p);
            }
}

// Training packs nothing for its input GEMM (SGD changes W_ih after every iteration), the
// per-step projection has its own packed W_ih, and OpenBLAS packs nothing.
TEST(BlasPackedInput, OnlyInferenceOverAllStepsOnOneDnn) {
    const Backend* blas = builtinBackends().find("cpu-blas");
    ASSERT_NE(blas, nullptr);
    Problem p;
    p.config.inputSize = 16;
    p.config.hiddenSize = 200;
    p.shape = {.batch = 4, .seqLen = 3};
    p.options.threads = 1;
    const auto packs = [&](const Problem& q) { return hasNote(blas->prepare(q)->notes(), kPackedInputNote); };
    p.mode = Mode::Inference;
    EXPECT_TRUE(packs(p));
    Problem training = p;
    training.mode = Mode::Training;
    EXPECT_FALSE(packs(training));
    Problem openBlas = p;
    openBlas.options.gemm = GemmProvider::OpenBlas;
    EXPECT_FALSE(packs(openBlas));
    Problem perStep = p;
    perStep.shape.batch = int(cpu::kMinStepInputBatch);
    EXPECT_FALSE(packs(perStep));
    EXPECT_TRUE(hasNote(blas->prepare(perStep)->notes(), kStepInputNote));
}

// The steps of one chunk of the input projection (InputProjection::PackedChunks), hand-derived with a
// budget of 1 MiB: GRU H=64 at B=256 projects 768 bytes a row, 192 KiB a step, so 20 steps (3.75
// MiB) run 5 at a time. LSTM H=1024 at B=4 (64 KiB a step) would fit 16 steps, but a chunk keeps
// 256 rows (64 steps): 200 steps make three of them, 100 steps fewer than two, so they run at once.
// One step beyond the budget (B=256, 4 MiB) still runs one step at a time, and what fits runs at once.
TEST(BlasInputChunks, AChunkFitsTheBudgetButKeepsEnoughRows) {
    constexpr std::int64_t budget = 1 << 20;
    EXPECT_EQ(cpu::inputChunkSteps(20, 256, 3 * 64 * 4, budget), 5);
    EXPECT_EQ(cpu::inputChunkSteps(200, 4, 4 * 1024 * 4, budget), 64);
    EXPECT_EQ(cpu::inputChunkSteps(100, 4, 4 * 1024 * 4, budget), 0);
    EXPECT_EQ(cpu::inputChunkSteps(100, 256, 4 * 1024 * 4, budget), 1);
    EXPECT_EQ(cpu::inputChunkSteps(20, 1, 4 * 256 * 4, budget), 0); // 80 KiB: all at once
    EXPECT_EQ(cpu::inputChunkSteps(256, 4, 1024, budget), 0);       // 4 KiB a step: exactly the budget
    EXPECT_EQ(cpu::inputChunkSteps(511, 4, 1024, budget), 0);       // chunks of 256 steps: not two
    EXPECT_EQ(cpu::inputChunkSteps(512, 4, 1024, budget), 256);     // two of them
    EXPECT_GT(cpu::l2CacheBytes(), 0);
}

// An inference problem on one thread whose input projection over all steps (T * B * G*H floats)
// is about three times the budget of this machine's L2 (l2CacheBytes()), so that the session projects
// it in chunks, with T no multiple of the chunk, so that the last chunk is shorter.
Problem chunkedInference(CellType cell, bool resetAfter, int hidden, int batch, int threads = 1) {
    Problem p = twoLayerInference(cell, hidden, 11, threads);
    p.config.resetAfter = resetAfter;
    const std::int64_t rowBytes = (cell == CellType::Lstm ? 4 : 3) * std::int64_t(hidden) * 4;
    const std::int64_t budget = cpu::l2CacheBytes() / cpu::kInputChunkL2Divisor;
    std::int64_t steps = std::max<std::int64_t>(3, 3 * budget / (batch * rowBytes));
    for (std::int64_t chunk = 0; chunk == 0 || steps % chunk == 0;
         chunk = cpu::inputChunkSteps(steps, batch, rowBytes, budget))
        ++steps;
    p.shape = {.batch = batch, .seqLen = int(steps)};
    return p;
}

// Inference on one thread whose input projection would not stay in L2 projects each chunk of steps
// just before them (InputProjection::PackedChunks), the last chunk shorter, into a buffer of one chunk;
// y, h_n and c_n must be the double reference's, for the fused step (H = 32, at any batch) and the
// packed recurrent products (H = 200 at B = 16), LSTM and both GRU forms, over two layers (the
// second projects the first one's output).
TEST(BlasInputChunks, InferenceInChunksOfStepsEqualsTheReference) {
    for (const CellForm& cell : kEveryCellForm)
        for (const auto& [hidden, batch] : {std::pair{32, 64}, std::pair{200, 16}}) {
            const Problem p = chunkedInference(cell.type, cell.resetAfter, hidden, batch);
            SCOPED_TRACE(testing::Message()
                         << cell.name << ", H=" << hidden << ", B=" << batch << ", T=" << p.shape.seqLen);
            const cpu::BlasLayout layout(p);
            const cpu::RecurrentPlan plan = cpu::recurrentPlan(layout, GemmProvider::OneDnn, 1);
            ASSERT_GT(chunkOf(plan), 0);
            EXPECT_NE(p.shape.seqLen % chunkOf(plan), 0) << "the last chunk is meant to be shorter";
            const auto session = runBlasOnce(p);
            ASSERT_NE(session, nullptr);
            EXPECT_TRUE(hasNote(session->notes(), "steps at a time, just before them"));
            expectInferenceEqualsTheReference(*session, p);
        }
}

// The plan of `q` for `provider` on `threads` threads, and `q` made bidirectional or training:
// what the rules for where the input is projected (PackedChunks, PackedAhead, PackedRows) turn on.
cpu::RecurrentPlan planOf(const Problem& q, GemmProvider provider, int threads) {
    return cpu::recurrentPlan(cpu::BlasLayout(q), provider, threads);
}
Problem bidirectionalOf(Problem q) {
    q.config.bidirectional = true;
    return q;
}
Problem trainingOf(Problem q) {
    q.mode = Mode::Training;
    return q;
}

// Only inference of one direction chunks its input projection (a bidirectional layer's directions
// read opposite ends of it), and only where the projection is packed once: not in training, not
// with OpenBLAS, not where each step projects its own (200 units at B = 16 on two threads: a team
// over the units whose threads project their slices' input each step).
TEST(BlasInputChunks, OnlyInferenceOfOneDirectionOnATeamOfOne) {
    const Problem p = chunkedInference(CellType::Lstm, true, 200, 16);
    EXPECT_GT(chunkOf(planOf(p, GemmProvider::OneDnn, 1)), 0);
    EXPECT_EQ(chunkOf(planOf(p, GemmProvider::OpenBlas, 1)), 0);
    EXPECT_EQ(chunkOf(planOf(p, GemmProvider::OneDnn, 2)), 0);
    EXPECT_EQ(chunkOf(planOf(bidirectionalOf(p), GemmProvider::OneDnn, 1)), 0);
    EXPECT_EQ(chunkOf(planOf(trainingOf(p), GemmProvider::OneDnn, 1)), 0);
    Problem shortSequence = p;
    shortSequence.shape.seqLen = 2;
    EXPECT_EQ(chunkOf(planOf(shortSequence, GemmProvider::OneDnn, 1)), 0);
}

// Inference with input 16 over three steps, for the products of large W_hh (the packed sgemm).
struct LargeInference {
    CellType cell;
    int hidden, batch, threads;
};
Problem largeInference(const LargeInference& c) {
    Problem p;
    p.config.cell = c.cell;
    p.config.inputSize = 16;
    p.config.hiddenSize = c.hidden;
    p.config.seed = 5;
    p.shape = {.batch = c.batch, .seqLen = 3};
    p.mode = Mode::Inference;
    p.options.threads = c.threads;
    return p;
}

// The backend's memory estimate of `p` against what its session allocated.
void expectTheEstimateIsTheAllocation(const Backend& backend, const Problem& p, const Session& session) {
    const MemoryFootprint estimate = backend.estimateMemory(p);
    EXPECT_EQ(estimate.weights, session.memory().weights);
    EXPECT_EQ(estimate.workspace, session.memory().workspace);
}

// Products of W_hh at least 1024 deep and 1536 wide with at least 32 rows run on oneDNN's packed
// sgemm (packedSgemmPays()): LSTM H = 1024 at B = 32 on one thread (N = 4096) and on a team of two
// (N = 2048 a slice), GRU reset-after on one thread (N = 3072), and LSTM H = 512 on one thread (K = 512,
// the shallowest it takes). y, h_n and c_n must be the double
// reference's, the memory estimate the allocation (the packed size depends on the threads); training
// (W_hh repacked after every SGD step) keeps matmul.
TEST(BlasPackedSgemm, LargeRecurrentProductsRunOnItAndEqualTheReference) {
    if (!cpu::packedSgemmAvailable()) GTEST_SKIP() << "this oneDNN does not export its packed sgemm";
    const Backend* blas = builtinBackends().find("cpu-blas");
    ASSERT_NE(blas, nullptr);
    for (const LargeInference& c :
         {LargeInference{CellType::Lstm, 1024, 32, 1}, LargeInference{CellType::Lstm, 1024, 32, 2},
          LargeInference{CellType::Gru, 1024, 32, 1}, LargeInference{CellType::Lstm, 512, 32, 1}}) {
        if (c.threads > availableCpuCores()) continue;
        const Problem p = largeInference(c);
        SCOPED_TRACE(testing::Message() << (c.cell == CellType::Lstm ? "LSTM" : "GRU") << " H=" << c.hidden
                                        << ", " << c.threads << " threads");
        const auto session = runBlasOnce(p);
        ASSERT_NE(session, nullptr);
        EXPECT_TRUE(hasNote(session->notes(), "recurrent GEMMs on W_hh packed once: oneDNN's packed sgemm"));
        expectInferenceEqualsTheReference(*session, p);
        Problem training = p;
        training.mode = Mode::Training;
        EXPECT_FALSE(hasNote(blas->prepare(training)->notes(), "oneDNN's packed sgemm"))
            << "training repacks W_hh after every SGD step";
        expectTheEstimateIsTheAllocation(*blas, p, *session);
    }
}

// Where those products read at least kMinPaddedRows rows of h_{t-1} that lie a multiple of 4 KiB
// apart (H = 1024), each team thread copies them into rows 16 floats longer first
// (RecurrentProduct::PackedPaddedH): on one thread at B = 48 (no step input projection: the recurrent product
// alone), at B = 64 with each step's input projection (GRU), and on a team of two at B = 48 (each
// thread its own copy, beside the step input in its slice). y, h_n and c_n must be the double
// reference's, which fails if a copy held the wrong rows or a stale step; the estimate must count
// the copies as the session allocates them.
TEST(BlasPackedSgemm, ProductsOfRowsFourKiBApartReadPaddedCopiesAndEqualTheReference) {
    if (!cpu::packedSgemmAvailable()) GTEST_SKIP() << "this oneDNN does not export its packed sgemm";
    const Backend* blas = builtinBackends().find("cpu-blas");
    ASSERT_NE(blas, nullptr);
    for (const LargeInference& c :
         {LargeInference{CellType::Lstm, 1024, 48, 1}, LargeInference{CellType::Gru, 1024, 64, 1},
          LargeInference{CellType::Lstm, 1024, 48, 2}}) {
        if (c.threads > availableCpuCores()) continue;
        const Problem p = largeInference(c);
        SCOPED_TRACE(testing::Message() << (c.cell == CellType::Lstm ? "LSTM" : "GRU") << " B=" << c.batch
                                        << ", " << c.threads << " threads");
        const auto session = runBlasOnce(p);
        ASSERT_NE(session, nullptr);
        EXPECT_TRUE(hasNote(session->notes(), kPaddedHNote));
        EXPECT_EQ(hasNote(session->notes(), kStepInputNote), c.batch == 64 || c.threads == 2);
        expectInferenceEqualsTheReference(*session, p);
        expectTheEstimateIsTheAllocation(*blas, p, *session);
    }
}

// Hand-derived from the measured bounds (blas_plan.cpp, paddedHPays()): inference on the packed
// sgemm, at least 48 rows, rows a multiple of 4 KiB apart (H = 1024, 2048); not at 32 rows, where
// the padded rows measured slower, nor rows 2 or 3 KiB apart (H = 512, 768, also on the packed
// sgemm), nor training (on matmul, W_hh repacked after every SGD step).
TEST(BlasPackedSgemm, OnlyRowsFourKiBApartFromFortyEightRowsAreCopiedIntoPaddedRows) {
    if (!cpu::packedSgemmAvailable()) GTEST_SKIP() << "this oneDNN does not export its packed sgemm";
    const auto plan = [](int hidden, int batch, Mode mode) {
        Problem p = largeInference({CellType::Lstm, hidden, batch, 1});
        p.mode = mode;
        return cpu::recurrentPlan(cpu::BlasLayout(p), GemmProvider::OneDnn, 1);
    };
    const cpu::RecurrentPlan padded = plan(1024, 48, Mode::Inference);
    EXPECT_EQ(padded.product, cpu::RecurrentProduct::PackedPaddedH);
    ASSERT_EQ(padded.slices.size(), 1u);
    EXPECT_EQ(padded.slices.front().forward.lda, 1024 + 16);
    EXPECT_EQ(plan(2048, 256, Mode::Inference).product, cpu::RecurrentProduct::PackedPaddedH);
    EXPECT_NE(plan(1024, 32, Mode::Inference).product, cpu::RecurrentProduct::PackedPaddedH) << "32 rows";
    EXPECT_NE(plan(512, 64, Mode::Inference).product, cpu::RecurrentProduct::PackedPaddedH)
        << "rows 2 KiB apart";
    EXPECT_NE(plan(768, 64, Mode::Inference).product, cpu::RecurrentProduct::PackedPaddedH)
        << "rows 3 KiB apart";
    EXPECT_NE(plan(1024, 64, Mode::Training).product, cpu::RecurrentProduct::PackedPaddedH) << "training";
    EXPECT_EQ(plan(1024, 32, Mode::Inference).slices.front().forward.lda, 1024);
}

// Runs `p` as runBlasOnce() does, but inside an active OpenMP parallel region, so that the region of
// its step team gets one thread, whatever the plan asked for.
std::unique_ptr<Session> runBlasOnceOnANarrowedTeam(const Problem& p) {
    std::unique_ptr<Session> session;
    std::string error;
#pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == 0) {
        try {
            session = runBlasOnce(p);
        } catch (const std::exception& e) {
            error = e.what();
        }
    }
    EXPECT_TRUE(error.empty()) << error;
    return session;
}

// The chunks of an input projection beside a one-thread recurrence (InputProjection::PackedAhead),
// hand-derived: 8 rows, so 8 steps at B=1 and 4 at B=2, one step from B=8 on; the recurrence's
// thread projects the first half chunk itself; the sequence must hold that and two chunks (at B=1:
// 4 + 16 = 20 steps); an input more than twice as wide as the hidden state projects too slowly.
TEST(BlasInputAhead, ChunksOfEightRowsWhereTheSequenceHoldsTwoAndTheInputIsNarrow) {
    EXPECT_EQ(cpu::inputAheadSteps(100, 1, 128, 64), 8);
    EXPECT_EQ(cpu::inputAheadSteps(20, 1, 128, 64), 8);
    EXPECT_EQ(cpu::inputAheadSteps(19, 1, 128, 64), 0);
    EXPECT_EQ(cpu::inputAheadSteps(100, 2, 128, 64), 4);
    EXPECT_EQ(cpu::inputAheadSteps(100, 3, 128, 64), 3);
    EXPECT_EQ(cpu::inputAheadSteps(100, 8, 128, 64), 1);
    EXPECT_EQ(cpu::inputAheadSteps(100, 1, 129, 64), 0);
    EXPECT_EQ(cpu::inputAheadFirstSteps(8), 4);
    EXPECT_EQ(cpu::inputAheadFirstSteps(3), 2);
    EXPECT_EQ(cpu::inputAheadFirstSteps(1), 1);
}

// Inference at B=1, H=32 on two threads runs its recurrence on one thread, and the input
// projection beside it: the recurrence's thread projects the first 4 steps, the second thread
// chunks of 8 and the last, shorter one (T=23: 4 + 8 + 8 + 3). y, h_n and c_n must be the double
// reference's for LSTM and both GRU forms (the reset-before one on its GEMMs, not the fused step),
// two layers (the second projects the first one's output), the memory estimate the allocation;
// and where OpenMP gives the region one thread, the same.
TEST(BlasInputAhead, InferenceWithTheProjectionBesideTheStepsEqualsTheReference) {
    if (availableCpuCores() < 2) GTEST_SKIP() << "one core: the session runs on one thread";
    const Backend* blas = builtinBackends().find("cpu-blas");
    ASSERT_NE(blas, nullptr);
    for (const CellForm& cell : kEveryCellForm) {
        SCOPED_TRACE(cell.name);
        Problem p = twoLayerInference(cell.type, 32, 13, 2);
        p.config.resetAfter = cell.resetAfter;
        p.shape = {.batch = 1, .seqLen = 23};
        const cpu::BlasLayout layout(p);
        const cpu::RecurrentPlan plan = cpu::recurrentPlan(layout, GemmProvider::OneDnn, 2);
        ASSERT_EQ(plan.threads.team, 1);
        ASSERT_EQ(aheadOf(plan), 8);
        std::vector<std::int64_t> rows;
        for (const cpu::PackedGemm::Shape& shape : cpu::inputGemmShapes(layout, plan, 1))
            rows.push_back(shape.m);
        EXPECT_EQ(rows, (std::vector<std::int64_t>{4, 8, 3}));
        const auto session = runBlasOnce(p);
        ASSERT_NE(session, nullptr);
        EXPECT_TRUE(hasNote(session->notes(), "8 steps at a time on a second thread"));
        expectInferenceEqualsTheReference(*session, p);
        expectTheEstimateIsTheAllocation(*blas, p, *session);
        const auto narrowed = runBlasOnceOnANarrowedTeam(p);
        ASSERT_NE(narrowed, nullptr);
        expectInferenceEqualsTheReference(*narrowed, p);
    }
}

// Only where the recurrence runs on one thread of several: not on one thread, not in training, not
// with OpenBLAS (no packed W_ih), not bidirectional, not where a team over the units runs the
// steps (H=200 at B=8 on two threads), not where the projection runs in chunks just before the
// steps, and not for an input more than twice the hidden size.
TEST(BlasInputAhead, OnlyBesideAOneThreadRecurrenceOfInferenceInOneDirection) {
    Problem p = twoLayerInference(CellType::Lstm, 32, 13, 2);
    p.shape = {.batch = 1, .seqLen = 100};
    EXPECT_EQ(aheadOf(planOf(p, GemmProvider::OneDnn, 2)), 8);
    EXPECT_EQ(aheadOf(planOf(p, GemmProvider::OneDnn, 1)), 0);
    EXPECT_EQ(aheadOf(planOf(p, GemmProvider::OpenBlas, 2)), 0);
    EXPECT_EQ(aheadOf(planOf(trainingOf(p), GemmProvider::OneDnn, 2)), 0);
    EXPECT_EQ(aheadOf(planOf(bidirectionalOf(p), GemmProvider::OneDnn, 2)), 0);
    Problem team = p;
    team.config.hiddenSize = 200;
    team.shape.batch = 8;
    ASSERT_EQ(planOf(team, GemmProvider::OneDnn, 2).threads.team, 2);
    EXPECT_EQ(aheadOf(planOf(team, GemmProvider::OneDnn, 2)), 0);
    Problem chunked = p; // a projection of all steps of four times the L2 budget, 512 bytes a step
    chunked.shape.seqLen = int(4 * cpu::l2CacheBytes() / cpu::kInputChunkL2Divisor / 512);
    ASSERT_GT(chunkOf(planOf(chunked, GemmProvider::OneDnn, 2)), 0);
    EXPECT_EQ(aheadOf(planOf(chunked, GemmProvider::OneDnn, 2)), 0);
    Problem wide = p;
    wide.config.inputSize = 65;
    EXPECT_EQ(aheadOf(planOf(wide, GemmProvider::OneDnn, 2)), 0);
}

// A team of two over the units (H = 200, B = 8: too few rows for each step to project its own
// input) chunks the input projection too: each thread projects its share of a chunk's rows
// (inputChunkShare()) and the team waits at a barrier before the chunk's first step. y, h_n and c_n
// must be the double reference's for LSTM and both GRU forms, two layers, the last chunk shorter,
// the memory estimate the allocation; and where OpenMP gives the team one thread, that thread
// projects every row of each chunk.
TEST(BlasInputChunks, ATeamOverTheUnitsProjectsEachChunkInShares) {
    if (availableCpuCores() < 2) GTEST_SKIP() << "one core: no team";
    const Backend* blas = builtinBackends().find("cpu-blas");
    ASSERT_NE(blas, nullptr);
    for (const CellForm& cell : kEveryCellForm) {
        const Problem p = chunkedInference(cell.type, cell.resetAfter, 200, 8, 2);
        SCOPED_TRACE(testing::Message() << cell.name << ", T=" << p.shape.seqLen);
        const cpu::BlasLayout layout(p);
        const cpu::RecurrentPlan plan = cpu::recurrentPlan(layout, GemmProvider::OneDnn, 2);
        ASSERT_EQ(plan.threads.team, 2);
        ASSERT_FALSE(plan.threads.rows);
        ASSERT_GT(chunkOf(plan), 0);
        EXPECT_NE(p.shape.seqLen % chunkOf(plan), 0) << "the last chunk is meant to be shorter";
        // Two shares of the full chunk, then two of the last one, covering their rows.
        const auto shapes = cpu::inputGemmShapes(layout, plan, 0);
        ASSERT_EQ(shapes.size(), 4u);
        EXPECT_EQ(shapes[0].m + shapes[1].m, chunkOf(plan) * 8);
        EXPECT_EQ(shapes[2].m + shapes[3].m, p.shape.seqLen % chunkOf(plan) * 8);
        const auto session = runBlasOnce(p);
        ASSERT_NE(session, nullptr);
        EXPECT_TRUE(hasNote(session->notes(), "units split across the team"));
        EXPECT_TRUE(hasNote(session->notes(), "steps at a time, just before them"));
        expectInferenceEqualsTheReference(*session, p);
        expectTheEstimateIsTheAllocation(*blas, p, *session);
        EXPECT_EQ(blas->estimateMemory(p).part("packed W_ih"), session->memory().part("packed W_ih"));
        const auto narrowed = runBlasOnceOnANarrowedTeam(p);
        ASSERT_NE(narrowed, nullptr);
        expectInferenceEqualsTheReference(*narrowed, p);
    }
}

// A team that splits the batch rows (rowTeamThreads) gives each thread kMinTeamRows rows and
// kMinStepFlopsPerThread of the step (training: kMinTrainingStepFlopsPerThread), every thread some
// rows, and never more threads than asked. Hand-derived: LSTM H=64 at B=256 is 8.4 MFLOP a step
// (56 threads' worth in inference) and 32 blocks of 8 rows; at B=16, 2 blocks; at B=7, not one;
// H=8 at B=64 is 33 kFLOP, a fifth of one thread's share. Training: H=64 B=64, 2.1 MFLOP, is 14
// threads' worth at 150 kFLOP and 8 blocks of 8 rows; H=32 B=64, 524 kFLOP, 3 threads' worth. B=36
// on 4 threads would be rows of 12 + 12 + 12 + 0 (4-row multiples): 3 threads.
TEST(RecurrentThreads, ARowTeamGivesEveryThreadEnoughRowsAndWork) {
    EXPECT_EQ(cpu::rowTeamThreads(lstmStepFlops(256, 64), 256, 16, false), 16);
    EXPECT_EQ(cpu::rowTeamThreads(lstmStepFlops(256, 64), 256, 64, false), 32);
    EXPECT_EQ(cpu::rowTeamThreads(lstmStepFlops(16, 64), 16, 16, false), 2);
    EXPECT_EQ(cpu::rowTeamThreads(lstmStepFlops(7, 64), 7, 16, false), 1);
    EXPECT_EQ(cpu::rowTeamThreads(lstmStepFlops(64, 8), 64, 16, false), 1);
    EXPECT_EQ(cpu::rowTeamThreads(lstmStepFlops(64, 64), 64, 16, true), 8);
    EXPECT_EQ(cpu::rowTeamThreads(lstmStepFlops(64, 32), 64, 16, true), 3);
    EXPECT_EQ(cpu::rowTeamThreads(lstmStepFlops(36, 256), 36, 4, false), 3);
    for (bool training : {false, true})
        for (int threads : {1, 2, 3, 4, 16})
            for (std::int64_t batch : {1, 8, 15, 16, 36, 61, 256, 4096})
                for (std::int64_t hidden : {8, 40, 64, 128}) {
                    const double flops = lstmStepFlops(double(batch), double(hidden));
                    const int n = cpu::rowTeamThreads(flops, batch, threads, training);
                    SCOPED_TRACE(testing::Message() << threads << " threads, B=" << batch << ", H=" << hidden
                                                    << (training ? ", training" : ", inference"));
                    EXPECT_GE(n, 1);
                    EXPECT_LE(n, threads);
                    if (n > 1) {
                        EXPECT_GE(batch / n, cpu::kMinTeamRows);
                        EXPECT_GE(flops / n,
                                  training ? cpu::kMinTrainingStepFlopsPerThread : kMinStepFlopsPerThread);
                    }
                    // The slices of such a team cover every row once, in order, 4-row aligned, and
                    // each thread has some.
                    std::int64_t next = 0;
                    for (int i = 0; i < n; ++i) {
                        const cpu::RowSlice rows = cpu::rowSlice(batch, i, n);
                        EXPECT_EQ(rows.b0, next);
                        EXPECT_GT(rows.count(), 0);
                        if (rows.b1 < batch) {
                            EXPECT_EQ(rows.count() % 4, 0);
                        }
                        next = rows.b1;
                    }
                    EXPECT_EQ(next, batch);
                }
}

// The fused step on a team that splits the batch rows: H = 40 leaves no team of units (32 units a
// thread) on two threads, while B = 29 and 61 give each thread rows of its own (slices of 16 + 13
// and 32 + 29 rows; bidirectional, so a step is 2 * 2 * B * G*H * H: at B = 29 LSTM 743 kFLOP, GRU
// 557, both more than two threads' worth). Two layers, the second reading both directions of the
// first, so each thread's rows pass through every layer and direction. y, h_n and c_n must be the
// double reference's; the threads share one packed copy of W_hh per layer and direction, which the
// memory estimate sizes.
TEST(BlasRowTeam, FusedInferenceOnSplitRowsEqualsTheReference) {
    if (availableCpuCores() < 2) GTEST_SKIP() << "one core: no team";
    const Backend* blas = builtinBackends().find("cpu-blas");
    ASSERT_NE(blas, nullptr);
    for (CellType cell : {CellType::Lstm, CellType::Gru})
        for (int batch : {29, 61}) {
            SCOPED_TRACE(testing::Message() << (cell == CellType::Lstm ? "LSTM" : "GRU") << ", B=" << batch);
            Problem p;
            p.config.cell = cell;
            p.config.inputSize = 24;
            p.config.hiddenSize = 40;
            p.config.layers = 2;
            p.config.bidirectional = true;
            p.config.seed = 17;
            p.shape = {.batch = batch, .seqLen = 6};
            p.mode = Mode::Inference;
            p.options.threads = 2;
            const auto session = runBlasOnce(p);
            ASSERT_NE(session, nullptr);
            const auto notes = session->notes();
            EXPECT_TRUE(hasNote(notes, "recurrence on 2 threads (batch rows split across the team)"));
            EXPECT_TRUE(hasNote(notes, "recurrent steps fused"));
            expectInferenceEqualsTheReference(*session, p);
            const int gates = cell == CellType::Lstm ? 4 : 3;
            EXPECT_EQ(session->memory().part("packed W_hh"),
                      2u * 2u * std::uint64_t(cpu::fusedSliceFloats(40, gates, 0, 40, cpu::kernelIsa())) *
                          sizeof(float))
                << "one copy of every unit per layer and direction";
            const MemoryFootprint estimate = blas->estimateMemory(p);
            EXPECT_EQ(estimate.weights, session->memory().weights);
            EXPECT_EQ(estimate.workspace, session->memory().workspace);
        }
}

// A team of two that splits the rows (H = 40, B = 37: 20 + 17 rows), one direction, two layers, with
// T one step beyond what keeps the input projection of all steps within half of this machine's L2
// (l2CacheBytes()), or `extraSteps` beyond.
Problem rowTeamInference(CellType cell, std::int64_t extraSteps) {
    Problem p = twoLayerInference(cell, 40, 23, 2);
    const std::int64_t batch = 37, stepBytes = batch * (cell == CellType::Lstm ? 4 : 3) * 40 * 4;
    const std::int64_t fitting = cpu::l2CacheBytes() / cpu::kInputChunkL2Divisor / stepBytes;
    p.shape = {.batch = batch, .seqLen = int(fitting + extraSteps)};
    return p;
}

// Where the input projection of all steps would not stay in L2, each thread of a team that splits
// the rows projects its own rows of each step just before its step (InputProjection::PackedRows), on
// its own W_ih packed once, into a buffer of one step; where it fits, one GEMM over all steps runs
// first. Either way y, h_n and c_n must be the double reference's (the second layer projects the
// first's output), and the memory estimate must be the allocation.
TEST(BlasRowTeam, EachThreadProjectsItsRowsOfEachStepWhereTheProjectionLeavesL2) {
    if (availableCpuCores() < 2) GTEST_SKIP() << "one core: no team";
    const Backend* blas = builtinBackends().find("cpu-blas");
    ASSERT_NE(blas, nullptr);
    for (CellType cell : {CellType::Lstm, CellType::Gru})
        for (const std::int64_t extra : {std::int64_t(1), std::int64_t(0)}) {
            const Problem p = rowTeamInference(cell, extra);
            SCOPED_TRACE(testing::Message()
                         << (cell == CellType::Lstm ? "LSTM" : "GRU") << ", T=" << p.shape.seqLen);
            const cpu::RecurrentPlan plan = cpu::recurrentPlan(cpu::BlasLayout(p), GemmProvider::OneDnn, 2);
            ASSERT_TRUE(plan.threads.rows);
            EXPECT_EQ(projectsRows(plan), extra > 0);
            const auto session = runBlasOnce(p);
            ASSERT_NE(session, nullptr);
            const auto notes = session->notes();
            EXPECT_TRUE(hasNote(notes, "batch rows split across the team"));
            EXPECT_EQ(hasNote(notes, "each team thread its rows of each step's, just before it"), extra > 0);
            expectInferenceEqualsTheReference(*session, p);
            const MemoryFootprint estimate = blas->estimateMemory(p);
            EXPECT_EQ(estimate.weights, session->memory().weights);
            EXPECT_EQ(estimate.workspace, session->memory().workspace);
            EXPECT_EQ(estimate.io, session->memory().io);
            EXPECT_EQ(estimate.part("packed W_ih"), session->memory().part("packed W_ih"));
        }
}

// Only a team that splits the rows projects rows of each step: not a team over the units (H = 700,
// B = 37: the GEMM path), not one thread, not a bidirectional layer (its directions read opposite
// ends of the projection), not with OpenBLAS (no packed W_ih), not in training (no row team).
TEST(BlasRowTeam, OnlyARowTeamOfOneDirectionProjectsRowsOfEachStep) {
    const Problem p = rowTeamInference(CellType::Lstm, 1);
    EXPECT_TRUE(projectsRows(planOf(p, GemmProvider::OneDnn, 2)));
    EXPECT_FALSE(projectsRows(planOf(p, GemmProvider::OneDnn, 1)));
    EXPECT_FALSE(projectsRows(planOf(p, GemmProvider::OpenBlas, 2)));
    EXPECT_FALSE(projectsRows(planOf(bidirectionalOf(p), GemmProvider::OneDnn, 2)));
    EXPECT_FALSE(projectsRows(planOf(trainingOf(p), GemmProvider::OneDnn, 2)));
    Problem units = p;
    units.config.hiddenSize = 700;
    EXPECT_FALSE(projectsRows(planOf(units, GemmProvider::OneDnn, 2)));
}

// OpenMP may give a team fewer threads than planned (here: the session runs inside an active
// parallel region, so its team's region gets one thread). The thread then owns every row, the
// per-thread packed W_ih no longer matches, and it projects its rows through sgemm: the outputs
// must still be the double reference's.
TEST(BlasRowTeam, ATeamOpenMpNarrowedStillProjectsEveryRow) {
    if (availableCpuCores() < 2) GTEST_SKIP() << "one core: no team";
    const Problem p = rowTeamInference(CellType::Gru, 1);
    ASSERT_TRUE(projectsRows(cpu::recurrentPlan(cpu::BlasLayout(p), GemmProvider::OneDnn, 2)));
    const auto session = runBlasOnceOnANarrowedTeam(p);
    ASSERT_NE(session, nullptr);
    expectInferenceEqualsTheReference(*session, p);
}

// Training on a team that splits the batch rows (trainingRowTeam): every cell form, one layer at
// B=61 (rows 32 + 29 on two threads) and two bidirectional layers with dropout between them and in
// the recurrence at B=29 (16 + 13), input gradients on. Each thread runs the forward and backward
// steps of its rows on its own packed copies of W_hh (LSTM, reset-after GRU: the memory estimate
// sizes them) or sgemm (reset-before GRU). Outputs, loss, every gradient and the parameters after
// SGD must be the double reference's; a second run must start from those parameters (each thread
// repacks its copies after the update).
TEST(BlasRowTeam, TrainingOnSplitRowsEqualsTheReference) {
    if (availableCpuCores() < 2) GTEST_SKIP() << "one core: no team";
    const Backend* blas = builtinBackends().find("cpu-blas");
    ASSERT_NE(blas, nullptr);
    for (const CellForm& form : kEveryCellForm)
        for (bool deep : {false, true}) {
            SCOPED_TRACE(testing::Message()
                         << form.name << (deep ? ", two bidirectional layers" : ", one layer"));
            Problem p;
            p.config.cell = form.type;
            p.config.resetAfter = form.resetAfter;
            p.config.inputSize = 12;
            p.config.hiddenSize = 40;
            p.config.layers = deep ? 2 : 1;
            p.config.bidirectional = deep;
            p.config.dropout = deep ? 0.25 : 0.0;
            p.config.recurrentDropout = deep ? 0.2 : 0.0;
            p.config.seed = 71;
            p.shape = {.batch = deep ? 29 : 61, .seqLen = 6};
            p.mode = Mode::Training;
            p.inputGradients = true;
            p.options.threads = 2;
            p.options.learningRate = 0.5;
            auto session = blas->prepare(p);
            EXPECT_TRUE(
                hasNote(session->notes(), "recurrence on 2 threads (batch rows split across the team)"));
            // Each thread's own packed copies, which the estimate sizes before any exists.
            const MemoryFootprint estimate = blas->estimateMemory(p);
            EXPECT_EQ(estimate.weights, session->memory().weights);
            EXPECT_EQ(estimate.workspace, session->memory().workspace);
            EXPECT_EQ(estimate.part("packed W_hh"), session->memory().part("packed W_hh"));
            if (form.resetAfter) {
                EXPECT_GT(session->memory().part("packed W_hh"), 0u);
            }
            NullPhaseHook hook;
            session->run(hook);
            const RunOutputs out = session->outputs();
            const auto ref = reference::runIteration<double>(p);
            EXPECT_TRUE(test::tensorsClose(out.y.cast<double>(), ref.y, 1e-5, "output y"));
            EXPECT_TRUE(test::tensorsClose(out.hN.cast<double>(), ref.hN, 1e-5, "final h"));
            if (form.type == CellType::Lstm) {
                EXPECT_TRUE(test::tensorsClose(out.cN.cast<double>(), ref.cN, 1e-5, "final c"));
                EXPECT_TRUE(
                    test::tensorsClose(out.gradients.dc0.cast<double>(), ref.gradients.dc0, 1e-4, "dc0"));
            }
            EXPECT_NEAR(out.loss, ref.loss, 1e-5 * std::max(1.0, ref.loss));
            test::expectParamGradientsClose(out.gradients.dParams, ref.gradients.dParams, 1e-4);
            EXPECT_TRUE(test::tensorsClose(out.gradients.dx.cast<double>(), ref.gradients.dx, 1e-4, "dx"));
            EXPECT_TRUE(test::tensorsClose(out.gradients.dh0.cast<double>(), ref.gradients.dh0, 1e-4, "dh0"));

            session->run(hook);
            const RunOutputs second = session->outputs();
            Problem updated = p;
            updated.overrides.params = std::make_shared<const ParamSet<float>>(out.paramsAfter);
            const auto refSecond = reference::runIteration<double>(updated);
            EXPECT_TRUE(
                test::tensorsClose(second.y.cast<double>(), refSecond.y, 1e-4, "output of the second run"));
            EXPECT_NEAR(second.loss, refSecond.loss, 1e-4 * std::max(1.0, refSecond.loss));
            EXPECT_GT(std::abs(refSecond.loss - ref.loss), 1e-6) << "the update must change the loss";
        }
}

// Rows are split only where that gives the fused step at least as many threads as the units do:
// also at H=64 on two threads (a team of two either way), but not at H=700 (no fused step, as a
// block of W_hh is outside L1 on every ISA: a team over the units for the GEMMs), not on one
// thread, not at batch 4 (fused, a team of two over the units; too few rows for two). Training
// splits the rows of a layer whose two packed copies of W_hh stay within half of L2 (H=40: 51 KB;
// not H=700, 16 MB), at 781 kFLOP a step (B=61) five threads' worth.
TEST(BlasRowTeam, WhereTheRowsGiveTheFusedStepAsManyThreadsAsTheUnits) {
    if (availableCpuCores() < 2) GTEST_SKIP() << "one core: no team";
    const Backend* blas = builtinBackends().find("cpu-blas");
    ASSERT_NE(blas, nullptr);
    const auto problem = [](int hidden, Mode mode, int threads) {
        Problem p;
        p.config.inputSize = 16;
        p.config.hiddenSize = hidden;
        p.shape = {.batch = 61, .seqLen = 3};
        p.mode = mode;
        p.options.threads = threads;
        return p;
    };
    const auto rows = [&](const Problem& p) {
        return hasNote(blas->prepare(p)->notes(), "batch rows split across the team");
    };
    EXPECT_TRUE(rows(problem(40, Mode::Inference, 2)));
    EXPECT_TRUE(rows(problem(64, Mode::Inference, 2)));
    EXPECT_TRUE(rows(problem(40, Mode::Training, 2)));
    EXPECT_FALSE(rows(problem(700, Mode::Training, 2)));
    EXPECT_FALSE(rows(problem(700, Mode::Inference, 2)));
    EXPECT_TRUE(
        hasNote(blas->prepare(problem(700, Mode::Inference, 2))->notes(), "units split across the team"));
    EXPECT_FALSE(rows(problem(40, Mode::Inference, 1)));
    Problem small = problem(256, Mode::Inference, 2);
    small.shape.batch = 4;
    const auto smallNotes = blas->prepare(small)->notes();
    EXPECT_TRUE(hasNote(smallNotes, "recurrent steps fused"));
    EXPECT_TRUE(hasNote(smallNotes, "units split across the team"));
}

} // namespace
} // namespace rnnprof

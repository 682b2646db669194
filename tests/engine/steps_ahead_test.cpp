// StepTeam::runBeside() and StepsAhead: a one-thread recurrence with the input projection on a
// second thread (InputProjection::PackedAhead). The recurrence must read only steps the other thread
// published, stop where the token says (and let the other thread stop), and end with the other
// thread's failure instead of waiting for steps that never come. Counted by steps and values,
// never by time.
#include "engine/cpu/step_team.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <vector>

namespace rnnprof {
namespace {

constexpr std::int64_t kSteps = 40;
constexpr std::int64_t kChunk = 8;
constexpr std::int64_t kFirst = 4;

// The step's "projection": a value the recurrence can check it read after it was written.
float projectionOf(std::int64_t step) {
    return float(step) + 0.5f;
}

// Every step reads the projection its waitFor() covered: the first steps written by the
// recurrence's own thread, the rest by the thread beside it in chunks. Where OpenMP gives the
// region one thread (inside another parallel region), the projection runs first and the result
// is the same.
void expectEveryStepReadsItsProjection(bool narrowed) {
    std::vector<float> projection(kSteps, 0.0f), read(kSteps, -1.0f);
    int stoppedAt = 0;
    const auto run = [&] {
        cpu::StepsAhead ahead;
        stoppedAt = cpu::StepTeam::runBeside(
            GemmProvider::OneDnn, 16, 1, nullptr, ahead,
            [&](cpu::StepTeam& team) {
                EXPECT_TRUE(team.single());
                for (std::int64_t s = 0; s < kFirst; ++s)
                    projection[std::size_t(s)] = projectionOf(s);
                ahead.projectedFirst(kFirst);
                for (std::int64_t s = 0; s < kSteps; ++s) {
                    if (team.stopBefore(int(s)) || !ahead.waitFor(s + 1)) return;
                    read[std::size_t(s)] = projection[std::size_t(s)];
                }
            },
            [&] {
                for (std::int64_t t = kFirst; t < kSteps && !ahead.abandoned(); t += kChunk) {
                    for (std::int64_t s = t; s < std::min(t + kChunk, kSteps); ++s)
                        projection[std::size_t(s)] = projectionOf(s);
                    ahead.publish(std::min(t + kChunk, kSteps));
                }
            });
    };
    if (narrowed) {
#pragma omp parallel num_threads(2)
        if (omp_get_thread_num() == 0) run();
    } else {
        run();
    }
    EXPECT_EQ(stoppedAt, -1);
    for (std::int64_t s = 0; s < kSteps; ++s)
        EXPECT_EQ(read[std::size_t(s)], projectionOf(s)) << "step " << s;
}

TEST(StepsAhead, EveryStepReadsTheProjectionPublishedBeforeIt) {
    expectEveryStepReadsItsProjection(false);
}

TEST(StepsAhead, OnOneThreadTheProjectionRunsFirstAndEveryStepReadsIt) {
    expectEveryStepReadsItsProjection(true);
}

// A stop requested at step 10 ends the recurrence before step 11, as on a team of one, and the
// thread beside it learns that the recurrence ended: it waits for that after publishing 20 steps,
// so runBeside() returns only because it did.
TEST(StepsAhead, AStopEndsTheRecurrenceAndTheProjectionBesideIt) {
    StopToken stop;
    std::int64_t projected = 0;
    int stepsRun = 0;
    cpu::StepsAhead ahead;
    const int stoppedAt = cpu::StepTeam::runBeside(
        GemmProvider::OneDnn, 16, 1, &stop, ahead,
        [&](cpu::StepTeam& team) {
            for (int s = 0; s < 1000; ++s) {
                if (team.stopBefore(s) || !ahead.waitFor(s + 1)) return;
                if (s == 10) stop.requestStop();
                ++stepsRun;
            }
        },
        [&] {
            for (std::int64_t t = 0; t < 1000 && !ahead.abandoned(); ++t) {
                ahead.publish(t + 1);
                projected = t + 1;
                while (projected == 20 && !ahead.abandoned())
                    std::this_thread::yield();
            }
        });
    EXPECT_EQ(stoppedAt, 11);
    EXPECT_EQ(stepsRun, 11);
    EXPECT_EQ(projected, 20);
}

// A failure of the projection ends the recurrence at the step it waits for, and runBeside()
// rethrows it: nothing waits for steps that never come.
TEST(StepsAhead, AFailedProjectionEndsTheRecurrenceAndIsRethrown) {
    int stepsRun = 0;
    cpu::StepsAhead ahead;
    const auto run = [&] {
        (void)cpu::StepTeam::runBeside(
            GemmProvider::OneDnn, 16, 1, nullptr, ahead,
            [&](cpu::StepTeam& team) {
                for (int s = 0; s < kSteps; ++s) {
                    if (team.stopBefore(s) || !ahead.waitFor(s + 1)) return;
                    ++stepsRun;
                }
            },
            [&] {
                ahead.publish(kChunk);
                throw std::runtime_error("projection failed after one chunk");
            });
    };
    EXPECT_THROW(
        {
            try {
                run();
            } catch (const std::runtime_error& e) {
                EXPECT_STREQ(e.what(), "projection failed after one chunk");
                throw;
            }
        },
        std::runtime_error);
    EXPECT_EQ(stepsRun, kChunk);
}

} // namespace
} // namespace rnnprof

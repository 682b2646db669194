// The buffers behind CUPTI's request/complete callbacks, driven directly as CUPTI would.
#include "profiling/gpu/activity_buffer_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

namespace rnnprof::gpu {
namespace {

constexpr std::size_t kBuffer = 64 * 1024;

TEST(ActivityBufferPool, HandsOutZeroedEightByteAlignedBuffersOfTheConfiguredSize) {
    ActivityBufferPool pool(kBuffer, 4 * kBuffer);
    std::size_t size = 0;
    std::uint8_t* b = pool.request(size);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(size, kBuffer);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b) % 8, 0u);
    EXPECT_TRUE(std::all_of(b, b + size, [](std::uint8_t v) { return v == 0; }));
    EXPECT_EQ(pool.lentBuffers(), 1u);
    pool.complete(b, 0);
}

TEST(ActivityBufferPool, ReturnsCompletedBuffersInCompletionOrderWithTheirValidSize) {
    ActivityBufferPool pool(kBuffer, 4 * kBuffer);
    std::size_t size = 0;
    std::uint8_t* first = pool.request(size);
    std::uint8_t* second = pool.request(size);
    second[0] = 42;
    pool.complete(second, 100);
    pool.complete(first, 200);
    EXPECT_EQ(pool.lentBuffers(), 0u);
    const std::vector<FilledBuffer> filled = pool.takeCompleted();
    ASSERT_EQ(filled.size(), 2u);
    EXPECT_EQ(filled[0].buffer.data(), second);
    EXPECT_EQ(filled[0].validSize, 100u);
    EXPECT_EQ(filled[0].buffer.data()[0], 42);
    EXPECT_EQ(filled[1].validSize, 200u);
    EXPECT_TRUE(pool.takeCompleted().empty()) << "taken buffers are forgotten";
    EXPECT_EQ(pool.heldBytes(), 0u);
}

TEST(ActivityBufferPool, DeclinesRequestsBeyondTheCapUntilBuffersAreTaken) {
    ActivityBufferPool pool(kBuffer, 2 * kBuffer);
    std::size_t size = 0;
    std::uint8_t* a = pool.request(size);
    std::uint8_t* b = pool.request(size);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(pool.request(size), nullptr);
    EXPECT_EQ(size, 0u) << "a declined request must say size 0";
    pool.complete(a, 8);
    EXPECT_EQ(pool.request(size), nullptr) << "a filled buffer still counts until taken";
    EXPECT_EQ(pool.declinedRequests(), 2u);
    pool.discardCompleted();
    std::uint8_t* c = pool.request(size);
    EXPECT_NE(c, nullptr);
    pool.complete(b, 0);
    pool.complete(c, 0);
}

TEST(ActivityBufferPool, IgnoresBuffersItDidNotHandOutAndFreesEmptyOnes) {
    ActivityBufferPool pool(kBuffer, 2 * kBuffer);
    std::uint64_t foreign[4]{};
    pool.complete(reinterpret_cast<std::uint8_t*>(foreign), 16);
    pool.complete(nullptr, 16);
    std::size_t size = 0;
    std::uint8_t* b = pool.request(size);
    pool.complete(b, 0);
    pool.complete(b, 8); // completing twice must not double-own it
    EXPECT_TRUE(pool.takeCompleted().empty());
    EXPECT_EQ(pool.heldBytes(), 0u);
}

TEST(ActivityBufferPool, ClampsAValidSizeLargerThanTheBuffer) {
    ActivityBufferPool pool(kBuffer, 2 * kBuffer);
    std::size_t size = 0;
    pool.complete(pool.request(size), 10 * kBuffer);
    const auto filled = pool.takeCompleted();
    ASSERT_EQ(filled.size(), 1u);
    EXPECT_EQ(filled[0].validSize, kBuffer);
}

TEST(ActivityBufferPool, SurvivesConcurrentRequestsCompletionsAndCollection) {
    ActivityBufferPool pool(4096, 64 * 4096);
    constexpr int kThreads = 4;
    constexpr int kRounds = 500;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&pool] {
            for (int i = 0; i < kRounds; ++i) {
                std::size_t size = 0;
                if (std::uint8_t* b = pool.request(size)) pool.complete(b, 1 + i % 100);
            }
        });
    std::size_t collected = 0;
    for (int i = 0; i < 200; ++i)
        collected += pool.takeCompleted().size();
    for (auto& t : threads)
        t.join();
    collected += pool.takeCompleted().size();
    EXPECT_EQ(collected + pool.declinedRequests(), std::size_t(kThreads * kRounds));
    EXPECT_EQ(pool.lentBuffers(), 0u);
    EXPECT_EQ(pool.heldBytes(), 0u);
}

TEST(ActivityBuffer, AllocatesNothingForZeroBytes) {
    EXPECT_TRUE(ActivityBuffer::allocate(0).empty());
}

} // namespace
} // namespace rnnprof::gpu

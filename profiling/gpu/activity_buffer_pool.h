#pragma once
// The host memory behind CUPTI's activity buffers: hands out zeroed, 8-byte-aligned buffers when
// CUPTI asks, takes them back filled, and keeps them until the tracer collects them. Thread-safe:
// CUPTI calls request() from application threads and complete() from its worker thread, while the
// engine thread collects. Its lock is held only inside its own short methods, never around a
// CUPTI call, so cuptiActivityFlushAll (which runs completions before returning) cannot deadlock
// on it. Knows nothing of CUPTI itself; not for decoding records.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace rnnprof::gpu {

// One zeroed heap block from calloc (aligned to at least 16 bytes on glibc), freed on destruction.
class ActivityBuffer {
public:
    ActivityBuffer() = default;
    [[nodiscard]] static ActivityBuffer allocate(std::size_t bytes); // empty on failure
    [[nodiscard]] std::uint8_t* data() const { return m_data.get(); }
    [[nodiscard]] std::size_t size() const { return m_size; }
    [[nodiscard]] bool empty() const { return m_data == nullptr; }

private:
    struct FreeDeleter {
        void operator()(std::uint8_t* p) const;
    };
    std::unique_ptr<std::uint8_t, FreeDeleter> m_data;
    std::size_t m_size = 0;
};

// A buffer CUPTI has filled: its first validSize bytes hold records.
struct FilledBuffer {
    ActivityBuffer buffer;
    std::size_t validSize = 0;
};

class ActivityBufferPool {
public:
    static constexpr std::size_t kDefaultBufferBytes = std::size_t(4) << 20;     // CUPTI suggests 1-10 MiB
    static constexpr std::size_t kDefaultMaxTotalBytes = std::size_t(128) << 20; // as Kineto's default

    explicit ActivityBufferPool(std::size_t bufferBytes = kDefaultBufferBytes,
                                std::size_t maxTotalBytes = kDefaultMaxTotalBytes);

    // For CUPTI's buffer-request callback: a zeroed, 8-byte-aligned buffer and its size, or
    // nullptr and 0 when the pool already holds maxTotalBytes (CUPTI then drops records and counts
    // them as dropped) or memory is exhausted.
    [[nodiscard]] std::uint8_t* request(std::size_t& size);
    // For CUPTI's buffer-completed callback. A pointer the pool did not hand out is ignored; an
    // empty buffer (validSize 0) is freed at once.
    void complete(std::uint8_t* buffer, std::size_t validSize);
    // The filled buffers in completion order; the pool no longer holds them.
    [[nodiscard]] std::vector<FilledBuffer> takeCompleted();
    // Frees every filled buffer without handing it out (warm-up records).
    void discardCompleted();

    [[nodiscard]] std::size_t bufferBytes() const { return m_bufferBytes; }
    [[nodiscard]] std::size_t maxTotalBytes() const { return m_maxTotalBytes; }
    [[nodiscard]] std::size_t heldBytes() const;          // handed to CUPTI plus filled, not taken
    [[nodiscard]] std::size_t lentBuffers() const;        // handed to CUPTI, not completed yet
    [[nodiscard]] std::uint64_t declinedRequests() const; // since construction

private:
    const std::size_t m_bufferBytes;
    const std::size_t m_maxTotalBytes;
    mutable std::mutex m_mutex;
    std::unordered_map<std::uint8_t*, ActivityBuffer> m_lent;
    std::vector<FilledBuffer> m_completed;
    std::size_t m_completedBytes = 0;
    std::uint64_t m_declined = 0;
};

} // namespace rnnprof::gpu

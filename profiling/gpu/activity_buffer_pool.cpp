#include "profiling/gpu/activity_buffer_pool.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

namespace rnnprof::gpu {
namespace {

constexpr std::uintptr_t kRecordAlignment = 8; // ACTIVITY_RECORD_ALIGNMENT in cupti_common.h

} // namespace

void ActivityBuffer::FreeDeleter::operator()(std::uint8_t* p) const {
    std::free(p);
}

ActivityBuffer ActivityBuffer::allocate(std::size_t bytes) {
    ActivityBuffer b;
    if (bytes == 0) return b;
    // calloc: large blocks come straight from mmap and are zero without touching the pages, so
    // CUPTI can be told not to zero them (CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER).
    auto* p = static_cast<std::uint8_t*>(std::calloc(bytes, 1));
    if (p == nullptr) return b;
    b.m_data.reset(p);
    if (reinterpret_cast<std::uintptr_t>(p) % kRecordAlignment != 0) return ActivityBuffer{};
    b.m_size = bytes;
    return b;
}

ActivityBufferPool::ActivityBufferPool(std::size_t bufferBytes, std::size_t maxTotalBytes)
    : m_bufferBytes(std::max<std::size_t>(bufferBytes, kRecordAlignment)),
      m_maxTotalBytes(std::max(maxTotalBytes, m_bufferBytes)) {}

std::uint8_t* ActivityBufferPool::request(std::size_t& size) {
    size = 0;
    {
        const std::lock_guard lock(m_mutex);
        if ((m_lent.size() + 1) * m_bufferBytes + m_completedBytes > m_maxTotalBytes) {
            ++m_declined;
            return nullptr;
        }
    }
    // Allocated outside the lock: zeroing or mapping 4 MiB must not stall other threads' requests.
    ActivityBuffer b = ActivityBuffer::allocate(m_bufferBytes);
    const std::lock_guard lock(m_mutex);
    if (b.empty() || (m_lent.size() + 1) * m_bufferBytes + m_completedBytes > m_maxTotalBytes) {
        ++m_declined;
        return nullptr;
    }
    std::uint8_t* p = b.data();
    size = b.size();
    m_lent.emplace(p, std::move(b));
    return p;
}

void ActivityBufferPool::complete(std::uint8_t* buffer, std::size_t validSize) {
    const std::lock_guard lock(m_mutex);
    const auto it = m_lent.find(buffer);
    if (it == m_lent.end()) return;
    ActivityBuffer b = std::move(it->second);
    m_lent.erase(it);
    if (validSize == 0) return;
    m_completedBytes += b.size();
    m_completed.push_back({std::move(b), std::min(validSize, m_bufferBytes)});
}

std::vector<FilledBuffer> ActivityBufferPool::takeCompleted() {
    const std::lock_guard lock(m_mutex);
    m_completedBytes = 0;
    return std::exchange(m_completed, {});
}

void ActivityBufferPool::discardCompleted() {
    std::vector<FilledBuffer> dropped = takeCompleted(); // freed here, outside the lock
}

std::size_t ActivityBufferPool::heldBytes() const {
    const std::lock_guard lock(m_mutex);
    return m_lent.size() * m_bufferBytes + m_completedBytes;
}

std::size_t ActivityBufferPool::lentBuffers() const {
    const std::lock_guard lock(m_mutex);
    return m_lent.size();
}

std::uint64_t ActivityBufferPool::declinedRequests() const {
    const std::lock_guard lock(m_mutex);
    return m_declined;
}

} // namespace rnnprof::gpu

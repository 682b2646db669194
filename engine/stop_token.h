#pragma once
// The one stop request of rnnprof: set from any thread (the window's Stop, Ctrl-C's signal
// handler), polled by the engine thread. The sweep runner polls it between runs; CPU sessions poll
// it inside an iteration too (Session::setStopToken), so that a stop does not wait for an
// iteration that may take minutes. Lock-free, so a signal handler may set it.
#include "engine/error.h"

#include <atomic>
#include <string>

namespace rnnprof {

class StopToken {
public:
    // `why` says who asked ("SIGTERM", "Stop in the window"): a string with static storage, kept as
    // a pointer so that a signal handler may pass one. The first reason given stays.
    void requestStop(const char* why = nullptr) noexcept {
        const char* none = nullptr;
        if (why) m_why.compare_exchange_strong(none, why, std::memory_order_acq_rel);
        m_stop.store(true, std::memory_order_release);
    }
    [[nodiscard]] bool stopRequested() const noexcept { return m_stop.load(std::memory_order_acquire); }
    // Why the stop was requested, or "" when no reason was given (or no stop requested).
    [[nodiscard]] std::string reason() const {
        const char* why = m_why.load(std::memory_order_acquire);
        return why ? why : "";
    }
    void reset() noexcept {
        m_why.store(nullptr, std::memory_order_release);
        m_stop.store(false, std::memory_order_release);
    }

private:
    std::atomic<bool> m_stop{false};
    std::atomic<const char*> m_why{nullptr};
    static_assert(std::atomic<bool>::is_always_lock_free);
    static_assert(std::atomic<const char*>::is_always_lock_free);
};

// What a session throws when it abandons an iteration because a stop was requested: an
// Error(Cancelled) that says where, e.g. "in forward, layer 2 of 3, before time step 13 of 100".
// The iteration is incomplete: it is no measurement, and the session's outputs mean nothing.
class StopRequested : public Error {
public:
    explicit StopRequested(std::string where)
        : Error(ErrorKind::Cancelled, "stopped by request " + where), m_where(std::move(where)) {}
    [[nodiscard]] const std::string& where() const { return m_where; }

private:
    std::string m_where;
};

} // namespace rnnprof

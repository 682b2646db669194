#pragma once
// The ordered queue of device work of a GPU session (its CUDA stream), offered to the profiling
// layer so that the profiling layer, not the engine, decides when to wait for the device and what
// to time on it. The engine has no timing policy: a GPU session only enqueues its work, marks
// phases and steps on the PhaseHook, and waits once at the end of run() so that outputs() and the
// next run see finished work. Qt- and CUDA-free; the CUDA implementation is in engine/gpu.
#include <memory>

namespace rnnprof {

// Two marks in the queue whose device-side distance can be read once the queue has passed the
// second one (CUDA events).
class DeviceStopwatch {
public:
    virtual ~DeviceStopwatch() = default;
    virtual void start() = 0; // enqueues the start mark
    virtual void stop() = 0;  // enqueues the stop mark
    // Device milliseconds between the marks; only after synchronize() has passed stop().
    [[nodiscard]] virtual double elapsedMs() const = 0;
};

class DeviceQueue {
public:
    virtual ~DeviceQueue() = default;
    // Blocks until all work enqueued so far has completed.
    virtual void synchronize() = 0;
    // A stopwatch on this queue; used on the session's thread, destroyed before the session.
    [[nodiscard]] virtual std::unique_ptr<DeviceStopwatch> makeStopwatch() = 0;
};

} // namespace rnnprof

#pragma once
// Backends with scripted behaviour for the GUI tests: one that is unavailable on this machine, one
// that refuses relu, and one whose runs take a fixed time (to stop a sweep in the middle). They
// compute nothing; the tests switch numeric checks off.
#include "engine/backend.h"

#include <chrono>
#include <memory>
#include <thread>

namespace rnnprof::testing {

class NullSession : public Session {
public:
    explicit NullSession(std::chrono::milliseconds runTime) : m_runTime(runTime) {}
    void run(PhaseHook& hook) override {
        PhaseScope forward(hook, Phase::Forward);
        StepScope step(hook, "sleep");
        std::this_thread::sleep_for(m_runTime);
    }
    [[nodiscard]] RunOutputs outputs() const override { return {}; }
    [[nodiscard]] MemoryFootprint memory() const override {
        MemoryFootprint m;
        m.weights = 4096;
        m.workspace = 1024;
        return m;
    }

private:
    std::chrono::milliseconds m_runTime;
};

class FakeBackend : public Backend {
public:
    FakeBackend(std::string id, Availability availability, bool refusesRelu,
                std::chrono::milliseconds runTime = std::chrono::milliseconds(1))
        : m_id(std::move(id)), m_availability(std::move(availability)), m_refusesRelu(refusesRelu),
          m_runTime(runTime) {}
    [[nodiscard]] std::string_view id() const override { return m_id; }
    [[nodiscard]] std::string_view description() const override { return "a scripted test backend"; }
    [[nodiscard]] Availability availability() const override { return m_availability; }
    [[nodiscard]] std::vector<std::string> unsupportedReasons(const RnnConfig& c, Mode) const override {
        if (m_refusesRelu && c.activation == Activation::Relu)
            return {m_id + " requires activation=tanh; got relu"};
        return {};
    }
    [[nodiscard]] MemoryFootprint estimateMemory(const Problem&) const override {
        return NullSession({}).memory();
    }
    [[nodiscard]] std::unique_ptr<Session> prepare(const Problem&) const override {
        return std::make_unique<NullSession>(m_runTime);
    }

private:
    std::string m_id;
    Availability m_availability;
    bool m_refusesRelu;
    std::chrono::milliseconds m_runTime;
};

// "fake-ok" (runs take `runTime`), "fake-picky" (refuses relu), "fake-absent" (no NVIDIA driver).
inline std::unique_ptr<BackendRegistry>
fakeRegistry(std::chrono::milliseconds runTime = std::chrono::milliseconds(1)) {
    auto r = std::make_unique<BackendRegistry>();
    r->add(std::make_unique<FakeBackend>("fake-ok", Availability{}, false, runTime));
    r->add(std::make_unique<FakeBackend>("fake-picky", Availability{}, true, runTime));
    r->add(std::make_unique<FakeBackend>("fake-absent", Availability{false, "no NVIDIA driver"}, false,
                                         runTime));
    return r;
}

} // namespace rnnprof::testing

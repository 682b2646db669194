#pragma once
// "cpu-reference": the reference loops in float behind the Backend interface. Slow on purpose.
#include "engine/backend.h"

namespace rnnprof {

class ReferenceBackend final : public Backend {
public:
    [[nodiscard]] std::string_view id() const override { return "cpu-reference"; }
    [[nodiscard]] std::string_view description() const override {
        return "Plain loops in float: the numerical oracle, not for speed";
    }
    [[nodiscard]] Availability availability() const override { return {}; }
    [[nodiscard]] std::vector<std::string> unsupportedReasons(const RnnConfig& config,
                                                              Mode mode) const override;
    [[nodiscard]] MemoryFootprint estimateMemory(const Problem& problem) const override;

protected:
    [[nodiscard]] std::unique_ptr<Session> makeSession(const Problem& problem,
                                                       const MemoryFootprint& estimate) const override;
};

} // namespace rnnprof

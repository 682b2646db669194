#pragma once
// "cpu-onednn": oneDNN's RNN primitives (LSTM, GRU, linear-before-reset GRU), the vendor-optimised
// CPU path. Supports what those primitives can express: tanh/sigmoid cells only, no recurrent
// dropout in training; everything else (bias off, bidirectional, layers, dropout between layers,
// either GRU formula) is supported. unsupportedReasons() says what to use instead.
#include "engine/backend.h"

namespace rnnprof {

class OneDnnBackend final : public Backend {
public:
    [[nodiscard]] std::string_view id() const override { return "cpu-onednn"; }
    [[nodiscard]] std::string_view description() const override {
        return "oneDNN's RNN primitives (JIT-compiled for this CPU), one per layer";
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

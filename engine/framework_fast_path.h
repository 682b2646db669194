#pragma once
// Would a framework run this LSTM/GRU on its cuDNN kernel? Two questions, answered from the model
// configuration alone, each as yes/no with one sentence per rule the configuration breaks:
//
//  - Keras / tf.keras (layers.LSTM, layers.GRU) chooses its cuDNN kernel only when
//    activation == tanh, recurrent_activation == sigmoid, recurrent_dropout == 0,
//    unroll == False (rnnprof never unrolls), use_bias == True and, for GRU, reset_after == True;
//    otherwise the layer runs Keras' generic kernel. Dropout between layers is a separate Dropout
//    layer in Keras and does not matter.
//  - PyTorch (nn.LSTM, nn.GRU) runs cuDNN for every configuration it can express: bias on or off,
//    any number of layers, bidirectional, dropout between layers. It cannot express another
//    activation or recurrent activation, recurrent dropout, or a GRU with the reset gate before
//    the recurrent product (nn.GRU is reset-after).
//
// A different question from gpu-cudnn's eligibility (engine/gpu/cudnn_eligibility.h), which is
// what cuDNN itself can run: cuDNN runs an LSTM without bias, Keras does not choose it for one.
// Plain C++: no Qt, no CUDA.
#include "engine/config.h"

#include <string>
#include <vector>

namespace rnnprof {

struct FastPathVerdict {
    // One sentence per broken rule, in rule order ("activation=relu (Keras needs tanh for cuDNN and
    // falls back to the generic kernel)"); empty when the framework uses cuDNN.
    std::vector<std::string> reasons;

    [[nodiscard]] bool usesCudnn() const { return reasons.empty(); }
    // "yes", or "no: " and the reasons joined by "; ".
    [[nodiscard]] std::string text() const;
    bool operator==(const FastPathVerdict&) const = default;
};

struct FrameworkFastPath {
    FastPathVerdict keras;   // tf.keras.layers.LSTM / GRU
    FastPathVerdict pytorch; // torch.nn.LSTM / GRU
    bool operator==(const FrameworkFastPath&) const = default;
};

[[nodiscard]] FrameworkFastPath frameworkFastPath(const RnnConfig& config);

} // namespace rnnprof

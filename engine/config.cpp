#include "engine/config.h"

#include "engine/error.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace rnnprof {
namespace {

void checkRange(std::vector<FieldIssue>& out, const char* field, std::int64_t value, std::int64_t lo,
                std::int64_t hi) {
    if (value < lo || value > hi) {
        std::ostringstream s;
        s << field << " must be between " << lo << " and " << hi << " (got " << value << ")";
        out.push_back({field, s.str()});
    }
}

void checkProbability(std::vector<FieldIssue>& out, const char* field, double value) {
    if (!std::isfinite(value) || value < 0.0 || value > Limits::maxDropout) {
        std::ostringstream s;
        s << field << " must be a probability between 0 and " << Limits::maxDropout << " (got " << value
          << ")";
        out.push_back({field, s.str()});
    }
}

template <class E, std::size_t N>
void checkEnum(std::vector<FieldIssue>& out, const char* field, const Spellings<E, N>& names, E value) {
    if (spellingOf(names, value).empty())
        out.push_back({field, std::string(field) + " must be " + spellingList(names, " or ") + " (got " +
                                  std::to_string(int(value)) + ")"});
}

} // namespace

std::vector<FieldIssue> validate(const RnnConfig& c) {
    std::vector<FieldIssue> out;
    checkRange(out, "input_size", c.inputSize, 1, Limits::maxInputSize);
    checkRange(out, "hidden_size", c.hiddenSize, 1, Limits::maxHiddenSize);
    checkRange(out, "layers", c.layers, 1, Limits::maxLayers);
    checkProbability(out, "recurrent_dropout", c.recurrentDropout);
    checkProbability(out, "dropout", c.dropout);
    if (c.activation == Activation::LeakyRelu && (!std::isfinite(c.negativeSlope) || c.negativeSlope < 0.0 ||
                                                  c.negativeSlope > Limits::maxNegativeSlope)) {
        std::ostringstream s;
        s << "negative_slope of activation leaky_relu must be between 0 and " << Limits::maxNegativeSlope
          << " (got " << c.negativeSlope << ")";
        out.push_back({"negative_slope", s.str()});
    }
    // Enums only go out of range through casts or corrupt files; the raw value still helps.
    checkEnum(out, "cell", kCellSpellings, c.cell);
    checkEnum(out, "activation", kActivationSpellings, c.activation);
    checkEnum(out, "recurrent_activation", kRecurrentActivationSpellings, c.recurrentActivation);
    // All parameters share one flat buffer (ParamSet), so its size is bounded like any buffer's.
    if (out.empty()) {
        if (const std::int64_t params = parameterCount(c); params > Limits::maxBufferElements) {
            std::ostringstream s;
            s << "the model is too large: its parameters would hold " << params << " elements, at most "
              << Limits::maxBufferElements << " are allowed (reduce hidden_size, input_size or layers)";
            out.push_back({"hidden_size", s.str()});
        }
    }
    return out;
}

std::vector<FieldIssue> validate(const RnnConfig& c, const Shape& shape) {
    std::vector<FieldIssue> out = validate(c);
    checkRange(out, "batch", shape.batch, 1, Limits::maxBatch);
    checkRange(out, "seq_len", shape.seqLen, 1, Limits::maxSeqLen);
    if (out.empty()) {
        const std::int64_t elements = largestBufferElements(c, shape);
        if (elements > Limits::maxBufferElements) {
            std::ostringstream s;
            s << "batch x seq_len x width is too large: the largest buffer would hold " << elements
              << " elements, at most " << Limits::maxBufferElements
              << " are allowed (reduce batch, seq_len or hidden_size)";
            out.push_back({"batch", s.str()});
        }
    }
    return out;
}

std::string joinIssues(const std::vector<FieldIssue>& issues) {
    std::string text;
    for (const auto& issue : issues) {
        if (!text.empty()) text += "; ";
        text += issue.message;
    }
    return text;
}

void requireValid(const RnnConfig& config) {
    if (auto issues = validate(config); !issues.empty())
        throw Error(ErrorKind::InvalidConfig, joinIssues(issues));
}

void requireValid(const RnnConfig& config, const Shape& shape) {
    if (auto issues = validate(config, shape); !issues.empty())
        throw Error(ErrorKind::InvalidConfig, joinIssues(issues));
}

int gateCount(CellType cell) {
    return cell == CellType::Lstm ? 4 : 3;
}

int directionCount(const RnnConfig& config) {
    return config.bidirectional ? 2 : 1;
}

int layerInputSize(const RnnConfig& config, int layer) {
    return layer == 0 ? config.inputSize : directionCount(config) * config.hiddenSize;
}

std::int64_t parameterCount(const RnnConfig& c) {
    const std::int64_t rows = std::int64_t(gateCount(c.cell)) * c.hiddenSize;
    const std::int64_t biases = c.bias ? 2 * rows : 0;
    std::int64_t total = 0;
    for (int layer = 0; layer < c.layers; ++layer)
        total += directionCount(c) * (rows * (layerInputSize(c, layer) + c.hiddenSize) + biases);
    return total;
}

std::int64_t largestBufferElements(const RnnConfig& c, const Shape& shape) {
    const std::int64_t steps = std::int64_t(shape.seqLen) * shape.batch;
    const std::int64_t width = std::max<std::int64_t>(
        {c.inputSize, std::int64_t(directionCount(c)) * gateCount(c.cell) * c.hiddenSize,
         std::int64_t(directionCount(c)) * c.hiddenSize * 8});
    const std::int64_t weights = std::int64_t(gateCount(c.cell)) * c.hiddenSize *
                                 std::max(c.inputSize, directionCount(c) * c.hiddenSize);
    return std::max({steps * width, weights, parameterCount(c)});
}

std::string numberText(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

double hardSigmoidSlope(RecurrentActivation v) {
    switch (v) {
    case RecurrentActivation::HardSigmoid:
        return 0.2;
    case RecurrentActivation::HardSigmoidKeras3:
        return 1.0 / 6.0;
    case RecurrentActivation::Sigmoid:
        break;
    }
    return 0.0;
}

std::string activationText(const RnnConfig& c) {
    std::string text(toString(c.activation));
    if (c.activation == Activation::LeakyRelu)
        text.append("(").append(numberText(c.negativeSlope)).append(")");
    return text;
}

std::optional<ActivationSetting> parseActivationSetting(std::string_view text, double slope) {
    const std::size_t eq = text.find('=');
    const auto activation = parseActivation(text.substr(0, eq));
    if (!activation) return std::nullopt;
    if (eq != std::string_view::npos) {
        if (*activation != Activation::LeakyRelu) return std::nullopt;
        const std::string number(text.substr(eq + 1));
        char* end = nullptr;
        slope = std::strtod(number.c_str(), &end);
        if (number.empty() || end != number.c_str() + number.size()) return std::nullopt;
    }
    if (*activation == Activation::LeakyRelu &&
        (!std::isfinite(slope) || slope < 0.0 || slope > Limits::maxNegativeSlope))
        return std::nullopt;
    return ActivationSetting{*activation, slope};
}

std::string_view toString(CellType v) {
    return spellingOf(kCellSpellings, v);
}
std::string_view toString(Activation v) {
    return spellingOf(kActivationSpellings, v);
}
std::string_view toString(RecurrentActivation v) {
    return spellingOf(kRecurrentActivationSpellings, v);
}
std::string_view toString(Mode v) {
    return spellingOf(kModeSpellings, v);
}

std::optional<CellType> parseCell(std::string_view s) {
    return parseSpelling(kCellSpellings, s);
}
std::optional<Activation> parseActivation(std::string_view s) {
    return parseSpelling(kActivationSpellings, s);
}
std::optional<RecurrentActivation> parseRecurrentActivation(std::string_view s) {
    return parseSpelling(kRecurrentActivationSpellings, s);
}
std::optional<Mode> parseMode(std::string_view s) {
    return parseSpelling(kModeSpellings, s);
}

std::string describe(const RnnConfig& c) {
    std::ostringstream s;
    s << (c.cell == CellType::Lstm ? "LSTM " : "GRU ") << c.inputSize << "->" << c.hiddenSize;
    if (c.layers > 1) s << " x" << c.layers;
    if (c.bidirectional) s << " bi";
    s << ", " << activationText(c) << "/" << toString(c.recurrentActivation);
    if (!c.bias) s << ", no bias";
    if (c.cell == CellType::Gru && !c.resetAfter) s << ", reset before";
    if (c.recurrentDropout > 0) s << ", rec. dropout " << c.recurrentDropout;
    if (c.dropout > 0) s << ", dropout " << c.dropout;
    return s.str();
}

} // namespace rnnprof

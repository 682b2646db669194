#include "engine/model.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <sstream>

namespace rnnprof {
namespace {

std::string layerPath(int index) {
    return "layers[" + std::to_string(index) + "]";
}

// The RnnConfig of a recurrent layer reading `inputSize` features: one layer, no dropout, the
// slope kept only where it means something (so that calls compare equal when they compute alike).
RnnConfig callConfig(const LayerSpec& l, int inputSize, std::uint64_t seed) {
    RnnConfig c;
    c.cell = l.kind == LayerKind::Gru ? CellType::Gru : CellType::Lstm;
    c.inputSize = inputSize;
    c.hiddenSize = l.units;
    c.layers = 1;
    c.bidirectional = l.bidirectional;
    c.bias = l.bias;
    c.activation = l.activation;
    c.negativeSlope = l.activation == Activation::LeakyRelu ? l.negativeSlope : RnnConfig{}.negativeSlope;
    c.recurrentActivation = l.recurrentActivation;
    c.recurrentDropout = l.recurrentDropout;
    c.dropout = 0.0;
    c.resetAfter = l.kind == LayerKind::Gru ? l.resetAfter : true;
    c.seed = seed;
    return c;
}

int outputWidth(const LayerSpec& l, int inputWidth) {
    switch (l.kind) {
    case LayerKind::Lstm:
    case LayerKind::Gru:
        return (l.bidirectional ? 2 : 1) * l.units;
    case LayerKind::Dense:
        return l.units;
    case LayerKind::Dropout:
        break;
    }
    return inputWidth;
}

// Whether recurrent layer `next` can join a call whose last layer is `last`: the same call but for
// the input width, and `last` hands on every step.
bool joins(const LayerSpec& last, const LayerSpec& next) {
    if (!isRecurrent(next.kind) || !last.returnSequences) return false;
    return callConfig(last, 1, 0) == callConfig(next, 1, 0);
}

void checkProbability(std::vector<FieldIssue>& out, const std::string& field, double value) {
    if (!std::isfinite(value) || value < 0.0 || value > Limits::maxDropout)
        out.push_back({field, field + " must be a probability between 0 and " +
                                  numberText(Limits::maxDropout) + " (got " + numberText(value) + ")"});
}

void checkUnits(std::vector<FieldIssue>& out, const std::string& field, int units, int max) {
    if (units < 1 || units > max)
        out.push_back({field, field + " must be between 1 and " + std::to_string(max) + " (got " +
                                  std::to_string(units) + ")"});
}

} // namespace

bool isRecurrent(LayerKind kind) {
    return kind == LayerKind::Lstm || kind == LayerKind::Gru;
}

int layerInputWidth(const ModelSpec& model, int index) {
    int width = model.inputSize;
    for (int i = 0; i < index && i < int(model.layers.size()); ++i)
        width = outputWidth(model.layers[std::size_t(i)], width);
    return width;
}

RnnConfig layerConfig(const ModelSpec& model, int index) {
    return callConfig(model.layers.at(std::size_t(index)), layerInputWidth(model, index), model.seed);
}

std::int64_t layerParameterCount(const ModelSpec& model, int index) {
    const LayerSpec& l = model.layers.at(std::size_t(index));
    if (isRecurrent(l.kind)) return parameterCount(layerConfig(model, index));
    if (l.kind == LayerKind::Dense)
        return std::int64_t(layerInputWidth(model, index)) * l.units + (l.bias ? l.units : 0);
    return 0;
}

std::vector<FieldIssue> validate(const ModelSpec& model) {
    std::vector<FieldIssue> out;
    if (model.inputSize < 1 || model.inputSize > Limits::maxInputSize)
        out.push_back({"input_size", "input_size must be between 1 and " +
                                         std::to_string(Limits::maxInputSize) + " (got " +
                                         std::to_string(model.inputSize) + ")"});
    if (model.layers.size() > std::size_t(kMaxModelLayers)) {
        out.push_back({"layers", "a model may have at most " + std::to_string(kMaxModelLayers) +
                                     " layers (got " + std::to_string(model.layers.size()) + ")"});
        return out;
    }
    bool anyRecurrent = false;
    int lastStepOnly = -1; // the layer that ended the time axis, if one did
    for (int i = 0; i < int(model.layers.size()); ++i) {
        const LayerSpec& l = model.layers[std::size_t(i)];
        const std::string at = layerPath(i);
        if (spellingOf(kLayerKindSpellings, l.kind).empty()) {
            out.push_back({at + ".kind", at + ".kind must be " + spellingList(kLayerKindSpellings, ", ") +
                                             " (got " + std::to_string(int(l.kind)) + ")"});
            continue;
        }
        if (isRecurrent(l.kind)) {
            anyRecurrent = true;
            if (lastStepOnly >= 0)
                out.push_back({at, at + " (" + std::string(spellingOf(kLayerKindSpellings, l.kind)) +
                                       ") needs a sequence, but " + layerPath(lastStepOnly) +
                                       " hands on only its last step (return_sequences = false)"});
            checkUnits(out, at + ".units", l.units, Limits::maxHiddenSize);
            // The cell's own checks (options, and a size no buffer can hold), on the layer's input
            // width where that is valid; the width and units themselves are checked above.
            const int width = layerInputWidth(model, i);
            RnnConfig c = callConfig(l, std::clamp(width, 1, Limits::maxInputSize), model.seed);
            c.hiddenSize = std::clamp(l.units, 1, Limits::maxHiddenSize);
            c.negativeSlope = l.negativeSlope;
            for (FieldIssue issue : validate(c)) {
                issue.field = at + "." + (issue.field == "hidden_size" ? std::string("units") : issue.field);
                issue.message = at + ": " + issue.message;
                out.push_back(issue);
            }
            if (width > Limits::maxInputSize)
                out.push_back({at, at + " reads " + std::to_string(width) + " features, at most " +
                                       std::to_string(Limits::maxInputSize) + " are allowed"});
            if (!l.returnSequences && lastStepOnly < 0) lastStepOnly = i;
        } else if (l.kind == LayerKind::Dropout) {
            checkProbability(out, at + ".rate", l.rate);
        } else {
            checkUnits(out, at + ".units", l.units, Limits::maxInputSize);
            if (spellingOf(kDenseActivationSpellings, l.denseActivation).empty())
                out.push_back({at + ".activation",
                               at + ".activation must be " + spellingList(kDenseActivationSpellings, ", ") +
                                   " (got " + std::to_string(int(l.denseActivation)) + ")"});
        }
    }
    if (!anyRecurrent) out.push_back({"layers", "a model needs at least one recurrent layer (lstm or gru)"});
    return out;
}

std::vector<ModelStage> stages(const ModelSpec& model) {
    std::vector<ModelStage> out;
    int width = model.inputSize;
    bool perStep = true;
    const int n = int(model.layers.size());
    for (int i = 0; i < n;) {
        const LayerSpec& l = model.layers[std::size_t(i)];
        ModelStage s;
        s.firstLayer = s.lastLayer = i;
        s.inputWidth = width;
        s.perStep = perStep;
        if (isRecurrent(l.kind)) {
            s.kind = StageKind::Recurrent;
            s.config = callConfig(l, width, model.seed + out.size());
            // Absorb [dropout(p)] + a layer that joins, as long as every dropout has the call's rate.
            int last = i;
            for (int j = i + 1; j < n;) {
                double rate = 0.0;
                int k = j;
                if (model.layers[std::size_t(j)].kind == LayerKind::Dropout) {
                    rate = model.layers[std::size_t(j)].rate;
                    k = j + 1;
                }
                if (k >= n || !joins(model.layers[std::size_t(last)], model.layers[std::size_t(k)])) break;
                if (s.config.layers > 1 && rate != s.config.dropout) break;
                s.config.dropout = rate;
                s.config.layers += 1;
                last = k;
                j = k + 1;
            }
            s.lastLayer = last;
            s.returnSequences = model.layers[std::size_t(last)].returnSequences;
            s.outputWidth = outputWidth(l, width);
            perStep = perStep && s.returnSequences;
        } else {
            s.kind = l.kind == LayerKind::Dense ? StageKind::Dense : StageKind::Dropout;
            s.outputWidth = outputWidth(l, width);
        }
        width = s.outputWidth;
        i = s.lastLayer + 1;
        out.push_back(s);
    }
    return out;
}

ModelSpec modelOf(const RnnConfig& c) {
    ModelSpec m;
    m.inputSize = c.inputSize;
    m.seed = c.seed;
    LayerSpec l;
    l.kind = c.cell == CellType::Gru ? LayerKind::Gru : LayerKind::Lstm;
    l.units = c.hiddenSize;
    l.bidirectional = c.bidirectional;
    l.bias = c.bias;
    l.activation = c.activation;
    l.negativeSlope = c.negativeSlope;
    l.recurrentActivation = c.recurrentActivation;
    l.recurrentDropout = c.recurrentDropout;
    l.resetAfter = c.resetAfter;
    for (int i = 0; i < c.layers; ++i) {
        if (i > 0 && c.dropout > 0.0) {
            LayerSpec d;
            d.kind = LayerKind::Dropout;
            d.rate = c.dropout;
            m.layers.push_back(d);
        }
        m.layers.push_back(l);
    }
    return m;
}

std::optional<RnnConfig> singleCall(const ModelSpec& model) {
    if (!validate(model).empty()) return std::nullopt;
    const std::vector<ModelStage> s = stages(model);
    if (s.size() != 1 || s[0].kind != StageKind::Recurrent || !s[0].returnSequences) return std::nullopt;
    RnnConfig c = s[0].config;
    // Keep the slope as given (callConfig() normalises it only for comparing calls).
    c.negativeSlope = model.layers.front().negativeSlope;
    return c;
}

} // namespace rnnprof

namespace rnnprof {
namespace {

// Concatenation by appending (GCC 12 warns falsely on "literal" + std::string temporaries).
std::string cat(std::initializer_list<std::string_view> parts) {
    std::string out;
    for (std::string_view p : parts)
        out.append(p);
    return out;
}

std::vector<std::string_view> splitColons(std::string_view text) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t colon = text.find(':', start);
        parts.push_back(
            text.substr(start, colon == std::string_view::npos ? std::string_view::npos : colon - start));
        if (colon == std::string_view::npos) return parts;
        start = colon + 1;
    }
}

std::optional<int> wholeNumber(std::string_view s) {
    if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string_view::npos)
        return std::nullopt;
    return std::atoi(std::string(s).c_str());
}

std::optional<double> realNumber(std::string_view s) {
    const std::string text(s);
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

// Applies one option of a recurrent layer; false when it is not one.
bool recurrentOption(std::string_view option, LayerSpec& l) {
    if (option == "bidirectional" || option == "bi") {
        l.bidirectional = true;
    } else if (option == "no_bias") {
        l.bias = false;
    } else if (option == "reset_before") {
        if (l.kind != LayerKind::Gru) return false;
        l.resetAfter = false;
    } else if (option == "last") {
        l.returnSequences = false;
    } else if (option.starts_with("recurrent_dropout=")) {
        const auto p = realNumber(option.substr(std::string_view("recurrent_dropout=").size()));
        if (!p || *p < 0.0 || *p > Limits::maxDropout) return false;
        l.recurrentDropout = *p;
    } else if (const auto a = parseActivationSetting(option, l.negativeSlope)) {
        l.activation = a->activation;
        l.negativeSlope = a->negativeSlope;
    } else if (const auto r = parseRecurrentActivation(option)) {
        l.recurrentActivation = *r;
    } else {
        return false;
    }
    return true;
}

} // namespace

LayerParse parseLayer(std::string_view text) {
    const auto fail = [&](const std::string& why) {
        return LayerParse{std::nullopt, cat({"'", text, "': ", why, "; a layer is ", kLayerSyntaxHelp})};
    };
    const std::vector<std::string_view> parts = splitColons(text);
    const auto kind = parseSpelling(kLayerKindSpellings, parts[0]);
    if (!kind) return fail(cat({"'", parts[0], "' is not a layer kind"}));
    if (parts.size() < 2) return fail(cat({"the ", parts[0], " layer needs its size"}));
    LayerSpec l;
    l.kind = *kind;
    if (l.kind == LayerKind::Dropout) {
        const auto rate = realNumber(parts[1]);
        if (!rate || *rate < 0.0 || *rate > Limits::maxDropout)
            return fail(cat({"the dropout rate must be a number between 0 and ",
                             numberText(Limits::maxDropout), " (got '", parts[1], "')"}));
        if (parts.size() > 2) return fail("a dropout layer has no options");
        l.rate = *rate;
        return {l, {}};
    }
    const auto units = wholeNumber(parts[1]);
    const int max = l.kind == LayerKind::Dense ? Limits::maxInputSize : Limits::maxHiddenSize;
    if (!units || *units < 1 || *units > max)
        return fail(cat(
            {"UNITS must be a whole number between 1 and ", std::to_string(max), " (got '", parts[1], "')"}));
    l.units = *units;
    for (std::size_t i = 2; i < parts.size(); ++i) {
        bool ok = false;
        if (isRecurrent(l.kind)) {
            ok = recurrentOption(parts[i], l);
        } else if (parts[i] == "no_bias") {
            l.bias = false;
            ok = true;
        } else if (const auto a = parseSpelling(kDenseActivationSpellings, parts[i])) {
            l.denseActivation = *a;
            ok = true;
        }
        if (!ok) return fail(cat({"'", parts[i], "' is not an option of a ", parts[0], " layer"}));
    }
    return {l, {}};
}

std::string layerText(const LayerSpec& l) {
    const std::string kind(spellingOf(kLayerKindSpellings, l.kind));
    if (l.kind == LayerKind::Dropout) return cat({kind, ":", numberText(l.rate)});
    std::string out = cat({kind, ":", std::to_string(l.units)});
    if (l.kind == LayerKind::Dense) {
        if (l.denseActivation != DenseActivation::Linear)
            out += cat({":", spellingOf(kDenseActivationSpellings, l.denseActivation)});
        if (!l.bias) out += ":no_bias";
        return out;
    }
    if (l.bidirectional) out += ":bidirectional";
    if (!l.bias) out += ":no_bias";
    if (l.activation == Activation::LeakyRelu)
        out += cat({":leaky_relu=", numberText(l.negativeSlope)});
    else if (l.activation != Activation::Tanh)
        out += cat({":", toString(l.activation)});
    if (l.recurrentActivation != RecurrentActivation::Sigmoid)
        out += cat({":", toString(l.recurrentActivation)});
    if (l.recurrentDropout != 0.0) out += cat({":recurrent_dropout=", numberText(l.recurrentDropout)});
    if (l.kind == LayerKind::Gru && !l.resetAfter) out += ":reset_before";
    if (!l.returnSequences) out += ":last";
    return out;
}

std::string describeLayer(const LayerSpec& l) {
    std::ostringstream s;
    switch (l.kind) {
    case LayerKind::Dropout:
        s << "dropout " << l.rate;
        return s.str();
    case LayerKind::Dense:
        s << "dense " << l.units;
        if (l.denseActivation != DenseActivation::Linear)
            s << " " << spellingOf(kDenseActivationSpellings, l.denseActivation);
        if (!l.bias) s << ", no bias";
        return s.str();
    case LayerKind::Lstm:
    case LayerKind::Gru:
        break;
    }
    RnnConfig c;
    c.activation = l.activation;
    c.negativeSlope = l.negativeSlope;
    s << (l.kind == LayerKind::Gru ? "GRU " : "LSTM ") << l.units << (l.bidirectional ? " bi" : "") << ", "
      << activationText(c) << "/" << toString(l.recurrentActivation);
    if (!l.bias) s << ", no bias";
    if (l.kind == LayerKind::Gru && !l.resetAfter) s << ", reset before";
    if (l.recurrentDropout > 0) s << ", rec. dropout " << l.recurrentDropout;
    if (!l.returnSequences) s << ", last step";
    return s.str();
}

std::string describe(const ModelSpec& model) {
    std::string out = "in " + std::to_string(model.inputSize);
    for (const LayerSpec& l : model.layers)
        out += " -> " + describeLayer(l);
    return out;
}

} // namespace rnnprof

#include "cli/model_options.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QStringList>
#include <algorithm>

#include <limits>
#include <optional>
#include <string_view>

namespace rnnprof::cli {
namespace {

const QString kCell = QStringLiteral("cell");
const QString kInputSize = QStringLiteral("input-size");
const QString kHiddenSize = QStringLiteral("hidden-size");
const QString kLayers = QStringLiteral("layers");
const QString kBidirectional = QStringLiteral("bidirectional");
const QString kNoBias = QStringLiteral("no-bias");
const QString kActivation = QStringLiteral("activation");
const QString kRecurrentActivation = QStringLiteral("recurrent-activation");
const QString kResetBefore = QStringLiteral("reset-before");
const QString kDropout = QStringLiteral("dropout");
const QString kRecurrentDropout = QStringLiteral("recurrent-dropout");
const QString kSeed = QStringLiteral("seed");

std::string flag(const QString& name) {
    return "--" + name.toStdString();
}

QString num(long long v) {
    return QString::number(v);
}

QCommandLineOption valueOption(const QString& name, const QString& description, const QString& valueName,
                               bool hidden = false) {
    QCommandLineOption o(name, description, valueName);
    if (hidden) o.setFlags(QCommandLineOption::HiddenFromHelp);
    return o;
}

// Reads flags one by one, collecting every problem.
class FlagReader {
public:
    FlagReader(const QCommandLineParser& parser, std::vector<std::string>& problems)
        : m_parser(parser), m_problems(problems) {}

    // The flag's value when given exactly once.
    bool value(const QString& name, QString& out) {
        const QStringList values = m_parser.values(name);
        if (values.isEmpty()) return false;
        if (values.size() > 1) {
            problem(flag(name) + " is given " + std::to_string(values.size()) + " times; give it once");
            return false;
        }
        out = values.front();
        return true;
    }

    void integer(const QString& name, int& target, long long lo, long long hi) {
        QString text;
        if (!value(name, text)) return;
        bool ok = false;
        const int v = text.toInt(&ok);
        if (ok)
            target = v; // the range is checked by validate(), with the engine's own message
        else
            problem(flag(name) + " must be an integer between " + std::to_string(lo) + " and " +
                    std::to_string(hi) + " (got '" + text.toStdString() + "')");
    }

    void probability(const QString& name, double& target) {
        QString text;
        if (!value(name, text)) return;
        bool ok = false;
        const double v = text.toDouble(&ok);
        if (ok)
            target = v;
        else
            problem(flag(name) + " must be a number between 0 and " +
                    QString::number(Limits::maxDropout).toStdString() + " (got '" + text.toStdString() +
                    "')");
    }

    // False when the flag was given with a value that is not allowed.
    template <class E>
    bool choice(const QString& name, E& target, std::optional<E> (*parse)(std::string_view),
                const char* allowed) {
        QString text;
        if (!value(name, text)) return true;
        const std::string s = text.toStdString();
        if (const auto v = parse(s)) {
            target = *v;
            return true;
        }
        problem(flag(name) + " must be " + allowed + " (got '" + s + "')");
        return false;
    }

    // Once: a repeated flag may be named already (refuseRepeatedFlags()).
    void problem(std::string message) {
        if (std::find(m_problems.begin(), m_problems.end(), message) == m_problems.end())
            m_problems.push_back(std::move(message));
    }

private:
    const QCommandLineParser& m_parser;
    std::vector<std::string>& m_problems;
};

} // namespace

std::string flagForField(const std::string& field) {
    std::string out = "--" + field;
    for (char& ch : out)
        if (ch == '_') ch = '-';
    return out;
}

void ModelOptions::addTo(QCommandLineParser& parser) const {
    const QString req = m_settings.requireModel ? QStringLiteral(" (required)") : QString();
    const RnnConfig d;
    parser.addOption(
        valueOption(kCell, QStringLiteral("Cell: lstm or gru") + req, QStringLiteral("lstm|gru")));
    parser.addOption(valueOption(
        kInputSize, QStringLiteral("Input features per step, 1-") + num(Limits::maxInputSize) + req,
        QStringLiteral("I")));
    parser.addOption(valueOption(kHiddenSize,
                                 QStringLiteral("Hidden units, 1-") + num(Limits::maxHiddenSize) + req,
                                 QStringLiteral("H")));
    parser.addOption(valueOption(kLayers, QStringLiteral("Stacked layers, 1-") + num(Limits::maxLayers) + req,
                                 QStringLiteral("L")));
    parser.addOption(QCommandLineOption(kBidirectional, QStringLiteral("Bidirectional layers")));
    parser.addOption(QCommandLineOption(kNoBias, QStringLiteral("No bias_ih/bias_hh parameters")));
    parser.addOption(valueOption(kActivation,
                                 QStringLiteral("Candidate and cell output activation (default tanh); "
                                                "leaky_relu=SLOPE sets the negative slope (default 0.01)"),
                                 QStringLiteral("tanh|relu|leaky_relu[=SLOPE]")));
    parser.addOption(
        valueOption(kRecurrentActivation,
                    QStringLiteral("Gate activation (default sigmoid); hard_sigmoid is Keras 2's "
                                   "clip(0.2x + 0.5, 0, 1), hard_sigmoid_keras3 Keras 3's "
                                   "clip(x/6 + 0.5, 0, 1)"),
                    QStringLiteral("sigmoid|hard_sigmoid|hard_sigmoid_keras3")));
    parser.addOption(QCommandLineOption(
        kResetBefore,
        QStringLiteral("GRU only: apply the reset gate before the recurrent product (Keras "
                       "reset_after=False); by default it multiplies W_hn h + b_hn (cuDNN, PyTorch)")));
    const bool hidden = !m_settings.dropoutAndSeed;
    parser.addOption(valueOption(kDropout,
                                 QStringLiteral("Dropout between layers in training, 0-") +
                                     QString::number(Limits::maxDropout) + QStringLiteral(" (default 0)"),
                                 QStringLiteral("P"), hidden));
    parser.addOption(
        valueOption(kRecurrentDropout,
                    QStringLiteral("Recurrent dropout on h inside the recurrence in training, 0-") +
                        QString::number(Limits::maxDropout) + QStringLiteral(" (default 0)"),
                    QStringLiteral("P"), hidden));
    parser.addOption(
        valueOption(kSeed,
                    QStringLiteral("Seed of weights, inputs, targets and dropout masks (default ") +
                        QString::number(d.seed) + QStringLiteral(")"),
                    QStringLiteral("N"), hidden));
}

RnnConfig ModelOptions::read(const QCommandLineParser& parser, std::vector<std::string>& problems,
                             const RnnConfig& base) const {
    RnnConfig c = base;
    FlagReader r(parser, problems);
    if (m_settings.requireModel) {
        for (const QString& name : {kCell, kInputSize, kHiddenSize, kLayers})
            if (!parser.isSet(name)) r.problem(flag(name) + " is required");
    }
    const bool cellKnown = r.choice(kCell, c.cell, &parseCell, "lstm or gru");
    r.integer(kInputSize, c.inputSize, 1, Limits::maxInputSize);
    r.integer(kHiddenSize, c.hiddenSize, 1, Limits::maxHiddenSize);
    r.integer(kLayers, c.layers, 1, Limits::maxLayers);
    if (parser.isSet(kBidirectional)) c.bidirectional = true;
    if (parser.isSet(kNoBias)) c.bias = false;
    if (QString text; r.value(kActivation, text)) {
        if (const auto a = parseActivationSetting(text.toStdString(), c.negativeSlope)) {
            c.activation = a->activation;
            c.negativeSlope = a->negativeSlope;
        } else {
            r.problem(flag(kActivation) + " must be " + std::string(kActivationSettingHelp) + " (got '" +
                      text.toStdString() + "')");
        }
    }
    r.choice(kRecurrentActivation, c.recurrentActivation, &parseRecurrentActivation,
             "sigmoid, hard_sigmoid (Keras 2: clip(0.2x + 0.5)) or hard_sigmoid_keras3 (clip(x/6 + 0.5))");
    if (parser.isSet(kResetBefore) && cellKnown) {
        if (c.cell == CellType::Gru)
            c.resetAfter = false;
        else
            r.problem("--reset-before applies to GRU only (got --cell " + std::string(toString(c.cell)) +
                      ")");
    }
    if (m_settings.dropoutAndSeed) {
        r.probability(kDropout, c.dropout);
        r.probability(kRecurrentDropout, c.recurrentDropout);
        QString text;
        if (r.value(kSeed, text)) {
            bool ok = false;
            const qulonglong v = text.toULongLong(&ok);
            if (ok)
                c.seed = v;
            else
                r.problem("--seed must be an integer between 0 and " +
                          std::to_string(std::numeric_limits<std::uint64_t>::max()) + " (got '" +
                          text.toStdString() + "')");
        }
    } else {
        const std::string cmd = "rnnprof " + m_settings.command.toStdString();
        for (const QString& name : {kDropout, kRecurrentDropout})
            if (parser.isSet(name))
                r.problem(
                    flag(name) + " is not accepted by " + cmd +
                    ": dropout is random and active only in training; this command computes the network "
                    "without it");
        if (parser.isSet(kSeed))
            r.problem("--seed is not accepted by " + cmd + ": nothing here is drawn from a seed");
    }
    // Ranges and the size bounds, in the engine's words with the flag in place of the field.
    for (const FieldIssue& issue : validate(c)) {
        const std::string f = flagForField(issue.field);
        if (issue.message.rfind(issue.field, 0) == 0)
            r.problem(f + issue.message.substr(issue.field.size()));
        else
            r.problem(f + ": " + issue.message);
    }
    return c;
}

} // namespace rnnprof::cli

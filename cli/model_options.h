#pragma once
// The model flags of the headless commands (--cell, --input-size, --hidden-size, --layers,
// --bidirectional, --no-bias, --activation, --recurrent-activation, --reset-before, and for
// commands that run training sweeps --dropout, --recurrent-dropout, --seed), registered on a
// QCommandLineParser and read into an RnnConfig. Reading collects every problem at once, each a
// message naming the flag, the allowed values and the value given. Knows nothing of shapes,
// backends or files.
#include "engine/config.h"

#include <QString>

#include <string>
#include <vector>

class QCommandLineParser;

namespace rnnprof::cli {

struct ModelOptionSettings {
    // The sub-command, named in refusals ("--dropout is not accepted by rnnprof eval: ...").
    QString command;
    // --dropout, --recurrent-dropout and --seed: accepted when true; when false they are still
    // recognised (hidden from --help) but refused with a reason, so a user learns why.
    bool dropoutAndSeed = false;
    // --cell, --input-size, --hidden-size and --layers must be given (no defaults).
    bool requireModel = false;
};

class ModelOptions {
public:
    explicit ModelOptions(ModelOptionSettings settings) : m_settings(std::move(settings)) {}

    void addTo(QCommandLineParser& parser) const;

    // The configuration the flags describe; flags not given keep `base`'s values. Appends one
    // message per problem to `problems` (the returned configuration is then not meaningful).
    [[nodiscard]] RnnConfig read(const QCommandLineParser& parser, std::vector<std::string>& problems,
                                 const RnnConfig& base = RnnConfig{}) const;

private:
    ModelOptionSettings m_settings;
};

// "--input-size" for "input_size": the flag that sets a configuration field.
[[nodiscard]] std::string flagForField(const std::string& field);

} // namespace rnnprof::cli

// libFuzzer target: the model flags of `rnnprof eval`, one argument per line of the input.
// runEvalCommand() parses and then runs (reads .npy files, computes, writes), and its request
// reader is internal to eval_command.cpp; what interprets flag values is ModelOptions with eval's
// settings (no dropout or seed, model flags required), driven here through the same
// QCommandLineParser setup with eval's path flags registered as plain values. Properties: every
// problem is a message; a model accepted without problems validates.
#include "cli/model_options.h"
#include "fuzz_support.h"

#include <QCommandLineParser>
#include <QCoreApplication>

using namespace rnnprof;

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
    static QCoreApplication app(*argc, *argv); // as in `rnnprof eval`
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    QStringList args{QStringLiteral("rnnprof eval")};
    for (const std::string& a : fuzz::splitArguments(fuzz::asText(data, size)))
        args << QString::fromStdString(a);
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    (void)parser.addHelpOption();
    const cli::ModelOptions model(cli::ModelOptionSettings{QStringLiteral("eval"), false, true});
    model.addTo(parser);
    for (const char* name :
         {"weights", "input", "h0", "c0", "grad-output", "grad-h-n", "grad-c-n", "backend", "out"})
        parser.addOption(
            QCommandLineOption(QString::fromLatin1(name), QStringLiteral("path"), QStringLiteral("VALUE")));
    if (!parser.parse(args)) return 0; // an unknown flag: reported by QCommandLineParser's message
    std::vector<std::string> problems;
    try {
        const RnnConfig config = model.read(parser, problems);
        if (problems.empty())
            fuzz::require(validate(config).empty(), "flags without problems gave an invalid model");
        for (const std::string& p : problems)
            fuzz::require(p.rfind("--", 0) == 0,
                          [&] { return "a problem that does not name its flag: " + p; });
    } catch (const std::exception& e) {
        fuzz::propertyFailed(std::string("ModelOptions::read threw: ") + e.what());
    }
    return 0;
}

// libFuzzer target: the `rnnprof sweep` command line (parseSweepArguments), one argument per line
// of the input. Properties: every problem is collected as a message (nothing thrown, nothing
// run); a command line without problems yields a plan that validates and names its output file.
#include "cli/sweep_options.h"
#include "engine/backend.h"
#include "fuzz_support.h"

#include <QCoreApplication>

using namespace rnnprof;

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
    static QCoreApplication app(*argc, *argv); // as in `rnnprof sweep`
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    QStringList args{QStringLiteral("rnnprof sweep")};
    for (const std::string& a : fuzz::splitArguments(fuzz::asText(data, size)))
        args << QString::fromStdString(a);
    std::vector<std::string> problems;
    try {
        const cli::SweepRequest req = cli::parseSweepArguments(args, problems);
        if (problems.empty() && !req.help && !req.listPresets) {
            fuzz::require(validate(req.plan, builtinBackends().ids()).empty(),
                          "a command line without problems gave an invalid plan");
            fuzz::require(!req.outPath.empty(), "a command line without problems has no --out");
        }
        for (const std::string& p : problems)
            fuzz::require(!p.empty(), "an empty problem message");
    } catch (const std::exception& e) {
        fuzz::propertyFailed(std::string("parseSweepArguments threw: ") + e.what());
    }
    return 0;
}

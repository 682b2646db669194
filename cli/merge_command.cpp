#include "cli/merge_command.h"

#include "cli/cli_common.h"
#include "cli/output_files.h"
#include "cli/path_arguments.h"
#include "cli/sweep_options.h"
#include "engine/error.h"
#include "profiling/files/result_files.h"
#include "profiling/files/result_merge.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <cstdio>
#include <filesystem>
#include <set>

namespace rnnprof::cli {
namespace {

const char* const kDescription =
    "Joins result files of one plan into one: the shards of a split sweep (rnnprof sweep --shard I/N,\n"
    "every shard 1..N once), and whole sweeps of the same plan measured on different kinds of machine\n"
    "(another GPU or CPU), whose points keep the host that measured them. Refused, with the reason:\n"
    "files of different plans or schemas, a missing or doubled shard or point, shards mixed with a\n"
    "whole sweep of the same kind of machine, two whole sweeps of one kind of machine.\n"
    "Exit status: 0 written, 1 failed (files), 2 bad command line or inputs that cannot be merged.";

int runParsed(const QStringList& args) {
    std::vector<std::string> problems;
    const MergeRequest req = parseMergeArguments(args, problems);
    if (req.help) {
        std::fputs(req.helpText.c_str(), stdout);
        return kExitOk;
    }
    std::vector<SweepResult> loaded;
    loaded.reserve(req.inputPaths.size());
    if (problems.empty())
        for (const std::string& path : req.inputPaths) {
            try {
                loaded.push_back(loadResultFile(path));
            } catch (const Error& e) {
                problems.push_back(e.what());
            }
        }
    SweepResult merged;
    if (problems.empty()) merged = mergeResults(loaded, req.inputPaths, problems);
    if (!problems.empty()) {
        for (const auto& p : problems)
            printError("merge", p);
        return kExitUsage;
    }
    try {
        saveResultJson(req.outPath, merged);
    } catch (const Error& e) {
        printError("merge", e.what());
        return kExitFailure;
    }
    std::set<std::string> machines;
    for (const PointResult& p : merged.points)
        machines.insert(machineName(hostOf(merged, p)));
    std::fprintf(stderr,
                 "rnnprof merge: wrote %zu points of %zu files to %s (%zu host%s, %zu kind%s of machine)\n",
                 merged.points.size(), loaded.size(), req.outPath.c_str(), merged.otherHosts.size() + 1,
                 merged.otherHosts.empty() ? "" : "s", machines.size(), machines.size() == 1 ? "" : "s");
    return kExitOk;
}

} // namespace

MergeRequest parseMergeArguments(const QStringList& args, std::vector<std::string>& problems) {
    MergeRequest req;
    QCommandLineParser parser;
    const QCommandLineOption help = setUpParser(parser, kDescription);
    const QCommandLineOption out(QStringLiteral("out"),
                                 QStringLiteral("Write the merged results to FILE.json (required)."),
                                 QStringLiteral("FILE"));
    parser.addOption(out);
    parser.addPositionalArgument(QStringLiteral("files"),
                                 QStringLiteral("Result files (.json or journals) of one plan."),
                                 QStringLiteral("FILE..."));
    if (!parseFlags(parser, args, help, problems, req.help, req.helpText, true)) return req;
    for (const QString& f : parser.positionalArguments())
        req.inputPaths.push_back(pathFromArgument(f));
    if (req.inputPaths.empty())
        problems.push_back("no files to merge: give the result files of one plan, e.g. shard-*.json");
    std::vector<NamedPath> outputs, inputs;
    if (!parser.isSet(out))
        problems.push_back("--out FILE.json is required (where the merged results go)");
    else
        outputs.push_back({"--out", req.outPath = pathFromArgument(parser.value(out))});
    for (const std::string& path : req.inputPaths)
        inputs.push_back({"the input", path});
    checkOutputFiles(outputs, inputs, problems);
    return req;
}

int runMergeCommand(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = commandArguments(argc, argv, "merge"); // file names kept byte for byte
    return runParsed(args);
}

} // namespace rnnprof::cli

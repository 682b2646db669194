#include "gui/commands/report_command.h"

#include "cli/cli_common.h"
#include "cli/output_files.h"
#include "cli/path_arguments.h"
#include "cli/sweep_options.h"
#include "engine/atomic_file.h"
#include "engine/error.h"
#include "gui/commands/headless_app.h"
#include "gui/commands/loaded_results.h"
#include "gui/report/report_charts.h"
#include "gui/report/report_page.h"
#include "profiling/files/result_files.h"

#include <QCommandLineParser>

#include <cstdio>
#include <filesystem>

namespace rnnprof::cli {
namespace {

constexpr const char* kDescription =
    "Writes DIR/index.html: one self-contained HTML page for one or more result files (JSON or\n"
    "journals) that a team can read in any browser without the app. Per file the machine (host, CPU,\n"
    "GPUs, driver, library versions), the model, the crossovers of every pair of its measured\n"
    "backends and the notes of its points; then every chart of the desktop application, drawn by the\n"
    "same code as `rnnprof plot`, embedded as SVG. --out DIR is created when missing (its parent must\n"
    "exist). Needs no display.";

} // namespace

int runReportCommand(int argc, char** argv) {
    auto app = makeHeadlessApplication(argc, argv);
    const QStringList args = commandArguments(argc, argv, "report"); // file names kept byte for byte

    QCommandLineParser parser;
    const QCommandLineOption help = setUpParser(parser, kDescription);
    const QCommandLineOption out(QStringLiteral("out"), QStringLiteral("Folder for index.html."),
                                 QStringLiteral("DIR"));
    parser.addOption(out);
    parser.addPositionalArgument(QStringLiteral("results"), QStringLiteral("Result files (JSON or journal)."),
                                 QStringLiteral("RESULTS.json [MORE.json ...]"));
    if (!parser.parse(args)) {
        printError("report", parseErrorText(parser) + " (see rnnprof report --help)");
        return kExitUsage;
    }
    if (parser.isSet(help)) {
        std::string text = parser.helpText().toStdString();
        if (text.rfind("Usage: ", 0) == 0) text.replace(0, text.find(" [options]"), "Usage: rnnprof report");
        std::fputs(text.c_str(), stdout);
        return kExitOk;
    }
    std::string problems;
    auto problem = [&](const std::string& p) { problems += (problems.empty() ? "" : "; ") + p; };
    std::vector<std::string> repeated;
    refuseRepeatedFlags(parser, repeated);
    for (const std::string& r : repeated)
        problem(r);
    const QStringList files = parser.positionalArguments();
    if (files.isEmpty()) problem("give at least one result file (RESULTS.json)");
    if (!parser.isSet(out)) problem("--out DIR is required");
    if (problems.empty()) { // the page must not replace a file it is made from
        std::vector<NamedPath> inputs;
        for (const QString& f : files)
            inputs.push_back({"the result file", pathFromArgument(f)});
        std::vector<std::string> collisions;
        checkFolderOutputs({"--out", pathFromArgument(parser.value(out))}, {"index.html"}, inputs,
                           collisions);
        for (const std::string& c : collisions)
            problem(c);
    }
    if (!problems.empty()) {
        printError("report", problems + " (see rnnprof report --help)");
        return kExitUsage;
    }
    try {
        const std::string dir = pathFromArgument(parser.value(out));
        // Refused before the files are read and the charts drawn: the same rules as `plot`, and a
        // folder that exists but takes no files (read-only, not ours) is named at once.
        checkOutputFolder(dir);
        if (std::filesystem::is_directory(dir))
            if (const std::string why = folderWriteProblem(dir); !why.empty())
                throw Error(ErrorKind::Io, "cannot write into --out " + dir + ": " + why);
        { // refused from the files' headers, before any point is loaded (a file may hold a million)
            std::vector<SweepResult> headers;
            for (const QString& f : files)
                headers.push_back(loadResultOutline(pathFromArgument(f)).header);
            if (const std::string problem = gui::reportChartCountProblem(headers); !problem.empty())
                throw Error(ErrorKind::InvalidInput, problem);
        }
        LoadedResults loaded;
        QStringList sources;
        for (const QString& f : files)
            if (loaded.load(f) == static_cast<int>(sources.size())) sources << f;
        const QString page = gui::reportPage(loaded.results, sources, gui::reportCharts(loaded.results),
                                             QString::fromStdString(isoTimestampUtc()));
        createOutputFolder(dir);
        const std::string path =
            (std::filesystem::path(dir) / "index.html").string(); // the folder's bytes kept
        const QByteArray bytes = page.toUtf8();
        writeFileAtomically(path, std::string_view(bytes.constData(), std::size_t(bytes.size())),
                            LinkAtPath::Replace);
        std::printf("%s\n", path.c_str());
        return kExitOk;
    } catch (const std::exception& e) {
        printError("report", e.what());
        return kExitFailure;
    }
}

} // namespace rnnprof::cli

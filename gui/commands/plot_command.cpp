#include "gui/commands/plot_command.h"

#include "cli/cli_common.h"
#include "cli/path_arguments.h"
#include "cli/sweep_options.h"
#include "engine/error.h"
#include "gui/charts/render_all.h"
#include "gui/commands/headless_app.h"
#include "gui/commands/loaded_results.h"
#include "profiling/analysis/crossover.h"
#include "profiling/files/result_files.h"

#include <QCommandLineParser>
#include <QDir>
#include <QRegularExpression>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <tuple>

namespace rnnprof::cli {
namespace {

constexpr const char* kDescription =
    "Draws every chart of the desktop application for one or more result files (JSON or journals)\n"
    "and writes them into --out DIR (created when missing; its parent must exist). Several files\n"
    "are overlaid for comparison. Needs no display.\n"
    "The speedup pair is by default the fastest CPU backend against the fastest GPU backend when\n"
    "the files hold both (else the first measured backend against the last, inside each file);\n"
    "--baseline and --challenger choose it across files, e.g.\n"
    "  rnnprof plot --baseline laptop.json:cpu-onednn --challenger h100.json:fastest-gpu --out cmp/\n"
    "BACKEND is a backend with a successful point in FILE, fastest-cpu or fastest-gpu (per point the\n"
    "fastest CPU / GPU backend of FILE). A FILE not given as RESULTS is loaded as well.\n"
    "A file written by `rnnprof predict` is drawn as predicted, not measured: dashed, with the band of\n"
    "the fit, labelled \"predicted from <file> (<GPU>) \u2014 not measured\", its crossover marked\n"
    "\"predicted\"; e.g. --baseline laptop.json:fastest-cpu --challenger predicted.json:gpu-cudnn.";

// FILE:BACKEND of --baseline / --challenger, split at the last colon (a path may hold colons).
struct SideArg {
    QString file;
    QString backend;
};

std::optional<SideArg> parseSide(const QString& flag, const QString& text, std::string& error) {
    const auto colon = text.lastIndexOf(QLatin1Char(':'));
    if (colon <= 0 || colon == text.size() - 1) {
        error = "--" + flag.toStdString() + " " + text.toStdString() +
                ": give FILE:BACKEND, e.g. laptop.json:cpu-onednn or h100.json:fastest-gpu";
        return std::nullopt;
    }
    return SideArg{text.left(colon), text.mid(colon + 1)};
}

bool parseFormats(const QString& text, QList<gui::ImageFormat>& out, std::string& error) {
    out.clear();
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const auto f = gui::formatForPath(QStringLiteral("x.") + part.trimmed());
        if (!f) {
            error =
                "--format " + text.toStdString() + ": '" + part.toStdString() + "' is not png, svg or pdf";
            return false;
        }
        if (!out.contains(*f)) out << *f;
    }
    if (out.isEmpty()) {
        error = "--format is empty: give png, svg and/or pdf, comma-separated";
        return false;
    }
    return true;
}

bool parseSize(const QString& text, QSize& out, std::string& error) {
    const auto m = QRegularExpression(QStringLiteral("^(\\d{2,5})x(\\d{2,5})$")).match(text.trimmed());
    if (m.hasMatch()) {
        out = QSize(m.captured(1).toInt(), m.captured(2).toInt());
        if (out.width() >= 200 && out.height() >= 150 && out.width() <= 8000 && out.height() <= 8000)
            return true;
    }
    error = "--size " + text.toStdString() + ": give WIDTHxHEIGHT in pixels, from 200x150 to 8000x8000";
    return false;
}

} // namespace

int runPlotCommand(int argc, char** argv) {
    auto app = makeHeadlessApplication(argc, argv);
    const QStringList args = commandArguments(argc, argv, "plot"); // file names kept byte for byte

    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromUtf8(kDescription));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption out(QStringLiteral("out"), QStringLiteral("Folder for the chart files."),
                                 QStringLiteral("DIR"));
    const QCommandLineOption format(QStringLiteral("format"),
                                    QStringLiteral("Comma-separated: png, svg, pdf (default png,svg)."),
                                    QStringLiteral("LIST"), QStringLiteral("png,svg"));
    const QCommandLineOption size(QStringLiteral("size"),
                                  QStringLiteral("Chart size in pixels (default 1100x700)."),
                                  QStringLiteral("WxH"), QStringLiteral("1100x700"));
    const QCommandLineOption baseline(QStringLiteral("baseline"),
                                      QStringLiteral("Speedup baseline: a backend of a result file, or "
                                                     "fastest-cpu / fastest-gpu."),
                                      QStringLiteral("FILE:BACKEND"));
    const QCommandLineOption challenger(QStringLiteral("challenger"),
                                        QStringLiteral("Speedup challenger, as --baseline."),
                                        QStringLiteral("FILE:BACKEND"));
    parser.addOptions({out, format, size, baseline, challenger});
    parser.addPositionalArgument(QStringLiteral("results"), QStringLiteral("Result files (JSON or journal)."),
                                 QStringLiteral("RESULTS.json [MORE.json ...]"));
    if (!parser.parse(args)) {
        printError("plot", parseErrorText(parser) + " (see rnnprof plot --help)");
        return kExitUsage;
    }
    if (parser.isSet(help)) {
        std::string text = parser.helpText().toStdString();
        if (text.rfind("Usage: ", 0) == 0) text.replace(0, text.find(" [options]"), "Usage: rnnprof plot");
        std::fputs(text.c_str(), stdout);
        return kExitOk;
    }
    std::vector<std::string> problems;
    refuseRepeatedFlags(parser, problems);
    const QStringList files = parser.positionalArguments();
    std::optional<SideArg> baseSide, chalSide;
    if (parser.isSet(baseline) != parser.isSet(challenger))
        problems.push_back(
            "--baseline and --challenger go together: give both, or neither for the default pair");
    if (parser.isSet(baseline)) {
        std::string error;
        baseSide = parseSide(QStringLiteral("baseline"), parser.value(baseline), error);
        if (!baseSide) problems.push_back(error);
    }
    if (parser.isSet(challenger)) {
        std::string error;
        chalSide = parseSide(QStringLiteral("challenger"), parser.value(challenger), error);
        if (!chalSide) problems.push_back(error);
    }
    if (files.isEmpty() && !baseSide && !chalSide)
        problems.push_back("give at least one result file (RESULTS.json)");
    if (!parser.isSet(out)) problems.push_back("--out DIR is required");
    QList<gui::ImageFormat> formats;
    QSize chartSize;
    std::string error;
    if (!parseFormats(parser.value(format), formats, error)) problems.push_back(error);
    if (!parseSize(parser.value(size), chartSize, error)) problems.push_back(error);
    if (!problems.empty()) {
        std::string joined;
        for (const auto& p : problems)
            joined += (joined.empty() ? "" : "; ") + p;
        printError("plot", joined + " (see rnnprof plot --help)");
        return kExitUsage;
    }
    try {
        const std::string dir = pathFromArgument(parser.value(out));
        checkOutputFolder(dir);
        { // refused from the files' headers, before any point is loaded (a file may hold a million)
            std::vector<SweepResult> headers;
            for (const QString& f : files)
                headers.push_back(loadResultOutline(pathFromArgument(f)).header);
            if (const std::string problem = gui::chartFileCountProblem(headers, formats); !problem.empty())
                throw Error(ErrorKind::InvalidInput, problem);
        }
        LoadedResults loaded;
        const std::vector<SweepResult>& results = loaded.results;
        auto load = [&](const QString& f) { return loaded.load(f); };
        for (const QString& f : files)
            load(f);
        std::optional<gui::ChartSelection> pair;
        if (baseSide && chalSide) {
            pair.emplace();
            pair->baselineResult = load(baseSide->file);
            pair->challengerResult = load(chalSide->file);
            std::vector<std::string> wrong;
            for (const auto& [flag, side, index] :
                 {std::tuple{"--baseline", &*baseSide, pair->baselineResult},
                  std::tuple{"--challenger", &*chalSide, pair->challengerResult}}) {
                const auto allowed = sideChoices(results[static_cast<std::size_t>(index)]);
                if (std::find(allowed.begin(), allowed.end(), side->backend.toStdString()) != allowed.end())
                    continue;
                std::string list;
                for (const auto& a : allowed)
                    list += (list.empty() ? "" : ", ") + a;
                wrong.push_back(
                    std::string(flag) + " " + pathFromArgument(side->file) + ":" +
                    side->backend.toStdString() + ": " + pathFromArgument(side->file) +
                    " has no successful point of backend '" + side->backend.toStdString() +
                    "'; allowed: " + (list.empty() ? std::string("none (no point succeeded)") : list));
            }
            if (!wrong.empty()) {
                std::string joined;
                for (const auto& w : wrong)
                    joined += (joined.empty() ? "" : "; ") + w;
                printError("plot", joined);
                return kExitUsage;
            }
            pair->baseline = baseSide->backend;
            pair->challenger = chalSide->backend;
        }
        createOutputFolder(dir);
        const QStringList written =
            gui::renderAllCharts(results, parser.value(out), formats, chartSize, pair);
        for (const QString& path : written)
            std::printf("%s\n", QDir::toNativeSeparators(path).toLocal8Bit().constData());
        if (written.isEmpty()) std::fputs("rnnprof plot: the results hold no charts to draw\n", stderr);
        return kExitOk;
    } catch (const std::exception& e) {
        printError("plot", e.what());
        return kExitFailure;
    }
}

} // namespace rnnprof::cli

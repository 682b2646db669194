#include "gui/cli/plot_command.h"

#include "cli/cli_common.h"
#include "gui/charts/render_all.h"
#include "gui/cli/headless_app.h"
#include "profiling/result_files.h"

#include <QCommandLineParser>
#include <QDir>
#include <QRegularExpression>

#include <cstdio>

namespace rnnprof::cli {
namespace {

constexpr const char* kDescription =
    "Draws every chart of the desktop application for one or more result files (JSON or journals)\n"
    "and writes them into --out DIR (created when missing; its parent must exist). Several files\n"
    "are overlaid for comparison. Needs no display.";

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
    QStringList args = QCoreApplication::arguments();
    if (args.size() >= 2) args.removeAt(1); // "plot"
    if (args.isEmpty()) args.append(QString());
    args[0] = QStringLiteral("rnnprof plot");

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
    parser.addOptions({out, format, size});
    parser.addPositionalArgument(QStringLiteral("results"), QStringLiteral("Result files (JSON or journal)."),
                                 QStringLiteral("RESULTS.json [MORE.json ...]"));
    if (!parser.parse(args)) {
        printError("plot", parser.errorText().toStdString() + " (see rnnprof plot --help)");
        return kExitUsage;
    }
    if (parser.isSet(help)) {
        std::string text = parser.helpText().toStdString();
        if (text.rfind("Usage: ", 0) == 0) text.replace(0, text.find(" [options]"), "Usage: rnnprof plot");
        std::fputs(text.c_str(), stdout);
        return kExitOk;
    }
    std::vector<std::string> problems;
    const QStringList files = parser.positionalArguments();
    if (files.isEmpty()) problems.push_back("give at least one result file (RESULTS.json)");
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
        const std::string dir = parser.value(out).toStdString();
        checkOutputFolder(dir);
        std::vector<SweepResult> results;
        for (const QString& f : files)
            results.push_back(loadResultFile(f.toStdString()));
        createOutputFolder(dir);
        const QStringList written =
            gui::renderAllCharts(results, QString::fromStdString(dir), formats, chartSize);
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

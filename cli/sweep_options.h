#pragma once
// The command line of `rnnprof sweep`, parsed into a SweepRequest without running anything.
// Every flag is validated; every problem is collected with a message naming the flag, what is
// allowed and what was given. Separate from the command so tests and the fuzzer can drive it.
#include "profiling/plan.h"
#include "profiling/result.h"

#include <QStringList>

#include <optional>
#include <string>
#include <vector>

class QCommandLineOption;
class QCommandLineParser;

namespace rnnprof::cli {

struct SweepRequest {
    SweepPlan plan;
    std::string outPath;          // --out results.json
    std::string csvPath;          // --csv
    std::string crossoverCsvPath; // --crossover-csv (with --compare)
    std::string tracePath;        // --trace
    std::string chartsDir;        // --charts
    // --compare FILE: a result with GPU points of the same model, loaded and checked before the
    // sweep; afterwards the fastest CPU backend here is set against its fastest GPU backend.
    std::string comparePath;
    std::optional<SweepResult> compareWith;
    bool resume = false;        // --resume: continue the journal an earlier run left at <out>.journal
    bool skipDamaged = false;   // --skip-damaged (with --resume): leave out the journal's damaged lines
    std::optional<Shard> shard; // --shard I/N: measure only that part of the plan (profiling/shard.h)
    // Backends of the preset or config left out because this machine cannot run them, with why.
    std::vector<std::string> skipped;
    bool listPresets = false;
    bool quiet = false;
    bool help = false;
    std::string helpText;
};

// `args` as QCoreApplication::arguments() minus the sub-command: args[0] is the program name.
// Checks output paths (folder exists and is writable, no two outputs and no output and input the
// same file) but creates nothing.
[[nodiscard]] SweepRequest parseSweepArguments(const QStringList& args, std::vector<std::string>& problems);

// The list grammar of profiling/int_list.h ("1,4,16", "3-5", "1..64"); a problem is appended as
// "<flag>: <what is wrong>".
[[nodiscard]] std::vector<int> parseIntList(const std::string& flag, const std::string& text, int max,
                                            std::vector<std::string>& problems);

// A whole number, all of `text`.
[[nodiscard]] bool parseInt(const std::string& text, long long& out);
// --NAME N into `target` when given and within [lo, hi]; else a problem naming the range.
void readIntFlag(const QCommandLineParser& parser, const char* name, int lo, int hi, int& target,
                 std::vector<std::string>& problems);

// "a, b,c" -> {"a", "b", "c"}: a comma-separated flag value, each part trimmed.
[[nodiscard]] std::vector<std::string> splitList(const std::string& text);

// A command's parser with its description, long options after a single dash, and -h/--help, which
// it returns for parseFlags().
[[nodiscard]] QCommandLineOption setUpParser(QCommandLineParser& parser, const char* description);
// The parser's error, with the nearest flag the command has where a flag is unknown: "Unknown
// option 'backends'. Did you mean --backend?" (the flags are read from the parser's help text).
[[nodiscard]] std::string parseErrorText(const QCommandLineParser& parser);
// Appends "--batch is given 2 times; give it once" per flag with a value given more than once: its
// last value would otherwise win without a word; the flags in `repeatable` (predict's --from) are
// meant to be given several times. parseFlags() calls it; commands that parse by themselves too.
void refuseRepeatedFlags(const QCommandLineParser& parser, std::vector<std::string>& problems,
                         const QStringList& repeatable = {});
// The start every command's flag parsing shares: parses `args`, and returns false when the command
// stops here — a parse error (appended to `problems`) or --help (`helpAsked`, its text in
// `helpText`). A positional argument is appended as a problem unless `takesFiles` (merge's inputs):
// the other commands take flags only. `repeatable` as refuseRepeatedFlags().
[[nodiscard]] bool parseFlags(QCommandLineParser& parser, const QStringList& args,
                              const QCommandLineOption& help, std::vector<std::string>& problems,
                              bool& helpAsked, std::string& helpText, bool takesFiles = false,
                              const QStringList& repeatable = {});

} // namespace rnnprof::cli

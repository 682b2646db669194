#pragma once
// `rnnprof crossover`: where one side overtakes the other for a model and a sequence length, found
// by measuring only the batch sizes needed (profiling/analysis/crossover_search.h) instead of a whole grid.
// A side is a backend measured here, fastest-cpu / fastest-gpu of the backends measured here, or
// FILE.json:SIDE, a side of a result file (e.g. the reference GPU). Writes a normal result file of
// the points measured with the crossover record, and prints the crossover, its interval and how
// many batch sizes it measured of the grid it replaced.
#include "profiling/plan.h"

#include <QStringList>

#include <string>
#include <vector>

namespace rnnprof::cli {

struct CrossoverSide {
    std::string text; // as given: "cpu-blas", "ref.json:fastest-gpu"
    std::string file; // empty: measured here
    std::string side; // a backend id, fastest-cpu or fastest-gpu
};

struct CrossoverRequest {
    CrossoverSide baseline;
    CrossoverSide challenger;
    SweepPlan plan; // the model, one sequence length, one mode, the grid; the backends measured here
    std::string outPath;
    std::string crossoverCsvPath; // --crossover-csv
    bool gridGiven = false;       // --batch given: else the powers of two 1..1024, or a file's batch sizes
    bool help = false;
    std::string helpText;
};

// Parses a side: "FILE.json:SIDE" names a file's side (SIDE defaults to fastest-gpu when the text
// is a path ending in .json); anything else is a side measured here.
[[nodiscard]] CrossoverSide parseCrossoverSide(const std::string& text);

// `args` as QCoreApplication::arguments() minus the sub-command: args[0] is the program name.
[[nodiscard]] CrossoverRequest parseCrossoverArguments(const QStringList& args,
                                                       std::vector<std::string>& problems);

// argv[1] is "crossover". Exit status: 0 written, 1 measuring or writing failed, 2 bad command line.
int runCrossoverCommand(int argc, char** argv);

} // namespace rnnprof::cli

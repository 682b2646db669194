#pragma once
// What `rnnprof` without arguments does where there is no display (a server, an SSH session): it
// says so, runs the default preset headless with `rnnprof sweep`, and writes the results (JSON,
// CSV, Chrome trace) and every chart into ./rnnprof-results-<UTC time>/, which it names.
namespace rnnprof::cli {

int runDefaultSweepWithoutDisplay(int argc, char** argv);

} // namespace rnnprof::cli

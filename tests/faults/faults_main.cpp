// Test main of the fault-injection suite. Besides running the tests, the executable has a probe
// mode that performs one file operation and reports its outcome, so that a test can run it inside
// a private mount namespace (a full or read-only filesystem that only the probe sees):
//   faults_tests --probe save-json PATH POINTS   saveResultJson() of a sample sweep of POINTS points
//   faults_tests --probe journal PATH POINTS     a journal at PATH, then POINTS appends
// Prints "appended N" (journal) and "error: <message>" on failure; exit 0 done, 1 Error, 3 usage.
#include "engine/error.h"
#include "profiling/files/result_files.h"
#include "sample_sweep.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

int probe(const std::string& kind, const std::string& path, int points) {
    using namespace rnnprof;
    const SweepResult sample = test::sampleSweep(points);
    if (kind == "save-json") {
        try {
            saveResultJson(path, sample);
            std::printf("saved\n");
            return 0;
        } catch (const Error& e) {
            std::printf("error: %s\n", e.what());
            return 1;
        }
    }
    if (kind == "journal") {
        int appended = 0;
        try {
            SweepResult header = sample;
            header.points.clear();
            Journal journal(path, header);
            for (; appended < points; ++appended)
                journal.append(sample.points[std::size_t(appended)]);
            std::printf("appended %d\n", appended);
            return 0;
        } catch (const Error& e) {
            std::printf("appended %d\nerror: %s\n", appended, e.what());
            return 1;
        }
    }
    std::fprintf(stderr, "unknown probe '%s' (save-json or journal)\n", kind.c_str());
    return 3;
}

} // namespace

int main(int argc, char** argv) {
    if (argc >= 2 && std::strcmp(argv[1], "--probe") == 0) {
        if (argc != 5) {
            std::fprintf(stderr, "usage: %s --probe save-json|journal PATH POINTS\n", argv[0]);
            return 3;
        }
        return probe(argv[2], argv[3], std::atoi(argv[4]));
    }
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}

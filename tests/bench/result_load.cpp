// What loading a results file costs: wall time, peak resident memory above the start, and both per
// point and against the file's size. Run on files of growing size (DEVELOPMENT.md "Benchmarks"):
//   build/tests/bench/result_load FILE...
// One JSON line per file; the goal is a point in memory at most about twice its bytes in the file.
#include "engine/file_read.h"
#include "profiling/files/result_files.h"
#include "profiling/measure/process_memory.h"

#include <chrono>
#include <cstdio>
#include <exception>
#include <malloc.h>
#include <sys/stat.h>

int main(int argc, char** argv) {
    using namespace rnnprof;
    for (int i = 1; i < argc; ++i) {
        struct stat st {};
        if (::stat(argv[i], &st) != 0) {
            std::fprintf(stderr, "%s: cannot stat\n", argv[i]);
            return 1;
        }
        resetPeakRss();
        const std::uint64_t before = readProcessMemory().value_or(ProcessMemory{}).rssBytes;
        const std::size_t heapBefore = ::mallinfo2().uordblks + ::mallinfo2().hblkhd;
        const auto start = std::chrono::steady_clock::now();
        try {
            const SweepResult result = loadResultFile(argv[i]);
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            const ProcessMemory after = readProcessMemory().value_or(ProcessMemory{});
            const double peak = double(after.peakBytes - before);
            // The heap the result holds (malloc's bytes in use), not the RSS: freed pages of the
            // parse stay resident until malloc gives them back.
            const double held = double(::mallinfo2().uordblks + ::mallinfo2().hblkhd - heapBefore);
            const double n = double(result.points.size());
            std::printf("{\"file\": \"%s\", \"points\": %zu, \"file_bytes\": %lld, \"seconds\": %.3f, "
                        "\"peak_growth_bytes\": %.0f, \"held_bytes\": %.0f, \"peak_per_point\": %.0f, "
                        "\"held_per_point\": %.0f, \"held_per_file_byte\": %.2f}\n",
                        argv[i], result.points.size(), (long long)st.st_size, seconds, peak, held, peak / n,
                        held / n, held / double(st.st_size));
        } catch (const std::exception& e) {
            std::fprintf(stderr, "%s\n", e.what());
            return 1;
        }
    }
    return 0;
}

#!/usr/bin/env bash
# The sanitizer stages of CI (docs/reliability.md), each one the CMake preset of the same name
# (CMakePresets.json: configure, build, test):
#   asan  ASan + UBSan (-O1 -g): the whole test suite, GUI tests included (offscreen); build-asan/.
#   tsan  TSan (-O1 -g): the threading tests only (the test preset's filter), built as just the
#         executables that hold them; build-tsan/. OpenMP (libgomp) is not instrumented, so these
#         tests use scripted backends without OpenMP regions (see scripts/sanitizers/tsan.supp).
# CUDA is left out of sanitizer builds (cmake/RnnprofCuda.cmake). Benchmarks and fuzzers are off.
# Usage: scripts/ci-sanitizers.sh [asan] [tsan]   (no argument: both); $RNNPROF_JOBS parallel jobs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
jobs="${RNNPROF_JOBS:-$(nproc)}"
stages=("$@")
[ ${#stages[@]} -eq 0 ] && stages=(asan tsan)

for stage in "${stages[@]}"; do
    case "$stage" in
    asan | tsan) ;;
    *)
        echo "ci-sanitizers: unknown stage '$stage' (asan or tsan)" >&2
        exit 2
        ;;
    esac
    start=$(date +%s)
    cmake --preset "$stage" >/dev/null
    cmake --build --preset "$stage" --parallel "$jobs"
    echo "ci-sanitizers: $stage build finished in $(($(date +%s) - start)) s"
    tests_start=$(date +%s)
    ctest --preset "$stage" --parallel "$jobs"
    echo "ci-sanitizers: $stage tests finished in $(($(date +%s) - tests_start)) s (stage $(($(date +%s) - start)) s)"
done

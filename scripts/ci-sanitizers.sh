#!/usr/bin/env bash
# The sanitizer stages of CI (README "Reliability"), each in its own build directory:
#   asan  ASan + UBSan (-O1 -g): the whole test suite, GUI tests included (offscreen).
#   tsan  TSan (-O1 -g): the threading tests only (engine thread, worker lifecycle, cancellation),
#         built as just the targets they need. OpenMP (libgomp) is not instrumented, so these tests
#         use scripted backends without OpenMP regions (see scripts/sanitizers/tsan.supp).
# CUDA is left out of sanitizer builds (cmake/RnnprofCuda.cmake). Benchmarks and fuzzers are off.
# Usage: scripts/ci-sanitizers.sh [asan] [tsan]   (no argument: both)
# Build directories: $RNNPROF_ASAN_BUILD_DIR (default build-asan), $RNNPROF_TSAN_BUILD_DIR
# (default build-tsan); $RNNPROF_JOBS parallel jobs (default: every core).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jobs="${RNNPROF_JOBS:-$(nproc)}"
supp="$root/scripts/sanitizers"
stages=("$@")
[ ${#stages[@]} -eq 0 ] && stages=(asan tsan)

# The threading tests, as GoogleTest filters per test executable.
tsan_tests=(
    "profiling_tests:SweepRunner.*:EveryPhase/StopAtPhase.*-SweepRunner.ChecksNumerics*:SweepRunner.ChecksLarge*"
    "faults_tests:ThreadedStop*.*:*/ThreadedStop*.*:JournalUnderStop.*"
    "gui_tests:SweepController.*:EngineWorker*.*:*Worker*.*"
    "cupti_tests:ActivityBufferPool.*"
)

configure() { # dir, extra cmake arguments...
    local dir="$1"
    shift
    cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g" \
        -DRNNPROF_BUILD_BENCHMARKS=OFF -DRNNPROF_BUILD_FUZZERS=OFF -DRNNPROF_BUILD_TESTS=ON "$@" >/dev/null
}

seconds_since() { echo $(($(date +%s) - $1)); }

run_asan() {
    local dir="${RNNPROF_ASAN_BUILD_DIR:-$root/build-asan}" start
    start=$(date +%s)
    configure "$dir" -DRNNPROF_SANITIZE="address;undefined" -DRNNPROF_BUILD_GUI=ON
    cmake --build "$dir" --parallel "$jobs"
    echo "ci-sanitizers: asan build finished in $(seconds_since "$start") s"
    local tests_start
    tests_start=$(date +%s)
    # Leaks of third-party libraries only (fontconfig, Qt plugin loading, libgomp): see the file.
    ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:check_initialization_order=1:strict_init_order=1" \
        LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0" \
        UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" QT_QPA_PLATFORM=offscreen \
        ctest --test-dir "$dir" --output-on-failure --parallel "$jobs" --timeout 900
    echo "ci-sanitizers: asan tests finished in $(seconds_since "$tests_start") s" \
        "(stage $(seconds_since "$start") s)"
}

run_tsan() {
    local dir="${RNNPROF_TSAN_BUILD_DIR:-$root/build-tsan}" start targets=() entry
    start=$(date +%s)
    configure "$dir" -DRNNPROF_SANITIZE=thread -DRNNPROF_BUILD_GUI=ON
    for entry in "${tsan_tests[@]}"; do targets+=("${entry%%:*}"); done
    cmake --build "$dir" --parallel "$jobs" --target "${targets[@]}"
    echo "ci-sanitizers: tsan build finished in $(seconds_since "$start") s"
    local tests_start failed=0 exe filter
    tests_start=$(date +%s)
    for entry in "${tsan_tests[@]}"; do
        exe="${entry%%:*}"
        filter="${entry#*:}"
        echo "ci-sanitizers: tsan $exe --gtest_filter=$filter"
        if ! TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$supp/tsan.supp" \
            QT_QPA_PLATFORM=offscreen "$dir/tests/$exe" --gtest_filter="$filter"; then
            echo "ci-sanitizers: tsan $exe FAILED" >&2
            failed=1
        fi
    done
    echo "ci-sanitizers: tsan tests finished in $(seconds_since "$tests_start") s" \
        "(stage $(seconds_since "$start") s)"
    return "$failed"
}

for stage in "${stages[@]}"; do
    case "$stage" in
    asan) run_asan ;;
    tsan) run_tsan ;;
    *)
        echo "ci-sanitizers: unknown stage '$stage' (asan or tsan)" >&2
        exit 2
        ;;
    esac
done

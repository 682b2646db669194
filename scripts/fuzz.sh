#!/usr/bin/env bash
# Builds the libFuzzer targets (the CMake preset 'fuzz': clang, ASan + UBSan, tests/fuzz/) and runs each one for SECONDS on
# a scratch copy of its seed corpus (tests/fuzz/corpus/<target>/ is never modified), then prints
# how many inputs each target executed. A crash, leak, timeout or violated property fails the
# script and leaves the input under <build>/fuzz-artifacts/ (reproduce: <build>/tests/fuzz/fuzz_<target> FILE).
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]      SECONDS defaults to 60; all targets by default.
# Environment: RNNPROF_FUZZ_BUILD_DIR (default build-fuzz), RNNPROF_JOBS (build jobs and how many
# targets run at once; default every core).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
[ $# -gt 0 ] && shift
all_targets=(npy results_json results_charts journal plan_json sweep_args eval_args csv)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all_targets[@]}")
build="${RNNPROF_FUZZ_BUILD_DIR:-$root/build-fuzz}"
jobs="${RNNPROF_JOBS:-$(nproc)}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
    echo "fuzz: SECONDS must be a whole number of seconds >= 1 (got '$seconds')" >&2
    exit 2
fi
corpus_of() { # results_charts reads results files too
    case "$1" in
    results_charts) echo "$root/tests/fuzz/corpus/results_json" ;;
    *) echo "$root/tests/fuzz/corpus/$1" ;;
    esac
}
for t in "${targets[@]}"; do
    if [ ! -d "$(corpus_of "$t")" ]; then
        echo "fuzz: unknown target '$t' (known: ${all_targets[*]})" >&2
        exit 2
    fi
done

# clang, its libFuzzer runtime and OpenMP library (the engine links OpenMP) are Debian packages.
"$root/scripts/install-deps.sh" >/dev/null

start=$(date +%s)
(cd "$root" && cmake --preset fuzz -B "$build" >/dev/null)
(cd "$root" && cmake --build "$build" --parallel "$jobs" --target "${targets[@]/#/fuzz_}")
echo "fuzz: build finished in $(($(date +%s) - start)) s"

work="$build/fuzz-work"
artifacts="$build/fuzz-artifacts"
logs="$build/fuzz-logs"
mkdir -p "$work" "$artifacts" "$logs"
dict_for() {
    case "$1" in
    npy) echo "$root/tests/fuzz/dict/npy.dict" ;;
    results_json | results_charts | journal | plan_json) echo "$root/tests/fuzz/dict/json.dict" ;;
    sweep_args | eval_args) echo "$root/tests/fuzz/dict/cli.dict" ;;
    esac
}

run_one() {
    local t="$1" dict
    dict="$(dict_for "$t")"
    mkdir -p "$work/$t"
    cp -n "$(corpus_of "$t")"/* "$work/$t"/ # earlier runs' finds stay in the scratch copy
    # Relative paths in the command-line seeds (resources/presets/...) resolve from the root.
    local rc=0
    (cd "$root" && ASAN_OPTIONS="abort_on_error=1:detect_leaks=1" \
        LSAN_OPTIONS="suppressions=$root/scripts/sanitizers/lsan.supp:print_suppressions=0" \
        UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
        "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$artifacts/$t-" ${dict:+-dict="$dict"} "$work/$t") \
        >"$logs/$t.log" 2>&1 || rc=$?
    echo "$rc" >"$logs/$t.rc"
}

run_start=$(date +%s)
for t in "${targets[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    run_one "$t" &
done
wait

failed=0
printf '%-14s %12s %10s %8s  %s\n' target executions exec/s corpus result
for t in "${targets[@]}"; do
    rc="$(cat "$logs/$t.rc" 2>/dev/null || echo "not run")"
    execs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$logs/$t.log" | grep -o '[0-9]*$' | tail -1 || true)"
    speed="$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$logs/$t.log" | grep -o '[0-9]*$' | tail -1 || true)"
    corpus="$(find "$work/$t" -type f | wc -l)"
    result="no crash in ${seconds} s"
    if [ "$rc" != 0 ]; then
        result="FAILED (exit $rc): see $logs/$t.log, input under $artifacts/"
        failed=1
    fi
    printf '%-14s %12s %10s %8s  %s\n' "$t" "${execs:-?}" "${speed:-?}" "$corpus" "$result"
done
echo "fuzz: ${#targets[@]} targets ran ${seconds} s each in $(($(date +%s) - run_start)) s (total $(($(date +%s) - start)) s)"
if [ "$failed" -ne 0 ]; then
    for t in "${targets[@]}"; do
        [ "$(cat "$logs/$t.rc" 2>/dev/null)" = 0 ] || { echo "---- $t"; tail -40 "$logs/$t.log"; }
    done
    exit 1
fi

#!/usr/bin/env bash
# Nightly-style fuzzing of the file readers, outside CI's time budget: each target runs until it
# has executed RUNS inputs (default 10,000,000) or for CAP seconds (default 4 h), whichever comes
# first, then the executions per target are printed with whether RUNS was reached.
# For speed the executions run on the 'fuzz-fast' build (build-fuzz-fast/: UBSan only, -O2; 3.5-4.2x
# the inputs per second of ASan + UBSan at -O1 on the 2-core machine); then every input that run kept
# (its corpus: the seeds and each input that reached new code) is replayed through the 'fuzz'
# build's ASan + UBSan, so that a memory error an input causes without crashing is still found.
# Corpora, checks and reports as scripts/fuzz.sh (scripts/fuzz-common.sh); a crash, leak, timeout
# or violated property, in the run or the replay, fails the script (exit 1) and leaves the input under
# <build>/fuzz-artifacts/.
# Usage: scripts/fuzz-long.sh [RUNS] [CAP_SECONDS] [TARGET...]
#   targets default to the file readers: npy results_json journal csv plan_json results_charts.
# Environment: as scripts/fuzz.sh (RNNPROF_FUZZ_BUILD_DIR: the ASan build, RNNPROF_JOBS,
# RNNPROF_FUZZ_TIMEOUT), and RNNPROF_FUZZ_FAST_BUILD_DIR (default build-fuzz-fast).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/fuzz-common.sh"
runs="${1:-10000000}"
cap="${2:-14400}"
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(npy results_json journal csv plan_json results_charts)
jobs="${RNNPROF_JOBS:-$(nproc)}"
for value in "$runs" "$cap"; do
    if ! [[ "$value" =~ ^[0-9]+$ ]] || [ "$value" -lt 1 ]; then
        echo "fuzz-long: RUNS and CAP_SECONDS must be whole numbers >= 1 (got '$runs' and '$cap')" >&2
        exit 2
    fi
done
fuzz_check_targets

start=$(date +%s)
asan_build="$build"
fuzz_use_build fuzz-fast "${RNNPROF_FUZZ_FAST_BUILD_DIR:-$root/build-fuzz-fast}"
fast_work="$work"
fuzz_build
fuzz_run_all -runs="$runs" -max_total_time="$cap"
status=0
fuzz_report "no crash (UBSan)" || status=1
short=()
for t in "${targets[@]}"; do
    execs="$(fuzz_executions "$t")"
    [ "${execs:-0}" -ge "$runs" ] || short+=("$t (${execs:-?})")
done

fuzz_use_build fuzz "$asan_build"
fuzz_build
for t in "${targets[@]}"; do
    fuzz_replay_one "$t" "$fast_work/$t"
    inputs="$(find "$fast_work/$t" -type f | wc -l)"
    if [ "$(cat "$logs/$t-replay.rc")" = 0 ]; then
        echo "fuzz-long: $t: its $inputs kept inputs replayed under ASan + UBSan, no error"
    else
        echo "fuzz-long: $t: the ASan + UBSan replay of its $inputs kept inputs FAILED: see $logs/$t-replay.log"
        tail -40 "$logs/$t-replay.log"
        status=1
    fi
done
if [ ${#short[@]} -eq 0 ]; then
    echo "fuzz-long: every target reached $runs executions in $(($(date +%s) - start)) s"
else
    echo "fuzz-long: stopped by the $cap s cap before $runs executions: ${short[*]}"
fi
exit "$status"

#!/usr/bin/env bash
# Nightly-style fuzzing of the file readers, outside CI's time budget: each target runs until it
# has executed RUNS inputs (default 10,000,000) or for CAP seconds (default 4 h), whichever comes
# first, then the executions per target are printed with whether RUNS was reached. Builds and runs
# exactly as scripts/fuzz.sh (scripts/fuzz-common.sh); a crash, leak, timeout or violated property
# fails the script (exit 1) and leaves the input under <build>/fuzz-artifacts/.
# Usage: scripts/fuzz-long.sh [RUNS] [CAP_SECONDS] [TARGET...]
#   targets default to the file readers: npy results_json journal csv plan_json results_charts.
# Environment: as scripts/fuzz.sh (RNNPROF_FUZZ_BUILD_DIR, RNNPROF_JOBS, RNNPROF_FUZZ_TIMEOUT).
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
fuzz_build
fuzz_run_all -runs="$runs" -max_total_time="$cap"
status=0
fuzz_report "no crash" || status=1
short=()
for t in "${targets[@]}"; do
    execs="$(fuzz_executions "$t")"
    [ "${execs:-0}" -ge "$runs" ] || short+=("$t (${execs:-?})")
done
if [ ${#short[@]} -eq 0 ]; then
    echo "fuzz-long: every target reached $runs executions in $(($(date +%s) - start)) s"
else
    echo "fuzz-long: stopped by the $cap s cap before $runs executions: ${short[*]}"
fi
exit "$status"

#!/usr/bin/env bash
# Builds the libFuzzer targets (the CMake preset 'fuzz': clang, ASan + UBSan, tests/fuzz/) and runs each one for SECONDS on
# a scratch copy of its seed corpus (tests/fuzz/corpus/<target>/ is never modified), then prints
# how many inputs each target executed. A crash, leak, timeout or violated property fails the
# script and leaves the input under <build>/fuzz-artifacts/ (reproduce: <build>/tests/fuzz/fuzz_<target> FILE).
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]      SECONDS defaults to 60; all targets by default.
# Environment: RNNPROF_FUZZ_BUILD_DIR (default build-fuzz), RNNPROF_JOBS (build jobs and how many
# targets run at once; default every core), RNNPROF_FUZZ_TIMEOUT (seconds one input may take before
# it fails as a hang; default 10). Longer, nightly-style runs: scripts/fuzz-long.sh.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/fuzz-common.sh"
seconds="${1:-60}"
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all_targets[@]}")
jobs="${RNNPROF_JOBS:-$(nproc)}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
    echo "fuzz: SECONDS must be a whole number of seconds >= 1 (got '$seconds')" >&2
    exit 2
fi
fuzz_check_targets

start=$(date +%s)
fuzz_build
run_start=$(date +%s)
fuzz_run_all -max_total_time="$seconds"
status=0
fuzz_report "no crash in ${seconds} s" || status=1
echo "fuzz: ${#targets[@]} targets ran ${seconds} s each in $(($(date +%s) - run_start)) s (total $(($(date +%s) - start)) s)"
exit "$status"

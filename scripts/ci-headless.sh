#!/usr/bin/env bash
# Builds rnnprof without the desktop application (the CMake preset 'headless': no widgets, no
# CUDA, no tests) and checks that the headless commands work there: --version, sweep --list-presets,
# a small sweep to a results file, and that sweep --charts is refused with the reason (exit 2).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
jobs="${RNNPROF_JOBS:-$(nproc)}"
cmake --preset headless >/dev/null
cmake --build --preset headless --parallel "$jobs" --target rnnprof
exe=build-headless/rnnprof
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$exe" --version | head -1
"$exe" sweep --list-presets | grep -q '^quick-start '
"$exe" sweep --cell gru --input-size 8 --hidden-size 8 --batch 1,2 --seq-len 3 --backend cpu-reference,cpu-blas \
    --mode infer --repeats 2 --warmup 0 --quiet --out "$work/r.json" >/dev/null
grep -q '"points"' "$work/r.json"
rc=0
"$exe" sweep --charts "$work/charts" --out "$work/c.json" 2>"$work/err" || rc=$?
if [ "$rc" -ne 2 ] || ! grep -q "built without it" "$work/err"; then
    echo "ci-headless: sweep --charts should be refused (exit 2) in a build without the GUI; got exit $rc:" >&2
    cat "$work/err" >&2
    exit 1
fi
echo "ci-headless: rnnprof eval|sweep|--version work without the desktop application"

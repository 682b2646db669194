#!/usr/bin/env bash
# Fails when a generated page is stale: docs/cli.md against the program's --help
# (scripts/cli-doc.sh), README.md's predict-check block against `rnnprof predict --check` on the
# shipped references, and docs/performance.md against bench/results/ (scripts/bench-table.py
# --markdown). Prints the difference and the command that regenerates the page.
# Usage: scripts/check-docs.sh [RNNPROF]   (default build/rnnprof)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exe="${1:-$root/build/rnnprof}"
status=0
check() { # page, regenerating command...
    local page=$1
    shift
    if ! diff -u "$root/$page" <("$@") >&2; then
        echo "check-docs: $page is stale: run $* > $page" >&2
        status=1
    fi
}
check docs/cli.md bash "$root/scripts/cli-doc.sh" "$exe"
# README.md's validation of predicted GPU times: the block between its predict-check markers is
# `rnnprof predict --check` on the shipped untraced references.
predict_check() {
    cd "$root" && "$exe" predict --check $(ls resources/reference/h100-*.json | grep -v -- -traced | sed 's/^/--from /')
}
readme_block() { awk '/<!-- end predict-check -->/{f=0} f; /<!-- begin predict-check -->/{f=1}' "$root/README.md"; }
if ! diff -u <(readme_block) <(predict_check) >&2; then
    echo "check-docs: README.md's predict-check block is stale: put the output of scripts/check-docs.sh's" \
        "predict_check there" >&2
    status=1
fi
check docs/performance.md python3 "$root/scripts/bench-table.py" --markdown "$root/bench/results"
[ $status -eq 0 ] && echo "check-docs: docs/cli.md, README.md's predict-check block and docs/performance.md are up to date"
exit $status

#!/usr/bin/env bash
# Fails when a generated page is stale: docs/cli.md against the program's --help
# (scripts/cli-doc.sh) and docs/performance.md against bench/results/ (scripts/bench-table.py
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
check docs/performance.md python3 "$root/scripts/bench-table.py" --markdown "$root/bench/results"
[ $status -eq 0 ] && echo "check-docs: docs/cli.md and docs/performance.md are up to date"
exit $status

#!/usr/bin/env bash
# Prints docs/cli.md: `rnnprof --help` and every sub-command's --help, verbatim, as one Markdown
# page. The help texts are the single source; `scripts/check-docs.sh` fails when the page differs.
# Usage: scripts/cli-doc.sh [RNNPROF]   (default build/rnnprof) > docs/cli.md
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exe="${1:-$root/build/rnnprof}"
export QT_QPA_PLATFORM=offscreen
echo "# Command line"
echo
echo "Generated from the program's own \`--help\` by \`scripts/cli-doc.sh\`; do not edit by hand."
echo
echo '```text'
"$exe" --help
echo '```'
for command in sweep crossover eval plot report predict merge; do
    echo
    echo "## rnnprof $command"
    echo
    echo '```text'
    "$exe" "$command" --help
    echo '```'
done

#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to the running application: installs what is missing,
# builds, starts rnnprof. Without a display it says so and runs the default sweep headless.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
exec "${RNNPROF_BUILD_DIR:-$root/build}/rnnprof" "$@"

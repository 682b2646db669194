#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to the whole test suite: installs what is missing,
# builds everything (GPU code included when the CUDA toolkit is present), runs every test.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
build="${RNNPROF_BUILD_DIR:-$root/build}"
export QT_QPA_PLATFORM=offscreen
ctest --test-dir "$build" --output-on-failure --parallel "${RNNPROF_JOBS:-$(nproc)}" --timeout 900

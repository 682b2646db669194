#!/usr/bin/env bash
# Configures (the CMake preset 'release') and builds rnnprof into ${RNNPROF_BUILD_DIR:-build}.
# Extra arguments go to cmake.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${RNNPROF_BUILD_DIR:-$root/build}"
jobs="${RNNPROF_JOBS:-$(nproc)}"
if [ ! -f "$build/build.ninja" ]; then
    (cd "$root" && cmake --preset release -B "$build" "$@")
elif [ $# -gt 0 ]; then
    cmake "$build" "$@"
fi
cmake --build "$build" --parallel "$jobs"

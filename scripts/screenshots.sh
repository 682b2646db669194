#!/usr/bin/env bash
# Regenerates the README screenshots in docs/screenshots/: builds the developer tool
# rnnprof_gui_tools, opens the real main window offscreen (no display needed), runs a real small
# sweep on this machine's backends (a minute or two), then grabs the window once per chart tab and
# once in the dark palette. Extra arguments go to the tool (e.g. --preset cpu-gpu-crossover).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${RNNPROF_BUILD_DIR:-$root/build}"
jobs="${RNNPROF_JOBS:-$(nproc)}"
if [ ! -f "$build/build.ninja" ]; then
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$build" --target rnnprof_gui_tools --parallel "$jobs"
out="$root/docs/screenshots"
mkdir -p "$out"
QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}" "$build/rnnprof_gui_tools" screenshots "$out" "$@"
echo "screenshots: wrote $(ls "$out"/*.png | wc -l) images to $out"

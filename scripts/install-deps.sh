#!/usr/bin/env bash
# Installs the Debian 12 packages rnnprof needs, skipping what is already there.
# Uses sudo when not run as root. The CUDA toolkit is optional and not installed here.
# `install-deps.sh --list` prints the package names, one per line, and installs nothing
# (scripts/check-deps.py reads the list from there).
#
# Packages are installed without their Recommends, so everything the build opens must be named
# here or be in the Depends closure of what is named: oneDNN's CMake config needs OpenCL
# (ocl-icd-opencl-dev is only recommended by libdnnl-dev), Qt Charts needs Qt OpenGL
# (libqt6opengl6-dev is only recommended by qt6-base-dev). scripts/check-deps.py proves it in CI.
set -euo pipefail

packages=(
    # build
    build-essential cmake ninja-build pkg-config
    # application
    qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev
    libopenblas-dev libdnnl-dev ocl-icd-opencl-dev nlohmann-json3-dev
    # tests and benchmarks
    libgtest-dev libgmock-dev libbenchmark-dev fonts-dejavu-core
    # the report opened in a real browser (tests/cli/report_test.cpp; skipped without it)
    chromium
    # sanitizer and fuzz builds (clang, its libFuzzer runtime and OpenMP)
    clang libclang-rt-14-dev libomp-14-dev clang-format
    # packaging (.deb with computed Depends) and the dependency check of CI
    dpkg-dev file strace python3
)

if [ "${1:-}" = "--list" ]; then
    printf '%s\n' "${packages[@]}"
    exit 0
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#packages[@]} packages present"
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
        echo "install-deps: missing packages (${missing[*]}) and not root, and sudo is not available" >&2
        exit 1
    fi
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"

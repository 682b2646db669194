#!/usr/bin/env bash
# Builds the .deb from a finished build (CPack, computed Depends) and checks what is in it:
# the program, the desktop entry and the icon, a Depends line without the CUDA toolkit, and that
# the unpacked program runs.
# Usage: scripts/ci-package.sh [BUILD_DIR]   (default: ${RNNPROF_BUILD_DIR:-build})
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-${RNNPROF_BUILD_DIR:-$root/build}}"
[ -f "$build/CPackConfig.cmake" ] || { echo "ci-package: $build is not a configured build folder" >&2; exit 2; }
rm -f "$build"/rnnprof_*.deb
(cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls "$build"/rnnprof_*_amd64.deb)
echo "ci-package: $(basename "$deb") ($(stat -c %s "$deb") bytes)"
info=$(dpkg-deb --info "$deb")
contents=$(dpkg-deb --contents "$deb")
failed=0
for f in ./usr/bin/rnnprof ./usr/share/applications/rnnprof.desktop \
    ./usr/share/icons/hicolor/scalable/apps/rnnprof.svg ./usr/share/doc/rnnprof/presets.md; do
    if ! grep -q " $f\$" <<<"$contents"; then
        echo "ci-package: $f is missing from the package" >&2
        failed=1
    fi
done
depends=$(sed -n 's/^ Depends: //p' <<<"$info")
if [ -z "$depends" ] || ! grep -q "libqt6widgets6" <<<"$depends"; then
    echo "ci-package: Depends was not computed from the libraries (got '$depends')" >&2
    failed=1
fi
if grep -qiE "cuda|cudnn|cublas|cupti" <<<"$depends"; then
    echo "ci-package: Depends names CUDA libraries, which are no Debian packages: $depends" >&2
    failed=1
fi
echo "ci-package: Depends: $depends"
# The packaged program runs from where dpkg would put it.
unpacked=$(mktemp -d)
trap 'rm -rf "$unpacked"' EXIT
dpkg-deb -x "$deb" "$unpacked"
if ! version=$(QT_QPA_PLATFORM=offscreen "$unpacked/usr/bin/rnnprof" --version | head -1); then
    echo "ci-package: the packaged rnnprof --version failed" >&2
    failed=1
fi
echo "ci-package: packaged program says: $version"
exit "$failed"

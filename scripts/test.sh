#!/usr/bin/env bash
# Runs every test: GoogleTest unit tests, lit/FileCheck tests, and the
# corpus tests (torch + stdlib parse, cross-check with CPython's ast).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh
cd build
ctest --output-on-failure -j"$(nproc)" "$@"

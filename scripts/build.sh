#!/usr/bin/env bash
# Installs what is missing, configures (Release preset) and builds detc.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
if [ ! -f build/build.ninja ]; then
  cmake --preset release >/dev/null
fi
ninja -C build "$@"

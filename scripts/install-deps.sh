#!/usr/bin/env bash
# Installs detc's build and test dependencies from Debian 12 packages.
# Idempotent: when every package is already present it only runs dpkg-query
# (well under a second) and touches nothing.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build ccache git
  llvm-19-dev libmlir-19-dev mlir-19-tools llvm-19-tools
  antlr4 libantlr4-runtime-dev
  libboost-graph-dev libz3-dev libicu-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  pybind11-dev python3-dev
  libtomlplusplus-dev libsimdjson-dev libxxhash-dev python3-yaml
  libtcmalloc-minimal4
  python3-torch python3-numpy python3-torchvision
  python3-tqdm  # scripts shaped like users' (tqdm progress bars) in the e2e tests
  python3-venv  # test/platform/torch2.py: pip's torch 2.x beside Debian's 1.13
  python3-pandas  # bench/infer_scaling.py's baseline only
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
  [ "$status" = "installed" ] || missing+=("$pkg")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "detc: installing missing Debian packages: ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "detc: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"

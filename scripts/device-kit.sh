#!/usr/bin/env bash
# Prepares what the GPU check (scripts/device-check.sh) needs on a lent
# machine that has CUDA torch and a compiler but no LLVM/MLIR: the headers
# the runtime core compiles with (pybind11, xxhash) and the transforms of
# the GPU example and of the JIT test script, made here with the built
# detc. Run after ./scripts/build.sh; then pass `build/device-kit` in the
# device tool's carry list.
set -euo pipefail
cd "$(dirname "$0")/.."
kit=build/device-kit
rm -rf "$kit"
mkdir -p "$kit/include" "$kit/transformed"
cp -r /usr/include/pybind11 "$kit/include/"
cp /usr/include/xxhash.h "$kit/include/"
# What test/device/detc_shim.py serves there, named as it looks them up.
build/bin/detc transform examples/cuda_train.py --emit-python \
  -o "$kit/transformed/cuda_train.py"
build/bin/detc transform test/e2e/Inputs/jit_train.py --emit-python \
  --jit-checkpoint -o "$kit/transformed/jit_train.jit.py"
du -sh "$kit"

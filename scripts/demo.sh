#!/usr/bin/env bash
# The newcomer's first command: build detc, then run its main job on the
# bundled PGD adversarial-training example. Today: lower the script to the
# detc dialect (generators, draws, data-parallel regions, model builds,
# checkpoints) and analyse it (unsafe generator uses, lint findings, replay
# summary), with the solutions checked by Z3.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh detc detc-opt >/dev/null
example=examples/pgd_train.py
echo "== detc $example --emit=mlir  (the training loop of main())"
./build/bin/detc "$example" | sed -n '/detc.func @main/,$p'
echo "== where the randomness is: every draw and generator, and the regions"
./build/bin/detc "$example" |
  grep -E 'detc\.(draw|create_generator|global_generator|parallel|build ")' |
  sed -E 's/^ +//'
echo "== detc analyze $example --verify  (findings, replay summary; Z3 checks the solutions)"
./build/bin/detc analyze "$example" --verify

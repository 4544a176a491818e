#!/usr/bin/env bash
# The newcomer's first command: build detc, then run its main job on the
# bundled PGD adversarial-training example. Today that is the frontend:
# parse the script and show its syntax tree with exact source ranges.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh detc >/dev/null
example=examples/pgd_train.py
echo "== detc parse $example (statements and calls; full dump: build/bin/detc parse $example)"
./build/bin/detc parse "$example" | grep -E '^  body: |^ +[a-z_]+: Call <' | head -60
echo "== syntax check of the example, with statistics"
./build/bin/detc parse --emit=none --stats "$example"

#!/usr/bin/env bash
# The newcomer's first command: build detc, then run its main job on the
# bundled PGD adversarial-training example: analyse it (unsafe generator
# uses, replay summary; Z3 checks the solutions), transform it into the
# deterministic script, run both the original and the transformed script
# with num_workers 0 and 2, and show that only the transformed one gives
# the same weights; then SIGKILL one run and resume it, and let CheckHint
# choose where to checkpoint the CheckHint example and restart a killed run there.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== building detc (the first time: about 4 minutes on 2 cores; ninja shows its progress)"
./scripts/build.sh detc DetcRuntimePython
example=examples/pgd_train.py
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "== detc analyze $example --verify"
./build/bin/detc analyze "$example" --verify

echo
echo "== detc transform $example --emit-python --diff   (every edit is marked '# detc:')"
./build/bin/detc transform "$example" --emit-python --diff
./build/bin/detc transform "$example" --emit-python -o "$out/pgd_train.det.py"

digest() {
  /usr/bin/python3 -c '
import hashlib, sys, torch
state = torch.load(sys.argv[1])["model"]
h = hashlib.sha256()
for t in state.values():
    h.update(t.numpy().tobytes())
print(h.hexdigest()[:16])' "$1"
}

echo
echo "== run both scripts with num_workers 0 and 2 (2 epochs each)"
for script in "$example" "$out/pgd_train.det.py"; do
  for w in 0 2; do
    PYTHONPATH=build/python PYTHONWARNINGS=ignore /usr/bin/python3 "$script" \
      --num-workers "$w" --out "$out/w$w.pt" >/dev/null
  done
  name=original; [ "$script" = "$example" ] || name=transformed
  printf '%-12s num_workers=0: %s   num_workers=2: %s\n' "$name" \
    "$(digest "$out/w0.pt")" "$(digest "$out/w2.pt")"
done
echo "(the weights' SHA-256: the transformed script's are bit-identical)"

echo
echo "== crash and resume: the transformed script checkpoints every 5 steps;"
echo "   kill it with SIGKILL mid-run, resume with --detc-resume, compare"
run() {
  # exec: the background job is python itself, so kill -9 reaches it.
  PYTHONPATH=build/python PYTHONWARNINGS=ignore exec /usr/bin/python3 \
    "$out/pgd_train.det.py" --epochs 4 --examples 4096 --features 64 \
    --hidden 256 --ckpt-every 5 "$@"
}
# kill_after_checkpoint SIDECAR SECONDS: SIGKILL the background job $pid
# SECONDS after its first checkpoint (the sidecar appears with it).
kill_after_checkpoint() {
  while [ ! -e "$1" ] && kill -0 "$pid" 2>/dev/null; do
    sleep 0.05
  done
  sleep "$2"
  kill -9 "$pid" 2>/dev/null && echo "killed the run (pid $pid)"
  wait "$pid" 2>/dev/null || true
}
(run --out "$out/full.pt" >/dev/null)
run --out "$out/crash.pt" >/dev/null &
pid=$!
kill_after_checkpoint "$out/crash.pt.detc.json" 0.5
(run --out "$out/crash.pt" --detc-resume "$out/crash.pt" >/dev/null)
printf 'uninterrupted: %s   killed and resumed: %s\n' \
  "$(digest "$out/full.pt")" "$(digest "$out/crash.pt")"

echo
echo "== CheckHint: where to checkpoint examples/checkhint_train.py (_checkpoint() hints)"
hint_example=examples/checkhint_train.py
./build/bin/detc transform "$hint_example" --emit-python -o "$out/profile.det.py"
PYTHONPATH=build/python /usr/bin/python3 "$out/profile.det.py" --steps 100 \
  --out "$out/p.pt" --detc-profile "$out/profile.json" >/dev/null 2>&1
echo "profiled one run; the schedule for a 5% allowance from the measured costs:"
./build/bin/detc transform "$hint_example" --emit-python --overhead=0.05 \
  --profile="$out/profile.json" -o "$out/hint.det.py"
hrun() {
  PYTHONPATH=build/python PYTHONWARNINGS=ignore exec /usr/bin/python3 \
    "$out/hint.det.py" --steps 150 --detc-checkpoint "$out/hint.ckpt" "$@"
}
(hrun --out "$out/hfull.pt" >/dev/null)
rm -f "$out"/hint.ckpt*
hrun --out "$out/hcrash.pt" >/dev/null &
pid=$!
kill_after_checkpoint "$out/hint.ckpt.detc.json" 0.3
(hrun --out "$out/hcrash.pt" --detc-restart 2>&1 >/dev/null | grep resumed) || true
/usr/bin/python3 -c '
import sys, torch
a, b = (torch.load(p) for p in sys.argv[1:])
same = a["history"] == b["history"] and all(
    torch.equal(a[k], b[k]) for k in ("params", "velocity"))
print("uninterrupted vs killed and restarted at the hint:",
      "bit-identical" if same else "DIFFERENT")' "$out/hfull.pt" "$out/hcrash.pt"

#!/usr/bin/env python3
"""CheckHint scheduler time (issue 7): `detc schedule` on generated task
files with n = 10^3 .. 10^6 tasks and m = 10^3 checkpoints, the fast exact
algorithm against the naive O(m·n²) DP in the same run (the naive one only
where it finishes in reasonable time: m·n²/2 ≤ --naive-budget), with the
optimum of both compared. Task times are uniform (0.5–2 s) or heavy-tailed
(a product of exponentials); failure rate 1e-5/s. Solver time is the
`--stats` figure (reading the JSON task file is not counted).

A program with 10^9 rolled loop iterations is scheduled too (periodic
schedule, no unrolling).

usage: schedule_scaling.py [--detc build/bin/detc] [--naive-budget 3e9]
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def task_file(path, n, kind, checkpoints, seed):
    rng = random.Random(seed)
    if kind == "uniform":
        tasks = [rng.uniform(0.5, 2.0) for _ in range(n)]
    else:
        tasks = [3 * rng.expovariate(1) * rng.expovariate(1)
                 for _ in range(n)]
    total = sum(tasks)
    cost = 10.0
    # ℓ = ⌈o·Σt/t_c⌉ = checkpoints exactly.
    allowance = (checkpoints - 0.5) * cost / total
    with open(path, "w") as f:
        json.dump({"tasks": tasks, "checkpoint_seconds": cost,
                   "allowance": allowance, "failure_rate": 1e-5}, f)


def schedule(detc, path, algorithm):
    out = subprocess.run([detc, "schedule", path, "--format=json", "--stats",
                          "--algorithm=" + algorithm],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("bench: detc schedule failed\n" + out.stderr)
    return json.loads(out.stdout)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--detc", default=os.path.join(ROOT, "build", "bin",
                                                       "detc"))
    parser.add_argument("--naive-budget", type=float, default=3e9)
    args = parser.parse_args()
    m = 1000
    print("%-6s %9s %7s %12s %7s %12s %10s" % (
        "tasks", "kind", "blocks", "fast s", "steps", "naive s",
        "same opt"))
    worst = 0
    with tempfile.TemporaryDirectory(prefix="detc-sched-") as tmp:
        for n in (1000, 2000, 10_000, 100_000, 1_000_000):
            for kind in ("uniform", "heavy"):
                path = os.path.join(tmp, "%d-%s.json" % (n, kind))
                task_file(path, n, kind, m, n)
                fast = schedule(args.detc, path, "fast")
                blocks = len(fast["checkpoints"]) + 1
                naive_s, same = "-", "-"
                if blocks * n * n / 2 <= args.naive_budget:
                    naive = schedule(args.detc, path, "naive")
                    naive_s = "%.3f" % naive["stats"]["solver_seconds"]
                    a = fast["expected_recovery_seconds"]
                    b = naive["expected_recovery_seconds"]
                    same = "yes" if abs(a - b) <= 1e-9 * max(a, b) else "NO"
                seconds = fast["stats"]["solver_seconds"]
                worst = max(worst, seconds) if n == 1_000_000 else worst
                print("%-6s %9s %7d %12.4f %7d %12s %10s" % (
                    "%.0e" % n if n >= 10_000 else n, kind, blocks, seconds,
                    fast["stats"]["lagrange_steps"], naive_s, same))
    print("10^6 tasks, 10^3 checkpoints: %.3f s at worst (target < 1 s)" %
          worst)
    # Rolled loops: 10 epochs of 10^8 steps, scheduled without unrolling.
    with tempfile.TemporaryDirectory(prefix="detc-sched-") as tmp:
        path = os.path.join(tmp, "billion.json")
        with open(path, "w") as f:
            json.dump({"program": [30, {"loop": 10, "body": [
                5, {"loop": 100_000_000, "body": [0.01, {"hint": "step"}]},
                {"hint": "epoch"}]}], "checkpoint_seconds": 60,
                "allowance": 0.01, "failure_rate": 1e-7}, f)
        out = schedule(args.detc, path, "auto")
        print("10^9 loop iterations (rolled): periodic schedule in %.4f s, "
              "%d checkpoints every %d steps" % (
                  out["stats"]["solver_seconds"], out["checkpoints"],
                  out["period"]))


if __name__ == "__main__":
    main()

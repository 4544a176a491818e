#!/usr/bin/env python3
"""Analysis scaling: `detc analyze` on generated training scripts of ~1k, 10k
and 100k lines, against CPython's ast.parse of the same text in the same run.

Usage: bench/analysis_scaling.py [DETC] [--sizes 1000,10000,100000] [--repeat N]

Each script is a sequence of independent training "stages" of ~45 lines (a
model class with dropout, a dataset whose __getitem__ draws from numpy, a
helper drawing noise from a generator passed in, and a training function with
an epoch loop, a DataLoader with workers, forward/backward/step), called from
main; two checkpoint sites (one inside the first stage's epoch loop, one at
the end). Everything detc does runs: lowering, the expanded statement graph,
generator aliasing, ThreadSafe/ERR, liveness, Needed per checkpoint,
dominators and loops, lints.

Prints per size: lines, graph nodes, seconds (lowering, analyses, whole
process), microseconds per line, and the ratio to ast.parse; then the growth
exponent (slope of log time vs log lines between the smallest and the largest
size). Targets (issue 4): exponent < 1.2, the analyses of 100k lines in
under 2 s (the front end is measured too, and reported separately); issue
17: the whole process on 100k lines in <= 3 s, and memory growing by at most
40 bytes per byte of script (the peak is the program's own, from --stats:
the slope between the two largest sizes leaves out the libraries' pages).
`--sizes 1950000 --repeat 1` measures issue 17's 50 MB script (~80 s):
its peak must stay within 40 times its size.
"""
import argparse
import ast
import math
import os
import re
import subprocess
import sys
import tempfile
import time

HEADER = '''\
import argparse

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, Dataset

'''

STAGE = '''\

class Net{i}(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 2)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        return self.fc(self.drop(x))


class Data{i}(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, idx):
        x = np.random.rand(8).astype("float32")
        return torch.from_numpy(x), idx % 2


def augment{i}(x, gen):
    return x + 0.01 * torch.randn(x.shape, generator=gen)


def stage{i}(epochs, workers, path):
    model = Net{i}()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    gen = torch.Generator().manual_seed({i})
    loader = DataLoader(Data{i}(), batch_size=8, shuffle=True,
                        num_workers=workers)
    best = 0.0
    for epoch in range(epochs):
        for x, y in loader:
            opt.zero_grad()
            out = model(augment{i}(x, gen))
            loss = F.cross_entropy(out, y)
            loss.backward()
            opt.step()
            best = max(best, loss.item())
{checkpoint}
    return best

'''

CHECKPOINT = '''\
        torch.save({"model": model.state_dict(), "epoch": epoch}, path)
'''

FOOTER = '''\

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", default="ckpt.pt")
    args = parser.parse_args()
    torch.manual_seed(0)
    np.random.seed(0)
    results = []
{calls}
    torch.save({{"results": results}}, args.out)


if __name__ == "__main__":
    main()
'''


def script(target_lines):
    stage_lines = STAGE.count("\n") + 1
    stages = max(1, target_lines // (stage_lines + 1))
    body = HEADER
    for i in range(stages):
        body += STAGE.format(i=i, checkpoint=CHECKPOINT if i == 0 else "")
    calls = "".join(
        f"    results.append(stage{i}(args.epochs, args.workers, args.out))\n"
        for i in range(stages))
    return body + FOOTER.format(calls=calls)


def measure(detc, path, repeat):
    best = None
    for _ in range(repeat):
        t = time.perf_counter()
        proc = subprocess.Popen([detc, "analyze", path, "--stats",
                                 "--format=json"],
                                stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        err = proc.stderr.read().decode()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t
        if status != 0:
            sys.exit(f"detc analyze failed on {path}:\n{err}")
        stats = {
            "nodes": int(re.search(r"nodes: (\d+)", err).group(1)),
            "lower": float(re.search(r"seconds lower: ([\d.]+)", err).group(1)),
            "analysis": float(
                re.search(r"seconds analysis: ([\d.]+)", err).group(1)),
            "wall": wall,
            "phases": re.findall(r"seconds ([a-z-]+): ([\d.]+)", err),
            # Each phase's peak so far: where the whole run's peak is set.
            "phase_peaks": re.findall(
                r"seconds ([a-z-]+): [\d.]+ peak-mb: ([\d.]+)", err),
            # The program's own peak (VmHWM, printed by --stats): wait4's
            # ru_maxrss would count this Python process's pages, resident in
            # the child between fork and exec.
            "peak_mb": max(float(m) for m in
                           re.findall(r"peak-mb: ([\d.]+)", err)),
        }
        if best is None or stats["wall"] < best["wall"]:
            best = stats
    return best


def measure_points_to(detc, path):
    """The points-to analysis alone (docs/pointsto.md): its own time (parse
    included) and the program's peak memory when it is solved."""
    out = subprocess.run([detc, path, "--emit=points-to", "--points-to-stats"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = out.stderr.decode()
    if out.returncode != 0:
        sys.exit(f"detc --emit=points-to failed on {path}:\n{err}")
    m = re.search(r"points-to: (\d+) objects, (\d+) nodes, .* ([\d.]+) s, "
                  r"peak ([\d.]+) MB", err)
    return {"objects": int(m.group(1)), "nodes": int(m.group(2)),
            "seconds": float(m.group(3)), "peak_mb": float(m.group(4))}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("detc", nargs="?",
                        default=os.path.join(os.path.dirname(__file__), "..",
                                             "build", "bin", "detc"))
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--repeat", type=int, default=3)
    opts = parser.parse_args()
    detc, repeat = opts.detc, opts.repeat
    sizes = [int(s) for s in opts.sizes.split(",")]

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            text = script(size)
            lines = text.count("\n")
            path = os.path.join(tmp, f"train_{size}.py")
            with open(path, "w") as f:
                f.write(text)
            baseline = float("inf")
            for _ in range(repeat):
                t = time.perf_counter()
                ast.parse(text)
                baseline = min(baseline, time.perf_counter() - t)
            s = measure(detc, path, repeat)
            s["points_to"] = measure_points_to(detc, path)
            s["bytes"] = len(text.encode())
            rows.append((lines, s, baseline))

    print(f"{'lines':>8} {'nodes':>8} {'lower s':>9} {'analysis s':>11} "
          f"{'process s':>10} {'us/line':>8} {'ast.parse s':>12} "
          f"{'ratio':>6}")
    for lines, s, baseline in rows:
        print(f"{lines:>8} {s['nodes']:>8} {s['lower']:>9.4f} "
              f"{s['analysis']:>11.4f} {s['wall']:>10.4f} "
              f"{1e6 * s['wall'] / lines:>8.2f} {baseline:>12.4f} "
              f"{s['wall'] / baseline:>6.1f}")
    print("points-to analysis (parse included):")
    for lines, s, baseline in rows:
        pt = s["points_to"]
        print(f"  {lines:>8} lines: {pt['seconds']:.3f} s "
              f"({pt['seconds'] / baseline:.1f}x ast.parse), {pt['objects']} "
              f"objects, {pt['nodes']} nodes, peak {pt['peak_mb']:.0f} MB "
              f"({pt['peak_mb'] * 2**20 / s['bytes']:.0f}x the script's "
              f"{s['bytes'] / 2**20:.1f} MB)")
    largest = rows[-1]
    print("phases at the largest size: " + ", ".join(
        f"{name} {float(sec):.4f}" for name, sec in largest[1]["phases"]
        if name not in ("lower", "analysis")))
    if len(rows) >= 2:
        (l0, s0, _), (l1, s1, _) = rows[0], rows[-1]
        for key in ("analysis", "wall"):
            exponent = math.log(s1[key] / s0[key]) / math.log(l1 / l0)
            label = "analyses only" if key == "analysis" else "whole process"
            print(f"growth exponent ({label}): {exponent:.2f} "
                  f"(target < 1.2)")
    print("peak memory so far after each phase at the largest size (MB): " +
          ", ".join(f"{name} {float(mb):.0f}"
                    for name, mb in largest[1]["phase_peaks"]))
    print("peak memory of the whole process (detc analyze):")
    for lines, s, _ in rows:
        ratio = s['peak_mb'] * 2**20 / s['bytes']
        print(f"  {lines:>8} lines: {s['peak_mb']:.0f} MB ({ratio:.1f}x the "
              f"script's {s['bytes'] / 2**20:.2f} MB)")
        # Issue 17 states the 40x bound for its 50 MB script; on small
        # scripts the libraries' fixed pages dominate.
        if s["bytes"] >= 40e6:
            verdict = "meets" if ratio <= 40 else "MISSES"
            print(f"  {lines:>8} lines: {verdict} issue 17's target (<= 40x)")
    if len(rows) >= 2:
        # The libraries' pages and fixed tables do not grow with the script;
        # the slope between the two largest sizes is what a larger script
        # costs per byte (target: <= 40, issue 17).
        (_, a, _), (_, b, _) = rows[-2], rows[-1]
        slope = ((b["peak_mb"] - a["peak_mb"]) * 2**20 /
                 (b["bytes"] - a["bytes"]))
        print(f"  memory per byte of script at the margin: {slope:.0f} bytes "
              f"(target <= 40)")
    last = largest[1]
    print(f"{largest[0]} lines: analyses {last['analysis']:.2f} s; whole "
          f"process {last['wall']:.2f} s, of which the front end (parse + "
          f"lower) {last['lower']:.2f} s")
    # Both time targets are stated at 100k lines: the analyses < 2 s, the
    # whole process <= 3 s (issue 17).
    at100k = min(rows, key=lambda r: abs(r[0] - 100000))
    if abs(at100k[0] - 100000) < 10000:
        s = at100k[1]
        analyses = "meets" if s["analysis"] < 2.0 else "MISSES"
        whole = "meets" if s["wall"] <= 3.0 else "MISSES"
        print(f"{at100k[0]} lines: analyses {s['analysis']:.2f} s ({analyses} "
              f"the target, < 2 s); whole process {s['wall']:.2f} s ({whole} "
              f"issue 17's target, <= 3 s)")

if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Steady-state overhead of a transformed training script vs the original
(issue 5; target: under 3%). Transforms the example, then runs original and
transformed alternately (same arguments, one intra-op thread), several
times each. Two figures: the whole run (process start and `import torch`
included), and the steady state — the time between the script's first and
last `epoch ...` output lines, i.e. training only.

With --trace / --check: the overhead of tracing, and of checking the
invariants inferred from a traced run online (docs/traincheck.md; target
5% for checking, in CPU time, on bench/inputs/mnist_cnn.py). Every mode
also reports the whole run's CPU time (user + system, all threads).

With --jit: the overhead of `detc transform --jit-checkpoint` (docs/jit.md;
target 0.5%) — the transformed script with it against the transformed
script without it, the same way. With --vaccinate: the same for
`--vaccinate` (docs/vaccinate.md; target 0.4%).

usage: bench/transform_overhead.py [--detc BIN] [--runs 5] [--epochs 8]
       [--jit | --vaccinate] [--deterministic-original] [EXAMPLE]
       [-- extra script args]
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# The Python that runs the scripts (a GPU machine's python3 has CUDA torch:
# scripts/device-check.sh).
PY = os.environ.get("DETC_E2E_PYTHON", "/usr/bin/python3")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--detc", default=os.path.join(ROOT, "build/bin/detc"))
    parser.add_argument("--runtime", default=os.path.join(ROOT, "build/python"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--epochs", type=int, default=16)
    parser.add_argument("--jit", action="store_true",
                        help="--jit-checkpoint vs the plain transform")
    parser.add_argument("--vaccinate", action="store_true",
                        help="--vaccinate vs the plain transform")
    parser.add_argument("--trace", action="store_true",
                        help="--trace vs the plain transform")
    parser.add_argument("--check", action="store_true",
                        help="--check (invariants inferred from a traced "
                        "run of the example) vs the plain transform")
    parser.add_argument("--deterministic-original", action="store_true",
                        help="run the original with the deterministic "
                        "kernels a transformed script turns on "
                        "(bench/deterministic_original.py): the figure is "
                        "then detc's runtime alone")
    parser.add_argument("example", nargs="?",
                        default=os.path.join(ROOT, "examples/pgd_train.py"))
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    args = parser.parse_args(argv[:len(argv) - len(extra)][:-1] if extra
                             else argv)
    env = dict(os.environ, PYTHONPATH=args.runtime, OMP_NUM_THREADS="1",
               PYTHONWARNINGS="ignore")
    # Without explicit script arguments: the bundled PGD example at the tiny
    # size the tests use (a training step is ~1 ms, so detc's fixed
    # per-example and per-batch costs show as a large fraction) and at a
    # still small but less degenerate size.
    configs = [extra] if extra or not args.example.endswith(
        "pgd_train.py") else [[], ["--features", "64", "--hidden", "256"]]
    with tempfile.TemporaryDirectory() as tmp:
        det = os.path.join(tmp, "train.det.py")
        subprocess.run([args.detc, "transform", args.example, "--emit-python",
                        "-o", det], check=True)
        pair = (args.example, det)
        if args.deterministic_original:
            pair = ((os.path.join(HERE, "deterministic_original.py"),
                     args.example), det)
        if args.jit:
            jit = os.path.join(tmp, "train.jit.py")
            subprocess.run([args.detc, "transform", args.example,
                            "--emit-python", "--jit-checkpoint", "-o", jit],
                           check=True)
            pair = (det, jit)
        if args.trace or args.check:
            traced = os.path.join(tmp, "train.traced.py")
            subprocess.run([args.detc, "transform", args.example,
                            "--emit-python", "--trace", "-o", traced],
                           check=True)
            pair = (det, traced)
            env["DETC_TRACE_DIR"] = os.path.join(tmp, "traces")
        if args.check:
            # Invariants from one traced run (the tests' size), then the
            # script that checks them online and writes no trace.
            subprocess.run([PY, traced, "--epochs", "2",
                            "--out", os.path.join(tmp, "m.pt")], env=env,
                           check=True, capture_output=True)
            inv = os.path.join(tmp, "invariants.json")
            subprocess.run([args.detc, "infer",
                            os.path.join(env["DETC_TRACE_DIR"],
                                         "trace.rank0.jsonl"), "-o", inv],
                           check=True)
            checked = os.path.join(tmp, "train.checked.py")
            subprocess.run([args.detc, "transform", args.example,
                            "--emit-python", "--check", inv, "-o", checked],
                           check=True)
            del env["DETC_TRACE_DIR"]
            pair = (det, checked)
        if args.vaccinate:
            vac = os.path.join(tmp, "train.vaccinated.py")
            subprocess.run([args.detc, "transform", args.example,
                            "--emit-python", "--vaccinate", "-o", vac],
                           check=True)
            pair = (det, vac)
        for config in configs:
            measure(args, env, tmp, pair, config)
            if args.vaccinate:
                estimate(args, env, tmp, pair[1], config)


def measure(args, env, tmp, pair, config):
    wall = {"original": [], "transformed": []}
    steady = {"original": [], "transformed": []}
    epoch = {"original": [], "transformed": []}
    cpu = {"original": [], "transformed": []}
    for _ in range(args.runs):
        for name, script in zip(("original", "transformed"), pair):
            script = list(script) if isinstance(script, tuple) else [script]
            cmd = [PY, "-u"] + script + [
                "--epochs", str(args.epochs), "--out",
                os.path.join(tmp, "m.pt")]
            total, epochs, median = run_timed(cmd + config, env,
                                              median=True, cpu=cpu[name])
            wall[name].append(total)
            steady[name].append(epochs)
            epoch[name].append(median)
    print("%s %s, %d epochs, %d runs each, alternating%s" % (
        os.path.basename(args.example), " ".join(config) or "(defaults)",
        args.epochs, args.runs,
        " (\"original\": transformed; \"transformed\": with --%s)" % (
            "jit-checkpoint" if args.jit else "vaccinate" if args.vaccinate
            else "trace" if args.trace else "check")
        if args.jit or args.vaccinate or args.trace or args.check else
        " (the original with deterministic kernels)"
        if args.deterministic_original else ""))
    report("whole run (process start, imports, training)", wall)
    # What a user pays on a shared machine: every thread's CPU time (the
    # trace's writer thread included), not only the main loop's wall time.
    report("whole run, CPU time (user + system)", cpu)
    report("steady state (first to last epoch line)", steady)
    # An epoch the machine preempted weighs on the sum above; the median
    # epoch of each run does not.
    report("median epoch (of each run's epoch-line intervals)", epoch)
    print()

def micro_costs(env):
    """Seconds per barrier (the cell's def, run(), the code after it) and
    per RNG snapshot, measured in a fresh interpreter."""
    code = r"""
import timeit, torch, detc_runtime as rt
v = rt.vaccine
v.enable({})
def loop(n, vac):
    x = 0
    for i in range(n):
        if vac:
         def _detc_cell_1(_detc_r):
          nonlocal x, i
          if _detc_r <= 0:
            x += i
         _detc_c = v.run(_detc_cell_1, 1)
         if _detc_c is v.BREAK: break
        else:
            x += i
n = 200000
plain = min(timeit.repeat(lambda: loop(n, False), number=1, repeat=5)) / n
cell = min(timeit.repeat(lambda: loop(n, True), number=1, repeat=5)) / n
v._marks.append([1, {}, None])
mark = min(timeit.repeat(lambda: v.mark(0), number=n, repeat=5)) / n
print(cell - plain, mark)
"""
    out = subprocess.run([PY, "-c", code], env=env,
                         capture_output=True, text=True, check=True).stdout
    return [float(x) for x in out.split()]


def estimate(args, env, tmp, script, config):
    """The overhead from counts: barriers and snapshots per epoch (one
    counted run) times their measured costs, against the epoch time of the
    vaccinated script — robust to the machine's noise, which the paired
    runs above are not."""
    stats = os.path.join(tmp, "stats.json")
    cmd = [PY, "-u", script, "--epochs", str(args.epochs),
           "--out", os.path.join(tmp, "m.pt")] + config
    run_timed(cmd, dict(env, DETC_VACCINE_STATS=stats))
    import json
    with open(stats) as f:
        counts = json.load(f)
    _, steady = run_timed(cmd, env)
    cell, mark = micro_costs(env)
    per_run = (counts["run"] * cell + counts["mark"] * mark) / args.epochs
    epoch = steady / (args.epochs - 1)
    print("counted: %d barriers and %d RNG snapshots per epoch; a barrier "
          "costs %.2f us, a snapshot %.2f us; %.3f ms of an epoch of %.1f ms"
          % (counts["run"] / args.epochs, counts["mark"] / args.epochs,
             cell * 1e6, mark * 1e6, per_run * 1e3, epoch * 1e3))
    print("  overhead    %+.2f%% (estimated from the counts)" % (
        per_run / epoch * 100))
    print()


def cpu_of_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_timed(cmd, env, median=False, cpu=None):
    """(wall time, time between the first and last 'epoch' output lines)
    and, with `median`, the median interval between consecutive ones.
    `cpu`: a list the run's CPU time (user + system, the process and its
    threads and workers) is appended to."""
    start = time.perf_counter()
    cpu_before = cpu_of_children()
    stamps = []
    with subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE,
                          text=True) as proc:
        for line in proc.stdout:
            if line.startswith("epoch"):
                stamps.append(time.perf_counter())
    if cpu is not None:
        cpu.append(cpu_of_children() - cpu_before)
    if proc.returncode:
        sys.exit("%s failed (exit %d)" % (cmd[2], proc.returncode))
    if len(stamps) < 2:
        sys.exit("%s printed fewer than two 'epoch' lines" % cmd[2])
    total = time.perf_counter() - start
    if median:
        return total, stamps[-1] - stamps[0], statistics.median(
            b - a for a, b in zip(stamps, stamps[1:]))
    return total, stamps[-1] - stamps[0]


def report(what, times):
    o, d = times["original"], times["transformed"]
    # Each transformed run against the original run just before it: the
    # machine's slow drifts cancel in the ratio.
    ratios = sorted(b / a for a, b in zip(o, d))
    print("%s:" % what)
    scale, unit = (1e3, "ms") if max(o + d) < 1 else (1, "s")
    print("  original    median %.3f %s  min %.3f %s" % (
        statistics.median(o) * scale, unit, min(o) * scale, unit))
    print("  transformed median %.3f %s  min %.3f %s" % (
        statistics.median(d) * scale, unit, min(d) * scale, unit))
    print("  overhead    %+.1f%% (median of paired ratios; range %+.1f%% .. "
          "%+.1f%%)" % ((statistics.median(ratios) - 1) * 100,
                        (ratios[0] - 1) * 100, (ratios[-1] - 1) * 100))

if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""What checkpoints at the chosen hint cost (issue 7), against baselines
measured in the same run, on the CheckHint example:

  * overhead: the time the run checkpointing at the hint the schedule
    chose for allowance o (from a profile) spends writing checkpoints, as
    a fraction of its run — it should stay near o, the schedule's budget —
    and its wall time against the same transformed script without
    checkpoints (`detc transform` without --overhead), runs interleaved;
  * restart: time from process start to `resumed()` when restarting from a
    checkpoint in the middle of the run, against the time the run takes
    from start to its first step (the setup both pay) and against the time
    it took to reach that checkpoint (the work the restart saves);
  * profiling: wall time under --detc-profile against the plain run.

Every time is the median of REPEAT runs.

usage: PYTHONPATH=build/python hint_cost.py [--detc build/bin/detc]
       [--overhead 0.05] [--repeat 3] [-- SCRIPT_ARGS]
       (default script args: --epochs 4 --steps 200 --width 192)
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

PY = "/usr/bin/python3"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "checkhint_train.py")


def timed(cmd, env):
    start = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit("%s failed:\n%s" % (" ".join(cmd), proc.stderr))
    return wall, proc


def wrapper(path, body):
    """Writes a script that runs `body` (which may patch detc_runtime.hints,
    imported as `h`; `t0` is its start) and then the script named by its
    first argument, with the rest as that script's arguments."""
    with open(path, "w") as f:
        f.write("import atexit, runpy, sys, time, detc_runtime.hints as h\n"
                "t0 = time.perf_counter()\n" + body +
                "sys.argv = sys.argv[1:]\n"
                "runpy.run_path(sys.argv[0], run_name='__main__')\n")
    return path


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--detc", default=os.path.join(ROOT, "build", "bin",
                                                       "detc"))
    parser.add_argument("--overhead", type=float, default=0.05)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("args", nargs="*")
    opts = parser.parse_args()
    script_args = opts.args or ["--epochs", "4", "--steps", "200",
                                "--width", "192"]
    env = dict(os.environ, OMP_NUM_THREADS="1")
    env.setdefault("PYTHONPATH", os.path.join(ROOT, "build", "python"))
    with tempfile.TemporaryDirectory(prefix="detc-bench-") as tmp:
        plain = os.path.join(tmp, "plain.py")
        subprocess.run([opts.detc, "transform", EXAMPLE, "--emit-python",
                        "-o", plain], check=True)
        profile = os.path.join(tmp, "profile.json")
        out = os.path.join(tmp, "out.pt")
        base = script_args + ["--out", out]
        timed([PY, plain, "--detc-profile", profile] + base, env)
        hinted = os.path.join(tmp, "hinted.py")
        sched = subprocess.run(
            [opts.detc, "transform", EXAMPLE, "--emit-python", "-o", hinted,
             "--overhead=%g" % opts.overhead, "--profile=" + profile],
            check=True, capture_output=True, text=True)
        print(sched.stderr.strip().splitlines()[0])
        ckpt = os.path.join(tmp, "hint.pt")

        def median(cmd):  # of the same command, repeated
            return statistics.median(timed(cmd, env)[0]
                                     for _ in range(opts.repeat))

        # Interleaved, so that drift on a shared machine hits all three.
        walls = {"plain": [], "hint": [], "prof": []}
        writes = []
        meter = wrapper(os.path.join(tmp, "meter.py"),
                        "spent, write = [0.0], h.write\n"
                        "def timed(*a):\n"
                        "    t = time.perf_counter(); write(*a)\n"
                        "    spent[0] += time.perf_counter() - t\n"
                        "h.write = timed\n"
                        "atexit.register(lambda: print('writes %.6f %.6f %d' %"
                        " (spent[0], time.perf_counter() - t0,"
                        " h.HINT.written)))\n")
        for _ in range(opts.repeat):
            walls["plain"].append(timed([PY, plain] + base, env)[0])
            wall, proc = timed([PY, meter, hinted, "--detc-checkpoint",
                                ckpt] + base, env)
            walls["hint"].append(wall)
            spent, run, count = proc.stdout.split("writes ")[1].split()
            writes.append((float(spent), float(run), int(count)))
            walls["prof"].append(timed([PY, plain, "--detc-profile", profile]
                                       + base, env)[0])
        t_plain, t_hint, t_prof = (statistics.median(walls[k])
                                   for k in ("plain", "hint", "prof"))
        spent, run, count = sorted(writes)[len(writes) // 2]
        # Setup: the run up to its first step (imports, data, model).
        t_setup = median([PY, plain] + script_args[:2] + ["--steps", "0",
                                                          "--out", out]
                         + script_args[4:])
        # A checkpoint half-way: stop the run there, then restart from it.
        probe = wrapper(os.path.join(tmp, "stop.py"),
                        "write, stop = h.write, int(sys.argv.pop(1))\n"
                        "def once(site, count, values):\n"
                        "    write(site, count, values)\n"
                        "    if h.HINT.written >= stop:\n"
                        "        print('reached %.6f' % "
                        "(time.perf_counter() - t0))\n"
                        "        sys.stdout.flush(); raise SystemExit(0)\n"
                        "h.write = once\n")
        with open(hinted) as f:
            period = int(f.read().split("_detc_rt.hints.hint(")[1]
                         .split(",")[1])
        steps = 1
        for flag, value in zip(script_args[::2], script_args[1::2]):
            if flag in ("--epochs", "--steps"):
                steps *= int(value)
        half = max(1, steps // period // 2)
        _, proc = timed([PY, probe, str(half), hinted, "--detc-checkpoint",
                         ckpt] + base, env)
        reached = float(proc.stdout.split("reached ")[1].split()[0])
        # From process start to the end of the restore at the hint.
        until = wrapper(os.path.join(tmp, "until.py"),
                        "done = h.resumed\n"
                        "def stop():\n"
                        "    done(); raise SystemExit(0)\n"
                        "h.resumed = stop\n")
        restart = [timed([PY, until, hinted, "--detc-resume", ckpt,
                          "--detc-checkpoint", os.path.join(tmp, "x.pt")] +
                         base, env)[0] for _ in range(opts.repeat)]
        t_restart = statistics.median(restart)

        best = {k: min(v) for k, v in walls.items()}
        print("run without checkpoints   %7.3f s (fastest %.3f s)" %
              (t_plain, best["plain"]))
        print("run with hint checkpoints %7.3f s  ratio %.3f; fastest runs "
              "%.3f (allowance %g; medians drift by 10-20%% on a shared "
              "machine, the fastest runs less)" %
              (t_hint, t_hint / t_plain, best["hint"] / best["plain"],
               opts.overhead))
        print("  inside checkpoint writes %6.3f s = %.4f of its run (%d "
              "checkpoints, %.2f ms each)" % (spent, spent / run, count,
                                              1e3 * spent / max(count, 1)))
        print("profiled run              %7.3f s  ratio %.3f" %
              (t_prof, t_prof / t_plain))
        print("restart to the hint       %7.3f s  vs setup %.3f s (ratio "
              "%.2f); the checkpoint saved %.3f s of training (checkpoint "
              "%d of the run)" % (t_restart, t_setup, t_restart / t_setup,
                                  reached, half))


if __name__ == "__main__":
    main()

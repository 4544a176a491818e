#!/usr/bin/env python3
"""--detc-profile on real PyTorch (issue 7): measured costs for CheckHint.

Transforms the CheckHint example, runs it with --detc-profile and checks
the profile against what the run did: the step statement started
epochs x steps times, the epoch loop's header epochs + 1 times, each hint
was reached as often as it ran, a checkpoint at the step hint holds at
least the parameters and the momentum (2 x width^2 float32), and the
profiled run's result is bit-identical to an unprofiled one. Then
`detc analyze --profile` schedules with the measured costs, `detc
transform --overhead --profile` instruments the hint it chooses, and a
profile of another script is refused.

usage: hint_profile.py --detc BIN --runtime DIR EXAMPLE
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

# The Python that runs the scripts: Debian's (torch 1.13), or a venv's
# (torch 2.x, test/platform/torch2.py).
PY = os.environ.get("DETC_E2E_PYTHON", "/usr/bin/python3")
EPOCHS, STEPS, WIDTH = 3, 40, 96


def fail(message):
    sys.exit("FAIL: " + message)


def line_of(path, text):
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if text in line:
                return number
    fail("no line with %r in %s" % (text, path))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--detc", required=True)
    parser.add_argument("--runtime", required=True)
    parser.add_argument("example")
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=args.runtime, OMP_NUM_THREADS="1")
    for name in ("DETC_PROFILE", "DETC_RESUME", "DETC_CHECKPOINT"):
        env.pop(name, None)
    with tempfile.TemporaryDirectory(prefix="detc-profile-") as tmp:
        script = os.path.join(tmp, "train.det.py")
        subprocess.run([args.detc, "transform", args.example, "--emit-python",
                        "-o", script], check=True)
        run_args = ["--epochs", str(EPOCHS), "--steps", str(STEPS),
                    "--width", str(WIDTH)]
        plain, profiled = (os.path.join(tmp, n) for n in ("a.pt", "b.pt"))
        profile = os.path.join(tmp, "profile.json")
        subprocess.run([PY, script, "--out", plain] + run_args, env=env,
                       check=True, capture_output=True)
        subprocess.run([PY, script, "--out", profiled, "--detc-profile",
                        profile] + run_args, env=env, check=True,
                       capture_output=True)
        import torch
        a, b = torch.load(plain), torch.load(profiled)
        if not (a["history"] == b["history"] and all(
                torch.equal(a[k], b[k]) for k in ("params", "velocity"))):
            fail("profiling changed the run's result")
        with open(profile) as f:
            body = json.load(f)
        lines, hints = body["lines"], body["hints"]
        step = line_of(args.example, "params = step(params")
        epoch_loop = line_of(args.example, "for epoch in range")
        step_hint = line_of(args.example, '_checkpoint("step")')
        epoch_hint = line_of(args.example, '_checkpoint("epoch")')
        checks = [
            ("step statement starts", lines[str(step)][1], EPOCHS * STEPS),
            ("epoch header events", lines[str(epoch_loop)][1], EPOCHS + 1),
            ("step hint arrivals", hints[str(step_hint)]["arrivals"],
             EPOCHS * STEPS),
            ("epoch hint arrivals", hints[str(epoch_hint)]["arrivals"],
             EPOCHS)]
        for what, got, want in checks:
            if got != want:
                fail("%s: %d, the run did %d" % (what, got, want))
            print("%s: %d" % (what, got))
        size = hints[str(step_hint)]["bytes"]
        if size < 2 * WIDTH * WIDTH * 4:
            fail("a step checkpoint measured %d bytes, less than the "
                 "parameters and momentum" % size)
        seconds = hints[str(step_hint)]["checkpoint_seconds"]
        if not seconds > 0:
            fail("no checkpoint time measured")
        print("step checkpoint: %d bytes, %.2f ms" % (size, seconds * 1e3))

        flags = ["--overhead=0.05", "--profile=" + profile]
        out = subprocess.run([args.detc, "analyze", args.example] + flags,
                             capture_output=True, text=True)
        if out.returncode != 0 or " measured, " not in out.stdout:
            fail("detc analyze --profile:\n" + out.stdout + out.stderr)
        print(out.stdout.strip().splitlines()[-2])
        out = subprocess.run([args.detc, "transform", args.example,
                              "--emit-python"] + flags,
                             capture_output=True, text=True)
        if out.returncode != 0 or "_detc_rt.hints.hint(" not in out.stdout:
            fail("detc transform --overhead --profile:\n" + out.stderr)
        other = os.path.join(tmp, "other.py")
        with open(args.example) as f, open(other, "w") as g:
            g.write(f.read() + "\n# another version\n")
        out = subprocess.run([args.detc, "analyze", other] + flags,
                             capture_output=True, text=True)
        if out.returncode != 2 or "measured on another script" not in \
                out.stderr:
            fail("a profile of another script was not refused:\n" +
                 out.stderr)
        print("PASS: the profile matches the run; schedules use it; a "
              "foreign profile is refused")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Resume of a DDP job whose checkpoint only rank 0 writes, or every rank
writes to one path, on real PyTorch (2 gloo ranks started by
torch.multiprocessing.spawn).

Transforms Inputs/ddp_rank0_save_train.py (each rank seeds `seed + rank`
and draws per-rank noise from the global generators; rank 0 saves, inline
under `if ... rank == 0:` or through `save_on_master`, or every rank saves
with no test around it), runs it to the
end, then kills a run right after a checkpoint commit and resumes it: both
ranks must resume, the final checkpoint must be bit-identical to the
uninterrupted run's, and each rank's printed digest of its weights and
generators (and of its history of losses, which detc saves) must be its
own rank's from that run (a rank continuing with rank 0's generators or
history ends elsewhere). Then the refusals: a sidecar whose record of
rank 1 was removed (re-sealed, as a detc bug would write it) stops rank 1
with exit 3 naming it, as does one whose rank-1 record lacks its own
value of what detc saves (as when it is too large to record) while its
digest differs from the writer's; a resume in a job of another size
stops too.

The session-64 first binary and runtime: rank 1 never reached the inline
save's restore (exit 3 at its end), and with `save_on_master` it was
refused for seeds that differ from rank 0's (exit 2). The session-65
first runtime stopped rank 1's resume from a checkpoint every rank saved
(exit 3: its state was not in rank 0's sidecar). The session-66 first
runtime stopped rank 1's resume in every mode: its own history of
losses, which detc saves, differs from rank 0's (exit 3).

usage: ddp_resume.py --detc BIN --runtime DIR
(DETC_E2E_PYTHON: the interpreter that runs the script)
"""
import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile

from kill_resume import kill_after_commit, load, same

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "Inputs", "ddp_rank0_save_train.py")


def fail(why, proc=None):
    sys.exit("FAIL: %s%s" % (why, "\n" + proc.stderr if proc else ""))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def digests(stdout):
    return dict(re.findall(r"final rank (\d+): ([0-9a-f]{16})", stdout))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--detc", required=True)
    parser.add_argument("--runtime", required=True)
    args = parser.parse_args()
    python = os.environ.get("DETC_E2E_PYTHON", sys.executable)
    runtime = os.path.abspath(args.runtime)
    env = dict(os.environ, PYTHONPATH=runtime, OMP_NUM_THREADS="1",
               PYTHONWARNINGS="ignore", DETC_QUIET="1")
    for name in ("DETC_RESUME", "DETC_CHECKPOINT", "DETC_RANK_WAIT"):
        env.pop(name, None)
    sys.path.insert(0, runtime)
    from detc_runtime import sidecar
    tmp = tempfile.mkdtemp(prefix="detc-ddp-")
    try:
        script = os.path.join(tmp, "train.det.py")
        subprocess.run([args.detc, "transform", SCRIPT, "--emit-python",
                        "-o", script], check=True, capture_output=True)

        def run(*extra, check=True):
            p = subprocess.run([python, script, "--port", str(free_port())]
                               + list(extra), cwd=tmp, env=env,
                               capture_output=True, text=True, timeout=300)
            if check and p.returncode != 0:
                fail("%s exited with %d" % (" ".join(extra), p.returncode), p)
            return p

        ref_run = run("--out", "ref.pt")
        ref, ref_digests = load(os.path.join(tmp, "ref.pt")), digests(
            ref_run.stdout)
        if sorted(ref_digests) != ["0", "1"]:
            fail("the reference run printed no digest of each rank", ref_run)
        for trial, (mode, instance) in enumerate(
                ((["--helper"], 1), ([], 2), (["--all-ranks"], 2))):
            out = os.path.join(tmp, "t%d.pt" % trial)
            written = kill_after_commit(
                [python, script, "--port", str(free_port()), "--out", out]
                + mode, out + ".detc.json", instance, tmp, env)
            p = run("--out", out, "--detc-resume", out, *mode)
            if p.stderr.count("resumed from") != 2:
                fail("trial %d: not both ranks resumed" % trial, p)
            if not same(ref, load(out)):
                fail("trial %d: resumed from run %d of the checkpoint: final "
                     "weights differ" % (trial, written))
            if digests(p.stdout) != ref_digests:
                fail("trial %d: a rank ended with other weights or "
                     "generators than in the uninterrupted run: %s, not %s"
                     % (trial, digests(p.stdout), ref_digests), p)
            print("trial %d (%s): killed after checkpoint run %d, both ranks "
                  "resumed -> identical" % (
                      trial, {"--helper": "save_on_master",
                              "--all-ranks": "every rank saves"}.get(
                                  (mode or [""])[0], "if rank == 0"),
                      written))
        # Refusals, from sidecars re-sealed as a bug of detc's would write
        # them. Rank 1's own value of what detc saves (`history`) left out
        # of its record, as one too large to record is: the writer's is
        # restored, and rank 1 must not continue with it.
        side = os.path.join(tmp, "ref.pt.detc.json")
        with open(side, "rb") as f:
            good = f.read()
        body = sidecar.decode(good, side)
        mine = body.get("ranks", {}).get("1", {})
        if not isinstance(mine.get("values", {}).get("history"), str) or \
                "history" not in mine.get("own_values", {}):
            fail("rank 1's record holds no digest or value of 'history': %r"
                 % mine)
        del mine["own_values"]["history"]
        with open(side, "wb") as f:
            f.write(sidecar.encode(body))
        p = run("--out", "ref.pt", "--detc-resume", "ref.pt", check=False)
        if p.returncode == 0 or "'history': this rank's value differs" \
                not in p.stderr or "exit code 3" not in p.stderr:
            fail("rank 1's own value left out: exit %d" % p.returncode, p)
        print("refused: rank 1's own value not recorded, the writer's "
              "differs (exit 3, named)")
        # Rank 1's record removed: rank 1 must not continue with rank 0's
        # generators.
        body = sidecar.decode(good, side)
        if sorted(body.get("ranks", {})) != ["1"] or body["world_size"] != 2:
            fail("the sidecar has no record of rank 1: %r" % sorted(body))
        body["ranks"] = {}
        with open(side, "wb") as f:
            f.write(sidecar.encode(body))
        p = run("--out", "ref.pt", "--detc-resume", "ref.pt", check=False)
        if p.returncode == 0 or "rank 1's state" not in p.stderr or \
                "exit code 3" not in p.stderr:
            fail("a sidecar without rank 1's record: exit %d" % p.returncode,
                 p)
        print("refused: a sidecar without rank 1's record (exit 3, named)")
        p = run("--out", "t1.pt", "--detc-resume", "t1.pt", "--world", "1",
                check=False)
        if p.returncode == 0 or "job of 2 process(es), this one has 1" \
                not in p.stderr:
            fail("a resume in a job of another size: exit %d" % p.returncode,
                 p)
        print("refused: a resume in a job of another size")
        print("PASS: both ranks of a DDP job resume bit-identically from "
              "rank 0's checkpoint; missing records and another job size "
              "refused")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()

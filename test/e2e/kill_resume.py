#!/usr/bin/env python3
"""Kill/resume test on real PyTorch (SPEC §5, issue 6).

Transforms EXAMPLE with `detc transform --emit-python`, runs it once
uninterrupted, then TRIALS times: starts it afresh, SIGKILLs the whole
process group at a random moment — a random time, or just before a random
write step of a checkpoint (torch.save, fsync, rename: inside the commit of
a checkpoint and its sidecar) — sometimes kills the resumed run again, and
resumes with --detc-resume until the run completes. Every trial must end
with a final checkpoint equal, tensor for tensor and bit for bit, to the
uninterrupted run's (weights and everything else the script saves).

With --hint "TRANSFORM FLAGS" (e.g. "--overhead=0.05 --ckpt-cost=0.002"),
the script is transformed with those CheckHint flags and the checkpoints
that matter are detc's own at the chosen hint (docs/checkhint.md): each
run writes them to its trial directory (--detc-checkpoint) and a killed run
restarts from there with --detc-resume.

With --transform-flags "FLAGS", the script is transformed with those flags
too (--vaccinate: replay through crash barriers).

With --own-resume FLAG, also shows that the original script's own resume
(FLAG CHECKPOINT) from the same checkpoint diverges, while the transformed
script's --detc-resume does not.

With --own, a killed run is rerun as it was started, without
--detc-resume: the script resumes itself (it loads its checkpoint when it
exists). Each trial must end bit-identical to the uninterrupted run, or a
rerun must have said that it does not continue the run that wrote the
checkpoint (killed between a save and its loop's next pass, nothing
records where that run went on); and a run killed once its sidecar
records where it went on must continue.

usage: kill_resume.py --detc BIN --runtime DIR [--trials N] [--seed S]
                      [--own-resume FLAG | --own] [--hint FLAGS]
                      [--transform-flags FLAGS] [--module FILE]...
                      EXAMPLE [-- SCRIPT_ARGS...]
The script must take --out PATH (its checkpoint and final output).
--module: a module or package (a folder) the script imports, copied beside
the transformed script.
"""
import argparse
import concurrent.futures
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import zygote_client


class Runner:
    def __init__(self, runtime, extra, hint=False):
        self.env = dict(os.environ, PYTHONPATH=runtime, OMP_NUM_THREADS="1",
                        PYTHONWARNINGS="ignore")
        for name in ("DETC_RESUME", "DETC_CHECKPOINT"):
            self.env.pop(name, None)
        self.extra = extra
        self.hint = hint

    def resume_from(self, out):
        """The checkpoint a killed run resumes from, if it was written."""
        path = self.hint_path(out) if self.hint else out
        return path if os.path.exists(path) else None

    @staticmethod
    def hint_path(out):
        return os.path.join(os.path.dirname(out), "hint.pt")

    def run(self, script, out, resume=None, kill_after=None, inject=(),
            flags=(), timing=None):
        """Runs to the end, or until killed KILL_AFTER seconds after the
        script starts (once torch is imported); returns (killed, stderr)
        and leaves in self.work (and appends to the list `timing`: the
        trials run side by side) the seconds from that start to the
        end."""
        ready = out + ".ready"
        if os.path.exists(ready):
            os.remove(ready)
        # fault_inject.py's arguments: a zygote runs it (zygote_client.py).
        cmd = ["--ready", ready] + list(inject) + \
            [script, "--out", out] + list(flags) + self.extra
        if self.hint:
            cmd += ["--detc-checkpoint", self.hint_path(out)]
        if resume:
            cmd += ["--detc-resume", resume]
        # stderr goes to a file, not a pipe: a DataLoader worker orphaned
        # by a kill keeps its copy of the pipe open, and torch 1.13's
        # worker never notices its parent died if the kill lands between
        # its fork and its watchdog's start (the parent it records is then
        # init). Waiting for the process, then killing its group, never
        # waits on such a worker.
        fd, log_path = tempfile.mkstemp(prefix="detc-kill-log-")
        os.close(fd)
        try:
            proc = zygote_client.start(cmd, self.env, os.getcwd(),
                                       stderr=log_path)
            # The imports' time varies most from run to run (a loaded
            # machine, a cold page cache): a kill is timed from the end of
            # them, so it lands in training as often as the test intends.
            while proc.poll() is None and not os.path.exists(ready):
                time.sleep(0.005)
            started = time.monotonic()
            try:
                proc.wait(timeout=kill_after)
                timed_out = False
            except subprocess.TimeoutExpired:
                timed_out = True  # the node dies: workers too
            self.work = time.monotonic() - started
            if timing is not None:
                timing.append(self.work)
            try:
                os.killpg(proc.pid, signal.SIGKILL)  # and orphaned workers
            except ProcessLookupError:
                pass
            proc.wait()
            with open(log_path) as log:
                err = log.read()
        finally:
            os.remove(log_path)
        self.refused = False
        if timed_out or proc.returncode == -signal.SIGKILL:
            return True, err
        if proc.returncode == 3 and resume and UNRETURNED in err:
            # Killed inside the helper's call that wrote the checkpoint,
            # after its save, before the run recorded what the call did
            # next (call_end.py): a refusal, as promised.
            self.refused = True
            return False, err
        if proc.returncode != 0:
            sys.exit("FAIL: %s exited with %d\n%s" % (" ".join(cmd),
                                                       proc.returncode, err))
        return False, err


def kill_after_commit(cmd, sidecar, instance, cwd, env, limit=300,
                      recorded=False):
    """Runs `cmd` (in a session of its own, output discarded) until the
    sidecar at `sidecar` records checkpoint run `instance` or later (and,
    with `recorded`, where the run went on after it at its next pass over
    each of its loaders: continuation.py),
    then SIGKILLs its whole process group (spawned workers too). Returns
    the run the sidecar records."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + limit
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            with open(sidecar, "rb") as f:
                body = json.loads(f.readline())
            if body["instance"] >= instance and (
                    not recorded or recorded_all(sidecar)):
                break
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(0.01)
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()
    with open(sidecar, "rb") as f:
        return json.loads(f.readline())["instance"]


def recorded_all(sidecar):
    """Whether the sidecar records where its run went on at the next pass
    over each loader it knows (continuation.py). A pending `.tmp` sidecar
    (a commit whose tail has not renamed it yet) is the checkpoint's."""
    body = None
    for path in (sidecar + ".tmp", sidecar):
        try:
            with open(path, "rb") as f:
                body = json.loads(f.readline())
            break
        except (OSError, ValueError):
            continue
    if body is None:
        return False
    return all(site in body.get("continuation", {})
               for site, at in body.get("loaders", {}).items() if at)


def same(a, b):
    import torch

    if isinstance(a, torch.Tensor):
        return (isinstance(b, torch.Tensor) and a.dtype == b.dtype and
                a.shape == b.shape and
                a.contiguous().numpy().tobytes() ==
                b.contiguous().numpy().tobytes())
    if isinstance(a, (torch.nn.Module, torch.optim.Optimizer)):
        # A whole model or optimizer the script saves (awd-lstm-lm's
        # `torch.save([model, criterion, optimizer], f)`).
        return type(a) is type(b) and same(a.state_dict(), b.state_dict())
    if isinstance(a, dict):
        return (isinstance(b, dict) and list(a) == list(b) and
                all(same(a[k], b[k]) for k in a))
    if isinstance(a, (list, tuple)):
        return (type(a) is type(b) and len(a) == len(b) and
                all(same(x, y) for x, y in zip(a, b)))
    if isinstance(a, float):
        return isinstance(b, float) and a.hex() == b.hex()
    return a == b


def load(path):
    import torch

    # The runs' own outputs: a script's checkpoint may hold an
    # argparse.Namespace (RepDistiller's `'opt': opt`), which torch >= 2.6
    # refuses to unpickle by default.
    return own_paths(torch.load(path, weights_only=False),
                     os.path.dirname(os.path.abspath(path)))


def own_paths(value, folder):
    """`value` with the paths into the run's own folder (`--out PATH` in a
    saved argparse.Namespace) written relative to it: each run of a trial
    writes into a folder of its own, which is not a difference."""
    if isinstance(value, str):
        return ("<run>" + value[len(folder):] if value.startswith(folder)
                else value)
    if isinstance(value, dict):
        return {k: own_paths(v, folder) for k, v in value.items()}
    if isinstance(value, (list, tuple)) and type(value) in (list, tuple):
        return type(value)(own_paths(v, folder) for v in value)
    if isinstance(value, argparse.Namespace):
        return {k: own_paths(v, folder) for k, v in vars(value).items()}
    return value


def trial(i, args, runner, script, reference, events, work, tmp):
    rng = random.Random(args.seed * 1000 + i)

    def moment():  # a random time after the imports, before the end
        return rng.uniform(0.05, 1.0) * work

    out = os.path.join(tmp, "trial-%02d" % i, "model.pt")
    os.makedirs(os.path.dirname(out))
    log = []
    if i % 3 == 0:  # just before a random checkpoint-write step
        k = rng.randint(1, events)
        killed, _ = runner.run(script, out,
                               inject=["--kill-before", "io:%d" % k])
        log.append("killed before write step %d/%d" % (k, events)
                   if killed else "finished (write step %d)" % k)
    else:
        t = moment()
        spent = []
        killed, _ = runner.run(script, out, kill_after=t, timing=spent)
        log.append(("killed at %.2fs" if killed else "finished by %.2fs") % t)
        # The reference run's time sets the kills; on a loaded machine it
        # can be slower than this run, whose kill then came after its end
        # and tested nothing: again from scratch, timed within this run.
        for _ in range(2):
            if killed:
                break
            shutil.rmtree(os.path.dirname(out))
            os.makedirs(os.path.dirname(out))
            t = rng.uniform(0.05, 0.9) * spent[-1]
            killed, _ = runner.run(script, out, kill_after=t, timing=spent)
            log.append(("again, killed at %.2fs" if killed
                        else "again, finished by %.2fs") % t)
    kills = 2 if i % 4 == 1 else 1
    said = set()  # --own: what the reruns said of the checkpoint's run
    afresh = False  # the last resume was refused: start over
    while killed:
        resume = None if args.own or afresh else runner.resume_from(out)
        afresh = False
        kill_after = None
        if kills > 1:
            kills -= 1
            kill_after = moment()
        killed, err = runner.run(script, out, resume=resume,
                                 kill_after=kill_after)
        if runner.refused:
            log.append("resume refused (killed before the call that wrote "
                       "the checkpoint returned); run again from the start")
            killed = afresh = True
            continue
        if resume and "resumed from" not in err and not killed:
            sys.exit("FAIL: trial %d: the run did not resume\n%s" % (i, err))
        for words, what in ((OWN_CONTINUES, "continued"),
                            (OWN_DOES_NOT, "not continued")):
            if words in err:
                said.add(what)
        if OWN_DOES_NOT in err:  # why, as the rerun said it
            log.append(err[err.index(OWN_DOES_NOT):].split("\n")[0][
                len(OWN_DOES_NOT) + 2:])
        log.append(("resumed" if resume else "restarted") +
                   (" (%s)" % ", ".join(sorted(said)) if said else "") +
                   (" and killed at %.2fs" % kill_after if killed else ""))
    ok = same(reference, load(out))
    interrupted = any("killed" in entry for entry in log)
    verdict = "identical" if ok else "DIFFERENT"
    if not ok and "not continued" in said:
        ok, verdict = True, "differs, as the rerun said"
    return ok, interrupted, "trial %2d: %s -> %s" % (
        i, ", ".join(log), verdict)


OWN_CONTINUES = "detc continues the run that wrote it"
UNRETURNED = "stopped before '"
OWN_DOES_NOT = "does not continue the one that wrote it bit for bit"


def own_continues(runner, script, reference, tmp):
    """--own: a run killed once its second checkpoint's sidecar records
    where the run went on; rerun with the same command, it must say it
    continues that run and end bit-identical (the random trials may be
    killed where nothing records that, and say so)."""
    out = os.path.join(tmp, "own-continues", "model.pt")
    python = os.environ.get("DETC_E2E_PYTHON", sys.executable)
    for _ in range(3):
        shutil.rmtree(os.path.dirname(out), ignore_errors=True)
        os.makedirs(os.path.dirname(out))
        written = kill_after_commit(
            [python, script, "--out", out] + runner.extra,
            out + ".detc.json", 2, os.getcwd(), runner.env, recorded=True)
        # (A machine too loaded to kill before the next save: again.)
        if recorded_all(out + ".detc.json"):
            break
    _, err = runner.run(script, out)
    if OWN_CONTINUES not in err or not same(reference, load(out)):
        sys.exit("FAIL: killed after checkpoint %d recorded where its run "
                 "went on, the rerun did not continue it bit for bit\n%s" %
                 (written, err))
    print("killed after checkpoint %d recorded where its run went on: the "
          "rerun continued it, identical" % written)


def own_resume(args, runner, script, reference, tmp):
    """The same kill, resumed by the original's own code and by detc."""
    k = 2
    original = os.path.join(tmp, "own-ref.pt")
    runner.run(args.example, original)
    original_reference = load(original)
    results = {}
    for name, path, flags in (("original", args.example, ()),
                              ("transformed", script, ())):
        out = os.path.join(tmp, "own-%s.pt" % name)
        killed, _ = runner.run(path, out, inject=["--kill-before",
                                                  "save:%d" % (k + 1)])
        assert killed, "the run ended before checkpoint %d" % (k + 1)
        if name == "original":
            runner.run(path, out, flags=(args.own_resume, out))
            results[name] = same(original_reference, load(out))
        else:
            runner.run(path, out, resume=out)
            results[name] = same(reference, load(out))
    print("resume from checkpoint %d with the script's own %s: %s" % (
        k, args.own_resume,
        "identical" if results["original"] else "DIVERGES"))
    print("resume from checkpoint %d with detc's --detc-resume: %s" % (
        k, "identical" if results["transformed"] else "DIVERGES"))
    if results["original"]:
        sys.exit("FAIL: the original script's own resume does not diverge; "
                 "the example shows nothing")
    if not results["transformed"]:
        sys.exit("FAIL: --detc-resume diverges")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--detc", required=True)
    parser.add_argument("--runtime", required=True)
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--own-resume")
    parser.add_argument("--own", action="store_true",
                        help="reruns resume with the script's own code")
    parser.add_argument("--hint", help="detc transform's CheckHint flags")
    parser.add_argument("--transform-flags", default="",
                        help="more detc transform flags (e.g. --vaccinate)")
    parser.add_argument("--module", action="append", default=[])
    parser.add_argument("example")
    parser.add_argument("extra", nargs="*")
    args = parser.parse_args()
    # A whole model the transformed script pickles holds detc's keyed
    # layers (detc_runtime's classes): loading it here needs the runtime.
    sys.path.insert(0, os.path.abspath(args.runtime))

    with tempfile.TemporaryDirectory(prefix="detc-kill-") as tmp:
        script = os.path.join(tmp, "train.det.py")
        subprocess.run([args.detc, "transform", args.example, "--emit-python",
                        "-o", script] + (args.hint or "").split() +
                       args.transform_flags.split(),
                       check=True)
        for module in args.module:
            if os.path.isdir(module):  # a package
                shutil.copytree(module, os.path.join(
                    tmp, os.path.basename(os.path.normpath(module))))
            else:
                shutil.copy(module, tmp)
        runner = Runner(args.runtime, args.extra, hint=bool(args.hint))
        os.mkdir(os.path.join(tmp, "reference"))
        ref = os.path.join(tmp, "reference", "model.pt")
        counts = os.path.join(tmp, "counts.json")
        start = time.monotonic()
        runner.run(script, ref, inject=["--count", counts])
        wall, work = time.monotonic() - start, runner.work
        reference = load(ref)
        with open(counts) as f:
            events = json.load(f)["io"]
        print("uninterrupted run: %.2fs (%.2fs after torch's import), %d "
              "checkpoint write steps" % (wall, work, events))
        if args.own_resume:
            own_resume(args, runner, script, reference, tmp)
        if args.own:
            own_continues(runner, script, reference, tmp)
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            results = list(pool.map(
                lambda i: trial(i, args, runner, script, reference, events,
                                work, tmp), range(args.trials)))
        for _, _, line in results:
            print(line)
        bad = sum(not ok for ok, _, _ in results)
        if bad:
            sys.exit("FAIL: %d of %d trials differ" % (bad, args.trials))
        interrupted = sum(k for _, k, _ in results)
        # A kill that comes after the end tests nothing: the run must be
        # long enough for most kills to land in training.
        if interrupted < 0.6 * args.trials:
            sys.exit("FAIL: only %d of %d trials were interrupted; give the "
                     "script more work" % (interrupted, args.trials))
        print("PASS: %d trials (%d interrupted), final checkpoint "
              "bit-identical%s" % (args.trials, interrupted,
                                   " or said not to be" if args.own else ""))


if __name__ == "__main__":
    try:
        main()
    finally:
        zygote_client.stop_all()

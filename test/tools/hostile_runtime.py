#!/usr/bin/env python3
"""Hostile paths and values against the scripts detc emits (issue 40).

Every path a transformed script writes — the script's own checkpoint
(`--out`), `--detc-profile`, `--detc-recovery-log`,
`--detc-recovery-shared` — is tried against every kind of target: a FIFO
nobody reads, a character device that fails writes (like /dev/full) and
one that takes them (like /dev/null, both made here with mknod), a
directory, a read-only file, the running script itself (also through a
symlink), a dangling symlink, a missing directory. After each run the
target must be what it was (a device still a device, the script's bytes
unchanged, nothing written beside a device) and the run must end with
the exit status the rule gives, a `detc-runtime: error:` or an OSError
naming the path, never a hang.

Then the cases of issue 40 one by one: environment variables with junk,
NaN, inf, negative, huge and denormal values (exit 2 or a normal run,
never a traceback); a fix-record file planted in the working directory
is never executed; a checkpoint cut at `ulimit -f` is not committed (the
previous pair stays, and resumes); `--out /dev/stdout` into a pipe and
into a shell's `> log` (the log keeps its inode, no stray files).

usage: hostile_runtime.py --detc BIN --runtime DIR [--python PY]
"""
import argparse
import concurrent.futures
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
import zygote_client  # noqa: E402
ROOT = os.path.dirname(os.path.dirname(HERE))
TIME_LIMIT = 120
FAILURES = []


def fail(what, why, proc=None):
    tail = ""
    if proc is not None:
        tail = "\n    rc=%s\n    stderr: %s" % (
            proc.returncode, (proc.stderr or "")[-1500:].replace(
                "\n", "\n    "))
    FAILURES.append("%s: %s%s" % (what, why, tail))


class Env:
    def __init__(self, args, tmp):
        self.detc, self.py, self.tmp = os.path.abspath(args.detc), args.python, tmp
        self.env = dict(os.environ, PYTHONPATH=os.path.abspath(args.runtime),
                        OMP_NUM_THREADS="1", DETC_RECOVERY="batch")
        for name in ("RANK", "WORLD_SIZE", "DETC_SEED", "DETC_RECOVERY_SHARED",
                     "DETC_PROFILE"):
            self.env.pop(name, None)
        self.runs = 0  # scripts run (the environment check counts its cases)
        self.lock = threading.Lock()

    def transform(self, source, out, *flags):
        subprocess.run([self.detc, "transform", source, "--emit-python",
                        "-o", out] + list(flags), check=True,
                       capture_output=True)
        return out

    def run(self, cmd, cwd, env=None, shell=False):
        with self.lock:
            self.runs += 1
        e = dict(self.env, **(env or {}))
        if not shell and cmd[0] == self.py == zygote_client.PY and \
                cmd[1] != "-c" and not any("/dev/" in a for a in cmd):
            # A script run: forked from a server that imported torch once
            # (test/e2e/zygote.py), as `PY script args` would run it. Runs
            # whose output is a standard stream keep a real process.
            try:
                return zygote_client.run(cmd[1:], e, cwd, TIME_LIMIT)
            except subprocess.TimeoutExpired as t:
                t.returncode, t.stderr = "timeout", ""
                return t
        try:
            return subprocess.run(cmd, cwd=cwd, env=e, capture_output=True,
                                  text=True, timeout=TIME_LIMIT, shell=shell,
                                  stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired as t:
            t.returncode, t.stderr = "timeout", str(t.stderr or "")
            return t


# ---- The targets ------------------------------------------------------------

def make_targets(work, script):
    """name -> (path, how to check it is intact afterwards, whether the
    rule writes there). Devices need mknod (root); without it they are
    left out."""
    targets = {}
    fifo = os.path.join(work, "fifo")
    os.mkfifo(fifo)
    targets["fifo"] = (fifo, lambda: stat.S_ISFIFO(os.lstat(fifo).st_mode),
                       False)
    for name, minor, writes in (("full", 7, False), ("null", 3, True)):
        dev = os.path.join(work, name)
        try:
            os.mknod(dev, stat.S_IFCHR | 0o666, os.makedev(1, minor))
        except OSError:
            continue
        targets[name] = (dev, (lambda d: lambda: stat.S_ISCHR(
            os.lstat(d).st_mode))(dev), writes)
    d = os.path.join(work, "dir")
    os.mkdir(d)
    targets["directory"] = (d, lambda: os.path.isdir(d) and
                            not os.listdir(d), False)
    ro = os.path.join(work, "ro.bin")
    with open(ro, "w") as f:
        f.write("keep\n")
    os.chmod(ro, 0o444)
    targets["read-only"] = (ro, lambda: open(ro).read() == "keep\n", False)
    with open(script, "rb") as f:
        original = f.read()

    def script_intact():
        with open(script, "rb") as f:
            return f.read() == original
    targets["the script"] = (script, script_intact, False)
    link = os.path.join(work, "script-link.py")
    os.symlink(os.path.basename(script), link)
    targets["a symlink to the script"] = (link, script_intact, False)
    dangling = os.path.join(work, "dangling")
    os.symlink("nowhere/x", dangling)
    targets["a dangling symlink"] = (
        dangling, lambda: os.path.islink(dangling) and
        not os.path.exists(dangling), False)
    targets["a missing directory"] = (
        os.path.join(work, "nodir", "x"),
        lambda: not os.path.exists(os.path.join(work, "nodir")), False)
    return targets


def no_strays(work):
    """Nothing detc would have written beside a device or in the FIFO's
    directory by mistake: sidecars of the device nodes, temporaries."""
    strays = [n for n in os.listdir(work)
              if n.endswith(".detc.json") and n.split(".")[0] in
              ("full", "null", "fifo", "dir", "ro", "dangling")
              or ".detc-" in n and n.endswith(".tmp")]
    return strays


def path_matrix(env, tmp, pool):
    """Each path-taking flag x each kind of target, in its own directory."""
    ch_src = os.path.join(ROOT, "examples", "checkhint_train.py")
    pgd_src = os.path.join(ROOT, "examples", "pgd_train.py")
    flaky_src = os.path.join(HERE, "Inputs", "flaky_train.py")
    # The policy fixes the crash, so a run that may write its log ends 0.
    policy = os.path.join(tmp, "policy.py")
    with open(policy, "w") as f:
        f.write("from detc_runtime.recovery import Rule, action\n"
                "RULES = [Rule(FileNotFoundError, do=action("
                "\"open(args.flag_file, 'w').close()\"))]\n")
    flaky_args = ["--steps", "12", "--flag-file", "made",
                  "--detc-recovery=" + policy]
    flags = {
        # flag: (source, transform flags, run args, flag -> path args)
        "--detc-profile": (ch_src, ["--overhead=0.05", "--ckpt-cost=0.005"],
                           ["--epochs", "1", "--steps", "12", "--width",
                            "8"], lambda p: ["--detc-profile", p]),
        "--out (the script's own checkpoint)": (
            pgd_src, [], ["--epochs", "1", "--examples", "32"],
            lambda p: ["--out", p]),
        "--detc-recovery-log": (flaky_src, ["--vaccinate"], flaky_args,
                                lambda p: ["--detc-recovery-log", p]),
        "--detc-recovery-shared": (
            flaky_src, ["--vaccinate"], flaky_args,
            lambda p: ["--detc-recovery-shared", p]),
    }
    jobs = []
    for n, (flag, (src, tflags, args, topath)) in enumerate(flags.items()):
        base = os.path.join(tmp, "flag%d" % n)
        os.makedirs(base)
        script = env.transform(src, os.path.join(base, "t.py"), *tflags)
        kinds = list(make_targets(os.path.join(base), script).keys())
        for k, kind in enumerate(kinds):
            work = os.path.join(base, "k%d" % k)
            os.makedirs(work)
            s = os.path.join(work, "t.py")
            shutil.copy(script, s)
            targets = make_targets(work, s)
            if kind not in targets:
                continue
            jobs.append(pool.submit(one_path_case, env, flag, kind, work, s,
                                    targets[kind], args + topath(
                                        targets[kind][0])))
    for j in jobs:
        j.result()
    return len(jobs)


def one_path_case(env, flag, kind, work, script, target, args):
    path, intact, writes = target
    what = "%s %s" % (flag, kind)
    proc = env.run([env.py, script] + args, cwd=work)
    if proc.returncode == "timeout":
        fail(what, "hangs", proc)
        return
    if not intact():
        fail(what, "the target was changed or replaced", proc)
    strays = no_strays(work)
    if strays:
        fail(what, "stray files: %s" % strays, proc)
    if writes and flag != "--detc-recovery-shared":
        if proc.returncode != 0:
            fail(what, "writing through should succeed", proc)
        return
    if proc.returncode == 0:
        fail(what, "exit 0 although the target cannot be written", proc)
    if proc.returncode not in (0, 1, 2):
        fail(what, "exit status %s" % proc.returncode, proc)
    err = proc.stderr or ""
    if proc.returncode == 2 and "detc-runtime: error:" not in err:
        fail(what, "exit 2 without a detc-runtime diagnostic", proc)
    if proc.returncode == 1 and "Error" not in err:
        fail(what, "exit 1 without the error", proc)


# ---- Environment variables --------------------------------------------------

VALUES = ["abc", "nan", "inf", "-inf", "-1", "1e999", "5e-324",
          "100000000000000000000000000000", "0x10", "1,5"]
VARIABLES = ["RANK", "WORLD_SIZE", "LOCAL_RANK", "DETC_RECOVERY",
             "DETC_RECOVERY_WAIT", "DETC_TRACE_ROTATE_MB",
             "DETC_JIT_HANG_FLOOR", "DETC_JIT_COLLECTIVE_TIMEOUT",
             "DETC_SYNC_CHECKPOINTS", "DETC_SEED"]

CHECK_ENV = r'''
import os, sys, json
import detc_runtime
from detc_runtime import env, _state
out = []
for name, value in json.loads(sys.argv[1]):
    saved = dict(os.environ)
    os.environ[name] = value
    try:
        env.check_all()
        if name == "DETC_SEED":
            _state.parse_seed(value, name)
        out.append([name, value, 0])
    except SystemExit as e:
        out.append([name, value, e.code])
    os.environ.clear()
    os.environ.update(saved)
print(json.dumps(out))
'''


def environment(env, tmp):
    """Every variable x every value, checked in one process (the same
    check configure() runs before the script), then three of them end to
    end: the script's own code never runs."""
    cases = [[n, v] for n in VARIABLES for v in VALUES]
    proc = env.run([env.py, "-c", CHECK_ENV, __import__("json").dumps(cases)],
                   cwd=tmp)
    if proc.returncode != 0:
        fail("environment check", "crashed", proc)
        return 0
    import json
    for name, value, code in json.loads(proc.stdout):
        if code not in (0, 2):
            fail("%s=%r" % (name, value), "exit %r" % code)
        # Non-finite numbers and non-integers for integers never pass.
        if value in ("nan", "inf", "-inf", "1e999", "abc", "1,5") and \
                code != 2:
            fail("%s=%r" % (name, value), "accepted")
    if "Traceback" in proc.stderr:
        fail("environment check", "traceback", proc)
    script = env.transform(os.path.join(ROOT, "examples", "pgd_train.py"),
                           os.path.join(tmp, "env.py"))
    for name, value in (("RANK", "abc"), ("WORLD_SIZE", "-1"),
                        ("DETC_TRACE_ROTATE_MB", "nan")):
        p = env.run([env.py, script, "--epochs", "1", "--out",
                     os.path.join(tmp, "env.pt")], cwd=tmp,
                    env={name: value})
        what = "%s=%s end to end" % (name, value)
        if p.returncode != 2 or "Traceback" in p.stderr or \
                "detc-runtime: error: %s=" % name not in p.stderr:
            fail(what, "expected exit 2 with the variable named", p)
        if "epoch 0" in p.stdout:
            fail(what, "the script ran", p)
    return len(cases)


# ---- Issue 40's cases -------------------------------------------------------

def planted_fix_records(env, tmp):
    """A fix-record file in the working directory (left by an earlier run,
    or planted) is never executed: not without a named shared file, and
    not when named but written by another job."""
    work = os.path.join(tmp, "planted")
    os.makedirs(work)
    script = env.transform(os.path.join(HERE, "Inputs", "flaky_train.py"),
                           os.path.join(work, "vt.vac.py"), "--vaccinate")
    pwned = os.path.join(work, "PWNED")
    with open(os.path.join(work, "vt.vac.fixes.jsonl"), "w") as f:
        for site in range(1, 8):
            for fmt in ({}, {"format": "detc-fix", "version": 1,
                             "job": ":", "rank": 0, "time": 4e9,
                             "script_sha256": "0" * 64}):
                f.write(__import__("json").dumps(dict(fmt, key=[
                    site, 0, "FileNotFoundError"], steps=[[
                        "action", "open(%r, 'w').write('x')" % pwned],
                        "retry"])) + "\n")
    for named in (False, True):
        e = {"WORLD_SIZE": "2", "RANK": "1", "DETC_RECOVERY_WAIT": "1"}
        if named:
            e["DETC_RECOVERY_SHARED"] = "vt.vac.fixes.jsonl"
        p = env.run([env.py, script, "--steps", "12", "--flag-file",
                     "nothere"], cwd=work, env=e)
        if os.path.exists(pwned):
            fail("planted fix records (named=%s)" % named,
                 "the planted code ran", p)
        if p.returncode == 0:
            fail("planted fix records (named=%s)" % named,
                 "the run went on with another job's fix", p)


def cut_checkpoint(env, tmp):
    """`ulimit -f` cuts the checkpoint: the save fails, the previous pair
    stays and resumes."""
    work = os.path.join(tmp, "fsize")
    os.makedirs(work)
    script = env.transform(os.path.join(ROOT, "examples", "pgd_train.py"),
                           os.path.join(work, "pgd.det.py"))
    ck = os.path.join(work, "ck.pt")
    p = env.run([env.py, script, "--epochs", "1", "--out", ck], cwd=work)
    if p.returncode != 0:
        fail("ulimit -f: first run", "failed", p)
        return
    with open(ck, "rb") as f:
        good = f.read()
    with open(ck + ".detc.json", "rb") as f:
        good_side = f.read()
    limit = (len(good) - 100) // 1024  # blocks of 1024 bytes: cut short
    p = env.run("ulimit -f %d; exec %s %s --epochs 2 --out %s --detc-resume "
                "%s" % (limit, env.py, script, ck, ck), cwd=work, shell=True)
    if p.returncode == 0:
        fail("ulimit -f: cut save", "exit 0", p)
    with open(ck, "rb") as f:
        if f.read() != good:
            fail("ulimit -f: cut save", "the checkpoint was replaced", p)
    with open(ck + ".detc.json", "rb") as f:
        if f.read() != good_side:
            fail("ulimit -f: cut save", "the sidecar was replaced", p)
    p = env.run([env.py, script, "--epochs", "2", "--out",
                 os.path.join(work, "other.pt"), "--detc-resume", ck],
                cwd=work)
    if p.returncode != 0:
        fail("ulimit -f: resume from the kept pair", "failed", p)


def bad_policies(env, tmp):
    """Recovery policies are checked when they load, before training: a
    bad `where`, a negative backoff, an unknown step, an action that does
    not compile, a policy that calls sys.exit(0) are exit 2 (a ValueError
    at the fault lost the run; sys.exit(0) ended it with 0, untrained). A
    fix that calls sys.exit(0) at the fault gives up instead."""
    work = os.path.join(tmp, "policies")
    os.makedirs(work)
    script = env.transform(os.path.join(HERE, "Inputs", "flaky_train.py"),
                           os.path.join(work, "vt.py"), "--vaccinate")
    head = "import sys\nfrom detc_runtime.recovery import Rule, action\n"
    policies = {
        "where": ("RULES = [Rule(FileNotFoundError, where='main:abc')]", 2),
        "backoff": ("RULES = [Rule(FileNotFoundError, backoff=-1)]", 2),
        "step": ("RULES = [Rule(FileNotFoundError, do='explode')]", 2),
        "syntax": ("RULES = [Rule(FileNotFoundError, do=action('x ='))]", 2),
        "exit at load": ("sys.exit(0)", 2),
        "exit in a fix": ("RULES = [Rule(FileNotFoundError, do=action("
                          "'sys.exit(0)'))]", 1)}
    for name, (body, code) in policies.items():
        path = os.path.join(work, name.replace(" ", "_") + ".py")
        with open(path, "w") as f:
            f.write(head + body + "\n")
        p = env.run([env.py, script, "--steps", "12", "--flag-file",
                     "nothere", "--detc-recovery=" + path], cwd=work)
        if p.returncode != code or "done" in p.stdout:
            fail("policy: " + name, "expected exit %d, nothing trained to "
                 "the end" % code, p)
        if code == 2 and "detc-runtime: error: --detc-recovery" not in \
                p.stderr:
            fail("policy: " + name, "no diagnostic", p)


def restart_mismatches(env, tmp):
    """Restarts and resumes that cannot be bit-identical are refused with a
    message naming the flags that differ (issue 40, 8-10): a checkpoint
    past the new end of an inner loop (exit 3), a model of another size
    (exit 2, not a shape traceback), a loader over another dataset size
    (exit 3, not a silent other order)."""
    work = os.path.join(tmp, "restart")
    os.makedirs(work)
    ch = env.transform(os.path.join(ROOT, "examples", "checkhint_train.py"),
                       os.path.join(work, "ch.py"), "--overhead=0.05",
                       "--ckpt-cost=0.005")
    pgd = env.transform(os.path.join(ROOT, "examples", "pgd_train.py"),
                        os.path.join(work, "pgd.py"))
    je = env.transform(os.path.join(HERE, "Inputs", "jit_examples_train.py"),
                       os.path.join(work, "je.py"), "--jit-checkpoint")
    rp = env.transform(os.path.join(HERE, "Inputs",
                                    "rank_prefixed_stderr_train.py"),
                       os.path.join(work, "rp.py"))
    first = [
        ([env.py, rp, "--out", "rp8.pt"], 0),
        ([env.py, ch, "--epochs", "1", "--steps", "300", "--width", "16",
          "--out", "a.pt"], 0),
        ([env.py, pgd, "--epochs", "1", "--out", "h32.pt"], 0),
        ([env.py, je, "--examples", "64", "--fail-at", "5"], 1)]
    for cmd, code in first:
        p = env.run(cmd, cwd=work)
        if p.returncode != code:
            fail("restart setup %s" % cmd[1:], "exit %s" % p.returncode, p)
            return
    cases = [
        ([env.py, ch, "--epochs", "1", "--steps", "200", "--width", "16",
          "--out", "a.pt", "--detc-restart"], 3,
         "--steps 200 (checkpointed run: 300)"),
        ([env.py, ch, "--epochs", "1", "--steps", "300", "--width", "24",
          "--out", "a.pt", "--detc-restart"], 2,
         "the checkpoint does not fit this run: 'params' is a tensor of "
         "shape (16, 16) in the checkpoint, (24, 24) in this run"),
        ([env.py, pgd, "--epochs", "2", "--hidden", "64", "--out", "h64.pt",
          "--detc-resume", "h32.pt"], 2,
         "the checkpoint does not fit this run: restoring it raised "
         "RuntimeError"),
        ([env.py, je, "--examples", "128", "--detc-restart"], 3,
         "has dataset length 128 now, 64 in the checkpointed run"),
        # An exception hook that captures stderr (torch.distributed's) does
        # not swallow the refusal: os._exit follows it.
        ([env.py, rp, "--hidden", "16", "--out", "rp16.pt",
          "--detc-resume", "rp8.pt"], 2,
         "the checkpoint does not fit this run: restoring it raised "
         "RuntimeError")]
    for cmd, code, message in cases:
        p = env.run(cmd, cwd=work)
        what = "restart %s" % " ".join(cmd[2:])
        if p.returncode != code or message not in p.stderr or \
                "Traceback" in p.stderr:
            fail(what, "expected exit %d and %r" % (code, message), p)
    # A resume keeps its own command line: the checkpoint's saved
    # arguments do not send the output back to the first run's file.
    with open(os.path.join(work, "rp8.pt"), "rb") as f:
        before = f.read()
    p = env.run([env.py, rp, "--out", "rp8b.pt", "--detc-resume",
                 "rp8.pt.epoch0"], cwd=work)
    with open(os.path.join(work, "rp8.pt"), "rb") as f:
        after = f.read()
    if p.returncode != 0 or before != after or \
            not os.path.exists(os.path.join(work, "rp8b.pt")):
        fail("resume with another --out",
             "expected exit 0, rp8b.pt written and rp8.pt left alone", p)
    # The same restarts with the checkpointed flags still work.
    p = env.run([env.py, je, "--examples", "64", "--detc-restart"], cwd=work)
    if p.returncode != 0:
        fail("JIT restart with the same flags", "failed", p)


def stdout_checkpoint(env, tmp):
    work = os.path.join(tmp, "stdout")
    os.makedirs(work)
    script = env.transform(os.path.join(ROOT, "examples", "pgd_train.py"),
                           os.path.join(work, "pgd.det.py"))
    p = env.run("%s %s --epochs 1 --out /dev/stdout | cat > piped" %
                (env.py, script), cwd=work, shell=True)
    if p.returncode != 0 or os.path.getsize(
            os.path.join(work, "piped")) < 1000:
        fail("--out /dev/stdout | cat", "the checkpoint did not go down the "
             "pipe", p)
    log = os.path.join(work, "run.log")
    open(log, "w").close()
    inode = os.stat(log).st_ino
    p = env.run("exec %s %s --epochs 1 --out /dev/stdout > run.log" %
                (env.py, script), cwd=work, shell=True)
    if p.returncode != 0:
        fail("--out /dev/stdout > run.log", "failed", p)
    if os.stat(log).st_ino != inode:
        fail("--out /dev/stdout > run.log", "the log's inode was replaced")
    strays = [n for n in os.listdir(work) if n.startswith("run.log") and
              n != "run.log"]
    if strays:
        fail("--out /dev/stdout > run.log", "stray files %s" % strays)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--detc", required=True)
    parser.add_argument("--runtime", required=True)
    parser.add_argument("--python", default="/usr/bin/python3")
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="detc-hostile-rt-")
    try:
        env = Env(args, tmp)
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            singles = [pool.submit(f, env, tmp) for f in (
                planted_fix_records, cut_checkpoint, stdout_checkpoint,
                restart_mismatches, bad_policies)]
            path_matrix(env, tmp, pool)
            for s in singles:
                s.result()
        cases = environment(env, tmp)  # in one process, plus its runs
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("hostile runtime: %d script runs and %d environment cases, %d "
          "failures" % (env.runs, cases, len(FAILURES)))
    for f in FAILURES:
        print("FAIL: " + f)
    return 1 if FAILURES else 0


if __name__ == "__main__":
    try:
        code = main()
    finally:
        zygote_client.stop_all()
    sys.exit(code)

#!/usr/bin/env python3
"""Fuzz-style test of the detc command line (issue 23): generated hostile
inputs — nesting families past the limit at random depths, endless and
huge files, random bytes, mutated scripts and task files, deeply nested
and ill-typed JSON, NaN/inf/empty/junk numeric flags — each run with a
time limit and a 4 GB address-space limit. Every run must end with a
diagnostic ("error:") and exit status 2 (mutations of valid inputs may
also succeed: 0 or 1); never a signal, a timeout or LLVM's crash dump.

usage: hostile_cli.py --detc BIN [--seed N] [--runs N]
"""
import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "test", "frontend", "errors", "Inputs"))
import deep  # noqa: E402  (the nesting families of nesting.test)

EXAMPLE = os.path.join(ROOT, "examples", "pgd_train.py")
TASKS = os.path.join(ROOT, "test", "analysis", "schedule", "Inputs",
                     "figure2.json")
BAD_NUMBERS = ["nan", "inf", "-inf", "", "1e999", "abc", "1e-3x", "0x10",
               "--", " ", "NaN", "1,5"]
TIME_LIMIT = 60
MEMORY_LIMIT = 4 << 30


def limits():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


class Fuzz:
    def __init__(self, detc, rng, tmp):
        self.detc, self.rng, self.tmp = detc, rng, tmp
        self.failures = []
        self.runs = 0
        self.count = 0

    def path(self, suffix):
        self.count += 1
        return os.path.join(self.tmp, "in%d%s" % (self.count, suffix))

    def write(self, data, suffix=".py"):
        p = self.path(suffix)
        with open(p, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())
        return p

    def run(self, args, what, may_succeed=False):
        self.runs += 1
        try:
            proc = subprocess.run([self.detc] + args, capture_output=True,
                                  timeout=TIME_LIMIT, preexec_fn=limits)
        except subprocess.TimeoutExpired:
            self.failures.append("%s: timed out after %d s" %
                                 (what, TIME_LIMIT))
            return
        err = proc.stderr.decode("utf-8", "replace")
        code = proc.returncode
        problem = None
        if code < 0:
            problem = "killed by signal %d" % -code
        elif "PLEASE submit a bug report" in err or "Stack dump" in err:
            problem = "LLVM crash dump"
        elif code == 2 and "error:" not in err:
            problem = "exit 2 without a diagnostic"
        elif code != 2 and not (may_succeed and code in (0, 1)):
            problem = "exit status %d, expected 2" % code
        if problem:
            self.failures.append("%s (detc %s): %s\n%s" % (
                what, " ".join(args)[:200], problem, err[-600:]))

    # ---- Generators ---------------------------------------------------------
    def nesting(self):
        depth = self.rng.choice([4001, 4100, 6000, 10000, 30000])
        for name, text in deep.families(depth).items():
            command = self.rng.choice([["analyze"], ["transform",
                                                     "--emit-python"], []])
            self.run(command + [self.write(text + "\n")],
                     "nesting %s x%d" % (name, depth))

    def files(self):
        self.run(["analyze", "/dev/zero"], "endless /dev/zero")
        self.run(["schedule", "/dev/urandom"], "endless /dev/urandom")
        big = self.path(".py")
        with open(big, "wb") as f:
            f.truncate(300 << 20)  # sparse: 300 MiB of zeros
        self.run(["analyze", big], "300 MiB file")
        self.run(["transform", "--emit-python", self.tmp], "a directory")
        for _ in range(4):
            data = bytes(self.rng.getrandbits(8) for _ in range(
                self.rng.randrange(1, 4000)))
            self.run(["analyze", self.write(data)], "random bytes",
                     may_succeed=True)
            self.run(["schedule", self.write(data, ".json")],
                     "random bytes as JSON")

    def mutated_scripts(self):
        with open(EXAMPLE, "rb") as f:
            text = f.read()
        for _ in range(12):
            data = bytearray(text)
            for _ in range(self.rng.randrange(1, 6)):
                at = self.rng.randrange(len(data))
                op = self.rng.randrange(3)
                if op == 0:
                    del data[at:at + self.rng.randrange(1, 40)]
                elif op == 1:
                    data[at:at] = self.rng.choice(
                        [b"(", b"[", b"lambda: ", b"\x00", b"\xff", b"\t",
                         b"\n    ", b"'''", b"\\", b"if x:\n"])
                else:
                    data[at] = self.rng.getrandbits(8)
            command = self.rng.choice([["analyze"], ["analyze",
                                                     "--format=sarif"],
                                       ["transform", "--emit-python"]])
            self.run(command + [self.write(bytes(data))], "mutated script",
                     may_succeed=True)

    def json_files(self):
        depth = self.rng.choice([4001, 50000, 200000])
        self.run(["schedule", self.write('{"tasks": ' + "[" * depth +
                                         "]" * depth + "}", ".json")],
                 "JSON nested %d deep" % depth)
        self.run(["schedule", self.write('{"program": ' + '[{"loop": 2, '
                                         '"body": ' * 3000 + "[1]" +
                                         "}]" * 3000 + "}", ".json")],
                 "3000 nested loops")
        params = '"checkpoint_seconds": 1, "allowance": 0.1, ' \
                 '"failure_rate": 0.01'
        for body in ('"tasks": [1e308, 1e308]', '"tasks": "x"',
                     '"tasks": [1, null]', '"tasks": [], "program": []',
                     '"program": [{"loop": -1, "body": []}]',
                     '"program": [{"loop": 1e30, "body": [1]}]',
                     '"program": [{"hint": 5}]', '"tasks": [-1]'):
            self.run(["schedule", self.write("{%s, %s}" % (body, params),
                                             ".json")], "bad task file")
        self.run(["schedule", self.write('{"tasks": [1, 2], "allowance": '
                                         '"x", "checkpoint_seconds": 1, '
                                         '"failure_rate": 0.01}', ".json")],
                 "ill-typed parameter")
        with open(TASKS) as f:
            text = f.read()
        for _ in range(6):
            at = self.rng.randrange(len(text))
            mutated = text[:at] + self.rng.choice(
                ["[", "{", "}", "1e999", '"', "-", "nan", ""]) + text[at + 1:]
            self.run(["schedule", self.write(mutated, ".json")],
                     "mutated task file", may_succeed=True)

    def output_paths(self):
        """Every output flag of the CLI x every kind of target (issue 40):
        the target must be what it was afterwards (a device still a
        device, the input's bytes unchanged) and the run exit 2 with the
        reason — except a device that takes writes (like /dev/null),
        written through with exit 0. The runtime's flags get the same
        matrix in hostile_runtime.py."""
        import stat
        work = os.path.join(self.tmp, "paths")
        os.makedirs(work)
        script = os.path.join(work, "main.py")
        with open(os.path.join(work, "helper.py"), "w") as f:
            f.write("def f():\n    return 1\n")
        with open(script, "w") as f:
            f.write("import helper\nimport torch\nx = torch.rand(3)\n"
                    "print(helper.f())\n")
        with open(os.path.join(work, "pyproject.toml"), "w") as f:
            f.write("[tool.detc]\nseed = 1\n")

        def kinds():
            """name -> (path, intact(), writes)."""
            k = {}
            fifo = os.path.join(work, "fifo")
            if not os.path.exists(fifo):
                os.mkfifo(fifo)
            k["fifo"] = (fifo, lambda: stat.S_ISFIFO(os.lstat(fifo).st_mode),
                         False)
            for name, minor, writes in (("full", 7, False),
                                        ("null", 3, True)):
                dev = os.path.join(work, name)
                try:
                    if not os.path.exists(dev):
                        os.mknod(dev, stat.S_IFCHR | 0o666,
                                 os.makedev(1, minor))
                except OSError:
                    continue
                k[name] = (dev, (lambda d: lambda: stat.S_ISCHR(
                    os.lstat(d).st_mode))(dev), writes)
            d = os.path.join(work, "dir")
            os.makedirs(d, exist_ok=True)
            k["directory"] = (d, lambda: os.path.isdir(d), False)
            ro = os.path.join(work, "ro.txt")
            if not os.path.exists(ro):
                with open(ro, "w") as f:
                    f.write("keep\n")
                os.chmod(ro, 0o444)
            k["read-only"] = (ro, lambda: open(ro).read() == "keep\n", False)
            for name, path in (("the input", script),
                               ("an imported module",
                                os.path.join(work, "helper.py")),
                               ("the config in use",
                                os.path.join(work, "pyproject.toml"))):
                with open(path, "rb") as f:
                    data = f.read()
                k[name] = (path, (lambda p, b: lambda: open(p, "rb").read()
                                  == b)(path, data), False)
            link = os.path.join(work, "link.py")
            if not os.path.lexists(link):
                os.symlink("main.py", link)
            k["a symlink to the input"] = (link, k["the input"][1], False)
            return k

        flags = {
            "transform -o": lambda p: ["transform", "--emit-python", script,
                                       "-o", p],
            "analyze --write-baseline": lambda p: ["analyze", script,
                                                   "--write-baseline", p],
            "schedule --plot": lambda p: ["schedule", TASKS, "--plot", p],
        }
        for flag, args in flags.items():
            for kind, (path, intact, writes) in kinds().items():
                what = "%s %s" % (flag, kind)
                if flag == "schedule --plot" and kind in (
                        "the config in use", "an imported module",
                        "the input", "a symlink to the input"):
                    continue  # not its inputs (hostile.test: --plot TASKS)
                if flag == "analyze --write-baseline" and \
                        kind == "an imported module":
                    continue  # analyze keeps no list of the files it read
                self.run(args(path), what, may_succeed=writes)
                if not intact():
                    self.failures.append("%s: the target was changed or "
                                         "replaced" % what)

    def numbers(self):
        for _ in range(10):
            flag = self.rng.choice(["--overhead", "--ckpt-cost",
                                    "--failure-rate"])
            value = self.rng.choice(BAD_NUMBERS)
            command = self.rng.choice([
                ["schedule", TASKS], ["analyze", EXAMPLE, "--overhead=0.1"],
                ["transform", "--emit-python", EXAMPLE, "--overhead=0.1"]])
            self.run(command + ["%s=%s" % (flag, value)],
                     "%s=%r" % (flag, value))
        self.run(["transform", "--emit-python", EXAMPLE, "--seed=-1"],
                 "--seed=-1")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--detc", required=True)
    ap.add_argument("--seed", type=int, default=23)
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        fuzz = Fuzz(opts.detc, random.Random(opts.seed), tmp)
        for gen in (fuzz.nesting, fuzz.files, fuzz.mutated_scripts,
                    fuzz.json_files, fuzz.output_paths, fuzz.numbers):
            gen()
    print("%d runs, %d failures" % (fuzz.runs, len(fuzz.failures)))
    for f in fuzz.failures:
        print("FAIL: " + f)
    sys.exit(1 if fuzz.failures else 0)


if __name__ == "__main__":
    main()

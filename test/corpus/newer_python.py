#!/usr/bin/env python3
"""detc reads Python 3.12 and 3.13 exactly like CPython 3.12 and 3.13.

usage: newer_python.py DETC [--every N]

For each of CPython 3.12 and 3.13 found on this machine (python3.12 /
python3.13 on PATH, or under pyenv's versions directory):
  1. the generated programs of newer_syntax_cases.py: a valid one must
     give the AST CPython gives (compare_ast.py, run by that interpreter);
     an invalid one must be refused by both; each valid program newer than
     3.11 must be refused under `--target-version` of the version before
     its own, naming the version, and parse under its own;
  2. every N-th file of that version's standard library that its own
     ast.parse accepts (the grammar's test files included).
With neither interpreter: prints SKIP and exits 77 (ctest shows it as
skipped), since the comparison needs CPython's own parser.
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import newer_syntax_cases as cases  # noqa: E402


def find_python(minor):
    """A working CPython 3.minor: pyenv's (its shims on PATH may not be
    selected), else one on PATH."""
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    candidates = sorted(glob.glob(os.path.join(
        root, "versions", f"3.{minor}.*", "bin", f"python3.{minor}")))[::-1]
    if shutil.which(f"python3.{minor}"):
        candidates.append(shutil.which(f"python3.{minor}"))
    for exe in candidates:
        try:
            out = subprocess.run(
                [exe, "-c", "import sys; print(sys.version_info[1])"],
                capture_output=True, text=True, timeout=60).stdout.strip()
        except (OSError, subprocess.TimeoutExpired):
            continue
        if out == str(minor):
            return exe
    return None


def cpython_accepts(python, paths):
    """The subset of `paths` that `python`'s ast.parse accepts."""
    code = ("import ast, sys, warnings\n"
            "warnings.simplefilter('ignore')\n"
            "for p in sys.stdin.read().split('\\n'):\n"
            "    try:\n"
            "        ast.parse(open(p, 'rb').read())\n"
            "        print(p)\n"
            "    except (SyntaxError, ValueError, OSError, RecursionError,"
            " MemoryError):\n"
            "        pass\n")
    out = subprocess.run([python, "-c", code], input="\n".join(paths),
                         capture_output=True, text=True, check=True).stdout
    return [p for p in out.split("\n") if p]


def compare(python, detc, paths, work, label):
    listing = os.path.join(work, f"{label}.txt")
    with open(listing, "w") as fh:
        fh.write("\n".join(paths) + "\n")
    proc = subprocess.run([python, os.path.join(HERE, "compare_ast.py"),
                           detc, listing], capture_output=True, text=True)
    print(f"{label}: {proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else proc.stderr[-400:]}")
    if proc.returncode != 0:
        print(proc.stdout[-3000:])
        return False
    return True


def check_version(python, minor, detc, every, work):
    ok = True
    # 1. Generated programs.
    valid, newer = [], []
    for k, (src, since) in enumerate(cases.VALID):
        if since > minor:
            continue
        path = os.path.join(work, f"valid{minor}_{k}.py")
        with open(path, "w") as fh:
            fh.write(src)
        valid.append(path)
        if since > 11:
            newer.append((path, since))
    accepted = set(cpython_accepts(python, valid))
    for path in valid:
        if path not in accepted:
            print(f"FAIL: CPython 3.{minor} refuses a VALID case "
                  f"(the case list is wrong): {open(path).read()!r}")
            ok = False
    ok &= compare(python, detc, sorted(accepted), work, f"cases-3.{minor}")
    invalid = []
    for k, src in enumerate(cases.INVALID):
        path = os.path.join(work, f"invalid{minor}_{k}.py")
        with open(path, "w") as fh:
            fh.write(src)
        invalid.append(path)
    for path in cpython_accepts(python, invalid):
        print(f"FAIL: CPython 3.{minor} accepts an INVALID case: "
              f"{open(path).read()!r}")
        ok = False
    for path in invalid:
        proc = subprocess.run([detc, "parse", "--emit=none", path],
                              capture_output=True, text=True)
        if proc.returncode != 2 or "error:" not in proc.stderr:
            print(f"FAIL: detc accepts an invalid case (exit "
                  f"{proc.returncode}): {open(path).read()!r}")
            ok = False
    # One detc run per version (a run per file costs detc's start-up).
    for since in sorted({v for _, v in newer}):
        paths = [p for p, v in newer if v == since]
        before = f"3.{since - 1}"
        proc = subprocess.run([detc, "parse", "--emit=none",
                               f"--target-version={before}", *paths],
                              capture_output=True, text=True)
        for path in paths:
            if f"{path}:" not in proc.stderr or proc.returncode != 2:
                print(f"FAIL: --target-version={before} does not refuse "
                      f"{open(path).read()!r} (exit {proc.returncode})")
                ok = False
        refusals = proc.stderr.count(f"is Python 3.{since} syntax; the "
                                     f"target version is {before}")
        if refusals != len(paths):
            print(f"FAIL: {refusals} refusals naming 3.{since} for "
                  f"{len(paths)} files:\n{proc.stderr[-2000:]}")
            ok = False
        proc = subprocess.run([detc, "parse", "--emit=none",
                               f"--target-version=3.{since}", *paths],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            print(f"FAIL: --target-version=3.{since} refuses some:\n"
                  f"{proc.stderr[-2000:]}")
            ok = False
    print(f"cases-3.{minor}: {len(accepted)} valid, {len(invalid)} invalid, "
          f"{len(newer)} refused under the previous target version")
    # 2. The version's own standard library.
    stdlib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()"
                       "['stdlib'])"],
        capture_output=True, text=True, check=True).stdout.strip()
    files = []
    for dirpath, dirnames, filenames in os.walk(stdlib):
        dirnames[:] = sorted(d for d in dirnames if d != "site-packages")
        files += [os.path.join(dirpath, f) for f in sorted(filenames)
                  if f.endswith(".py")]
    files = cpython_accepts(python, files[::every])
    if len(files) < 1500 // every:
        print(f"FAIL: only {len(files)} standard library files of 3.{minor}")
        return False
    ok &= compare(python, detc, files, work, f"stdlib-3.{minor}")
    return ok


def main():
    detc = sys.argv[1]
    every = 1
    if "--every" in sys.argv:
        every = int(sys.argv[sys.argv.index("--every") + 1])
    found = [(m, find_python(m)) for m in (12, 13)]
    found = [(m, p) for m, p in found if p]
    if not found:
        print("SKIP: neither CPython 3.12 nor 3.13 is installed here")
        return 77
    ok = True
    with tempfile.TemporaryDirectory(prefix="detc-newer-") as work:
        for minor, python in found:
            print(f"CPython 3.{minor}: {python}")
            ok &= check_version(python, minor, detc, every, work)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

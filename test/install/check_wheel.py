#!/usr/bin/env python3
"""The wheel (docs/install.md): built, installed into a fresh virtual
environment, and used from there as a pip user would.

  check_wheel.py BUILD_DIR

scripts/build-wheel.sh packages the tested build tree (`--from-build`: the
same install layout as `pip install .`, without compiling for minutes) and
`auditwheel repair` bundles the shared libraries. The wheel is installed
with pip into a new venv of Debian's Python 3.11 (with its site packages:
Debian's torch 1.13 stands for the user's torch). Then, with neither the
build tree nor PYTHONPATH in sight:

- the wheel holds the binary, the runtime package with its compiled core,
  and every shared library the binary needs except the few every Linux has
  (glibc's, libstdc++, libgcc_s, libz: manylinux's list); the installed
  binary resolves each of the others inside the venv;
- `detc --version`, `detc analyze` and `detc transform` of the bundled PGD
  example work from the venv's `bin/`;
- the transformed example runs under the venv's Python and imports
  detc_runtime from the venv's site-packages;
- `detc audit` (which runs the venv's `python3`) sees the example's
  per-example draws;
- the `language: python` pre-commit hook, run as pre-commit runs it in the
  venv it installs the repository into.
"""
import glob
import json
import os
import re
import sys
import tempfile
import zipfile

import precommit_hook
from check_install import run

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
# What manylinux lets a wheel take from the system (PEP 600's list, the
# part a C++ binary links).
SYSTEM = re.compile(r"^(linux-vdso|ld-linux[-\w]*|libc|libm|libdl|librt|"
                    r"libpthread|libstdc\+\+|libgcc_s|libz)\.so")


def check_contents(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    for want in (r"detc-[\d.]+\.data/scripts/detc$", r"detc\.scripts/detc$",
                 r"detc_runtime/__init__\.py$", r"detc_runtime/replay\.py$",
                 r"detc_runtime/_core\.cpython-311-.*\.so$",
                 r"detc\.libs/libz3-.*\.so",
                 r"detc\.libs/libantlr4-runtime-.*\.so"):
        if not any(re.match(want, n) for n in names):
            sys.exit("FAIL: the wheel has no %s:\n%s" % (want, names))
    # LLVM is linked statically (DETC_STATIC_LLVM): loading libLLVM took 20
    # of the 22 ms each detc process spent before main.
    shared_llvm = [n for n in names if re.match(r"detc\.libs/libLLVM", n)]
    if shared_llvm:
        sys.exit("FAIL: the wheel carries %s: detc links LLVM's shared "
                 "library" % shared_llvm)
    stray = [n for n in names if n.endswith((".a", ".h", ".td", ".inc"))
             or "__pycache__" in n]
    if stray:
        sys.exit("FAIL: the wheel carries build leftovers: %s" % stray)


def check_libraries(venv):
    binary = glob.glob(os.path.join(venv, "lib", "python3*",
                                    "site-packages", "detc.scripts", "detc"))
    if len(binary) != 1:
        sys.exit("FAIL: the venv has no detc.scripts/detc: %s" % binary)
    env = dict(os.environ)
    env.pop("LD_LIBRARY_PATH", None)
    bundled = 0
    for line in run(["ldd", binary[0]], env=env).splitlines():
        m = re.match(r"\s*(\S+)(?: => (\S+))?", line)
        name, path = m.group(1), m.group(2)
        if SYSTEM.match(os.path.basename(name)):
            continue
        if path is None or path == "not" or \
                not os.path.realpath(path).startswith(os.path.realpath(venv)):
            sys.exit("FAIL: the installed binary takes %s from %s, not "
                     "from the wheel" % (name, path))
        bundled += 1
    if bundled < 5:
        sys.exit("FAIL: only %d bundled libraries resolved" % bundled)
    return bundled


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    build = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        dist = os.path.join(tmp, "dist")
        run([os.path.join(SOURCE, "scripts", "build-wheel.sh"),
             "--from-build", build, "-o", dist],
            env=dict(os.environ, WHEEL_ZIP_LEVEL="1",
                     WHEEL_TOOLS=os.path.join(build, "wheel-tools")))
        wheels = glob.glob(os.path.join(dist, "detc-*.whl"))
        if len(wheels) != 1:
            sys.exit("FAIL: expected one wheel, got %s" % os.listdir(dist))
        wheel = wheels[0]
        if not re.search(r"-cp311-cp311-manylinux_2_\d+_x86_64\.whl$", wheel):
            sys.exit("FAIL: unexpected wheel tag: %s" % wheel)
        check_contents(wheel)

        venv = os.path.join(tmp, "venv")
        run(["/usr/bin/python3", "-m", "venv", "--system-site-packages",
             venv])
        vbin = os.path.join(venv, "bin")
        run([os.path.join(vbin, "pip"), "install", "-q", "--no-deps",
             "--disable-pip-version-check", wheel])
        bundled = check_libraries(venv)

        # A user's shell with the venv activated: no build tree, no
        # PYTHONPATH.
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONPATH", "LD_LIBRARY_PATH", "DETC_PYTHON")}
        env["PATH"] = vbin + ":/usr/bin:/bin"
        env.update(VIRTUAL_ENV=venv, OMP_NUM_THREADS="1",
                   PYTHONWARNINGS="ignore")
        work = os.path.join(tmp, "work")
        os.mkdir(work)
        version = run(["detc", "--version"], env=env, cwd=work)
        if not re.match(r"detc \d+\.\d+\.\d+ \(commit", version):
            sys.exit("FAIL: detc --version printed %r" % version)
        example = os.path.join(SOURCE, "examples", "pgd_train.py")
        report = run(["detc", "analyze", example], env=env, cwd=work)
        if "[detc-unsafe-rng]" not in report:
            sys.exit("FAIL: no unsafe draw found in the example:\n" + report)
        out = os.path.join(work, "pgd.det.py")
        run(["detc", "transform", example, "--emit-python", "-o", out],
            env=env, cwd=work)
        if build in open(out).read():
            sys.exit("FAIL: the emitted script names the build tree")
        probe = ("import detc_runtime, sys; print(detc_runtime.__file__)")
        where = run(["python", "-c", probe], env=env, cwd=work).strip()
        if not where.startswith(venv):
            sys.exit("FAIL: detc_runtime imported from %s" % where)
        run(["python", out, "--epochs", "1", "--out",
             os.path.join(work, "m.pt")], env=env, cwd=work)
        if not os.path.exists(os.path.join(work, "m.pt")):
            sys.exit("FAIL: the transformed example wrote no checkpoint")
        audit = run(["detc", "audit", "--steps", "2", "--format=json",
                     example, "--epochs", "1", "--out",
                     os.path.join(work, "a.pt")], env=env, cwd=work)
        draws = json.loads(audit)["draws"]
        if not any("per-example" in d["contexts"] for d in draws):
            sys.exit("FAIL: detc audit saw no per-example draw:\n" + audit)
        # pre-commit's `language: python` hook: pre-commit would `pip
        # install .` into the hook's venv; this venv stands for it.
        precommit_hook.check_hook("detc-analyze", "python", vbin)
        size = os.path.getsize(wheel) / 1e6
    print("PASS: %s (%.1f MB, %d bundled libraries) installs into a fresh "
          "venv and runs the demo" % (os.path.basename(wheel), size, bundled))


if __name__ == "__main__":
    main()

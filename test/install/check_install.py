#!/usr/bin/env python3
"""Install tests (issue 22, docs/install.md).

  check_install.py staged BUILD_DIR   `cmake --install BUILD --component detc`
                                      into a DESTDIR staging prefix (/usr)
  check_install.py deb BUILD_DIR      `cpack -G DEB` with the build's
                                      CPackConfig.cmake, then inspect and
                                      unpack detc_<version>_amd64.deb

Both check the installed tree — the tools in usr/bin, the detc_runtime
package (with its compiled core) in Debian's site directory
usr/lib/python3/dist-packages, the docs and examples in usr/share/doc/detc,
and nothing else (no static libraries or headers) — and run the demo from
it: `detc --version`, `detc analyze` and `detc transform` of the bundled
PGD example, and the transformed script under /usr/bin/python3 with only
the installed site directory added (where an installed package's files are
on sys.path already); the emitted script names no build directory. The deb
check also reads the control file: name, version, architecture and the
Debian dependencies (the shared libraries' packages and Python's).
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

PY = "/usr/bin/python3"
SITE = "usr/lib/python3/dist-packages"


def run(cmd, **kw):
    out = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if out.returncode != 0:
        sys.exit("FAIL: %s exited %d\n%s%s" % (" ".join(cmd), out.returncode,
                                               out.stdout, out.stderr))
    return out.stdout


def check_tree(root, build):
    files = sorted(os.path.relpath(os.path.join(d, f), root)
                   for d, _, fs in os.walk(root) for f in fs)
    expected = ["usr/bin/detc", "usr/bin/detc-opt",
                SITE + "/detc_runtime/__init__.py",
                SITE + "/detc_runtime/replay.py",
                "usr/share/doc/detc/README.md",
                "usr/share/doc/detc/replay.md",
                "usr/share/doc/detc/examples/pgd_train.py"]
    for f in expected:
        if f not in files:
            sys.exit("FAIL: %s is not installed (installed: %s)" % (f, files))
    if not any(re.match(SITE + r"/detc_runtime/_core\..*\.so$", f)
               for f in files):
        sys.exit("FAIL: the runtime's compiled core is not installed")
    stray = [f for f in files if f.endswith((".a", ".h", ".td", ".inc"))
             or not f.startswith(("usr/bin/", SITE + "/detc_runtime/",
                                  "usr/share/doc/detc/"))]
    if stray:
        sys.exit("FAIL: installed files that are not detc's: %s" % stray)
    shipped = sorted(os.path.basename(p) for p in glob.glob(
        os.path.join(os.path.dirname(__file__), "..", "..", "runtime",
                     "python", "detc_runtime", "*.py")))
    have = sorted(os.path.basename(f) for f in files
                  if f.startswith(SITE + "/detc_runtime/")
                  and f.endswith(".py"))
    if shipped != have:
        sys.exit("FAIL: runtime modules %s installed, %s shipped" %
                 (have, shipped))

    detc = os.path.join(root, "usr/bin/detc")
    version = run([detc, "--version"])
    if not re.match(r"detc \d+\.\d+\.\d+ \(commit", version):
        sys.exit("FAIL: detc --version printed %r" % version)
    example = os.path.join(root, "usr/share/doc/detc/examples/pgd_train.py")
    with tempfile.TemporaryDirectory() as tmp:
        report = run([detc, "analyze", example], cwd=tmp)
        if "[detc-unsafe-rng]" not in report:
            sys.exit("FAIL: the installed detc found no unsafe draw in the "
                     "example:\n" + report)
        out = os.path.join(tmp, "pgd.det.py")
        run([detc, "transform", example, "--emit-python", "-o", out],
            cwd=tmp)
        text = open(out).read()
        if build in text or "sys.path" in text:
            sys.exit("FAIL: the emitted script refers to a build tree or "
                     "edits sys.path")
        env = dict(os.environ, PYTHONPATH=os.path.join(root, SITE),
                   OMP_NUM_THREADS="1", PYTHONWARNINGS="ignore")
        run([PY, out, "--epochs", "1", "--out", os.path.join(tmp, "m.pt")],
            cwd=tmp, env=env)
        if not os.path.exists(os.path.join(tmp, "m.pt")):
            sys.exit("FAIL: the transformed example wrote no checkpoint")


def staged(build):
    with tempfile.TemporaryDirectory() as root:
        env = dict(os.environ, DESTDIR=root)
        run(["cmake", "--install", build, "--component", "detc",
             "--prefix", "/usr"], env=env)
        check_tree(root, build)
    print("PASS: staged install (DESTDIR, prefix /usr) runs the demo")


def deb(build):
    with tempfile.TemporaryDirectory() as tmp:
        run(["cpack", "-G", "DEB", "-B", tmp, "--config",
             os.path.join(build, "CPackConfig.cmake")])
        debs = glob.glob(os.path.join(tmp, "detc_*_amd64.deb"))
        if len(debs) != 1:
            sys.exit("FAIL: expected one detc_<version>_amd64.deb, got %s" %
                     os.listdir(tmp))
        pkg = debs[0]
        field = lambda name: run(["dpkg-deb", "-f", pkg, name]).strip()
        if field("Package") != "detc" or field("Architecture") != "amd64":
            sys.exit("FAIL: bad control file:\n" +
                     run(["dpkg-deb", "-I", pkg]))
        version = field("Version")
        if not re.fullmatch(r"\d+\.\d+\.\d+", version) or \
                os.path.basename(pkg) != "detc_%s_amd64.deb" % version:
            sys.exit("FAIL: version %r, file %s" % (version, pkg))
        depends = field("Depends")
        # (No libllvm19: LLVM is linked statically, DETC_STATIC_LLVM.)
        for dep in ("libz3-4", "libantlr4-runtime4.9",
                    "libtcmalloc-minimal4", "libsimdjson14",
                    "libstdc++6", "python3 (>= 3.11)", "python3-torch",
                    "python3-numpy"):
            if dep not in depends:
                sys.exit("FAIL: Depends lacks %s: %s" % (dep, depends))
        root = os.path.join(tmp, "root")
        run(["dpkg-deb", "-x", pkg, root])
        check_tree(root, build)
    print("PASS: %s (Depends: %s) runs the demo" %
          (os.path.basename(pkg), depends))


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("staged", "deb"):
        sys.exit(__doc__)
    {"staged": staged, "deb": deb}[sys.argv[1]](os.path.abspath(sys.argv[2]))

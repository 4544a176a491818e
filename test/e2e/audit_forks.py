#!/usr/bin/env python3
"""Runs detc's audit (detc_runtime/audit.py, the file `detc audit` runs)
on many programs from one interpreter: the libraries every program imports
(torch, numpy, tqdm) are imported once here, and each program is audited
in a child forked from this process — as `detc audit` would run it from a
fresh interpreter, without paying torch's import (about a second) per
program. static_covers_dynamic.py audits a few hundred programs this way.

Protocol, one JSON object per line: a request on stdin
  {"script": PATH, "pythonpath": [DIRS], "steps": N, "out": PATH}
is answered on stdout by {"status": EXIT_STATUS} once the child has
written the audit's JSON report to `out` (its stderr to `out` + ".err").

What the child shares with this process is only what was imported before
the fork: nothing has run a tensor operation here (a forked child of a
process whose OpenMP pool started can hang in it), and no program's module
is imported here, so each program imports its own.

usage: audit_forks.py AUDIT_PY  (the runtime's detc_runtime/audit.py)
"""
import importlib.util
import json
import os
import sys


def load_audit(path):
    spec = importlib.util.spec_from_file_location("detc_audit", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def audited(audit, request):
    """In the forked child: the audit of one program; never returns."""
    status = 1
    try:
        out = os.open(request["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                      0o644)
        err = os.open(request["out"] + ".err",
                      os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(out, 1)
        os.dup2(err, 2)
        os.close(out)
        os.close(err)
        stdin = os.open(os.devnull, os.O_RDONLY)
        os.dup2(stdin, 0)
        os.close(stdin)
        sys.stdin = open(0, closefd=False)
        script = request["script"]
        os.chdir(os.path.dirname(script))
        # Where a fresh interpreter started with this PYTHONPATH has it:
        # after the script's folder (which the audit inserts first).
        sys.path[0:0] = request["pythonpath"]
        os.environ["PYTHONPATH"] = os.pathsep.join(request["pythonpath"])
        status = audit.main(["--steps", str(request["steps"]),
                             "--format=json", script])
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else 1
    except BaseException:
        import traceback
        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(status if isinstance(status, int) else 1)


def main():
    audit_path = os.path.abspath(sys.argv[1])
    # This folder's scripts are not the programs' modules.
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path
                   if os.path.abspath(p or ".") != here]
    # What the generated programs import, imported once (no tensor
    # operation runs: see the docstring).
    import numpy  # noqa: F401
    import torch  # noqa: F401
    import torch.nn  # noqa: F401
    import torch.nn.functional  # noqa: F401
    import torch.utils.data  # noqa: F401
    import torch.utils.checkpoint  # noqa: F401
    try:
        import torchvision.transforms  # noqa: F401
        import tqdm  # noqa: F401
    except ImportError:
        pass
    audit = load_audit(audit_path)
    # What was imported here is never collected: kept out of the
    # collector's reach, a child's collections no longer walk (and so copy,
    # page by page) torch's objects (the 400 programs: 72 s -> 53 s).
    import gc
    gc.freeze()
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            audited(audit, request)
        _, status = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        sys.stdout.write(json.dumps({"status": code}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

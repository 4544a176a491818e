#!/usr/bin/env python3
"""Derives builtins.api, the names every Python module can read without
binding them, from the interpreter itself: the builtins module's names
(`len`, `print`, `ValueError`, `__import__`) and the names each module,
class body and method gets implicitly (`__name__`, `__file__`,
`__qualname__`, `__class__`).

A name a module reads that is bound nowhere — not in its scopes, not by
its imports, not a builtin — is a NameError at run time (two of
PyTorch-GAN's scripts loop over an undefined `mnist_loader`). api/python.api
declares builtins quiet; without this list every such name was taken for
a quiet builtin, and a training loop over it was silently no loop at all
(lib/frontend/Lowering/PointsTo/Constraints.cpp, varNode).

    derive_builtin_names.py > builtins.api
    derive_builtin_names.py --check builtins.api   (every builtin of this
        interpreter is listed; the suite runs it:
        test/tools/api_tables_vs_library.py)
"""
import builtins
import sys

from derived_table import main

# Bound in every module, class body or method without a statement binding
# them; and Windows' alias of OSError, which scripts name in handlers.
IMPLICIT = ("__annotations__", "__builtins__", "__cached__", "__class__",
            "__doc__", "__file__", "__loader__", "__module__", "__name__",
            "__package__", "__path__", "__qualname__", "__spec__",
            "WindowsError")


def names():
    return sorted(set(dir(builtins)) | set(IMPLICIT))


def check(listed):
    """Every builtin of this interpreter is listed."""
    missing = sorted(set(names()) - set(listed))
    return ("builtins of this Python not listed: " + ", ".join(missing)
            if missing else None,
            "%d names, every builtin of this Python among them" % len(listed))


if __name__ == "__main__":
    sys.exit(main("builtin", "derive_builtin_names.py",
                  "builtins and the names modules, class bodies and methods "
                  "get implicitly", names(), check))

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
import argparse
import builtins
import sys

# Bound in every module, class body or method without a statement binding
# them; and Windows' alias of OSError, which scripts name in handlers.
IMPLICIT = ("__annotations__", "__builtins__", "__cached__", "__class__",
            "__doc__", "__file__", "__loader__", "__module__", "__name__",
            "__package__", "__path__", "__qualname__", "__spec__",
            "WindowsError")


def names():
    return sorted(set(dir(builtins)) | set(IMPLICIT))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", metavar="TABLE")
    args = parser.parse_args()
    if args.check:
        listed = {line.split()[1] for line in open(args.check)
                  if line.startswith("builtin ")}
        missing = sorted(set(names()) - listed)
        if missing:
            print("%s: builtins of this Python not listed: %s" %
                  (args.check, ", ".join(missing)))
            return 1
        print("%s: %d names, every builtin of this Python among them" %
              (args.check, len(listed)))
        return 0
    print("# Derived by derive_builtin_names.py from Python %d.%d's builtins "
          "and the names" % sys.version_info[:2])
    print("# modules, class bodies and methods get implicitly (README.md, "
          "`builtin`). Do not edit.")
    for n in names():
        print("builtin %s" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main())

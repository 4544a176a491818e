#!/usr/bin/env python3
"""Derives stdlib.api, the top-level modules of Python's standard library,
from the interpreter itself (sys.stdlib_module_names, Python 3.10+).

detc takes a call into code it does not read to change the objects it is
given (an optimizer, a model: lib/frontend/Lowering/UnreadCalls.cpp,
mutableArguments), unless the callee is the standard library's: its
functions are given paths, strings and numbers (`os.path.join(folder,
name)`), and change none of the program's objects, except those a
`changes-arguments` line in python.api names (heapq, bisect).

    derive_stdlib_names.py > stdlib.api
    derive_stdlib_names.py --check stdlib.api   (every module listed is
        one of this interpreter's standard library; the suite runs it:
        test/tools/api_tables_vs_library.py)
"""
import argparse
import sys


def names():
    return sorted(n for n in sys.stdlib_module_names if not n.startswith("_"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", metavar="TABLE")
    args = parser.parse_args()
    if args.check:
        listed = [line.split()[1] for line in open(args.check)
                  if line.startswith("stdlib ")]
        missing = sorted(set(listed) - set(sys.stdlib_module_names))
        if missing or not listed:
            print("%s: not this Python's standard library: %s" %
                  (args.check, ", ".join(missing) or "(nothing listed)"))
            return 1
        print("%s: %d modules, all this Python's standard library" %
              (args.check, len(listed)))
        return 0
    print("# Derived by derive_stdlib_names.py from Python %d.%d's "
          "sys.stdlib_module_names:" % sys.version_info[:2])
    print("# the modules of the standard library (README.md, `stdlib`). "
          "Do not edit.")
    for n in names():
        print("stdlib", n)
    return 0


if __name__ == "__main__":
    sys.exit(main())

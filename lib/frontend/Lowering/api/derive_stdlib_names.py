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
import sys

from derived_table import main


def names():
    return sorted(n for n in sys.stdlib_module_names if not n.startswith("_"))


def check(listed):
    """Every module listed is one of this interpreter's standard library."""
    missing = sorted(set(listed) - set(sys.stdlib_module_names))
    return ("not this Python's standard library: " +
            (", ".join(missing) or "(nothing listed)")
            if missing or not listed else None,
            "%d modules, all this Python's standard library" % len(listed))


if __name__ == "__main__":
    sys.exit(main("stdlib", "derive_stdlib_names.py",
                  "sys.stdlib_module_names: the modules of the standard "
                  "library", names(), check))

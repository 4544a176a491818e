"""What derive_builtin_names.py and derive_stdlib_names.py share: a table
of `KEYWORD name` lines derived from the interpreter, printed (the table's
new text) or, with --check TABLE, compared with the interpreter's names.
"""
import argparse
import sys
import textwrap


def main(keyword, script, source, names, check):
    """`names`: the derived names, sorted; `source`: where they come from,
    for the table's header; `check(listed)`: (a problem with the table's
    names, or None; what the table holds when it has none)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", metavar="TABLE")
    args = parser.parse_args()
    if args.check:
        with open(args.check) as f:
            listed = [line.split()[1] for line in f
                      if line.startswith(keyword + " ")]
        problem, summary = check(listed)
        print("%s: %s" % (args.check, problem or summary))
        return 1 if problem else 0
    header = "Derived by %s from Python %d.%d's %s (README.md, `%s`). Do " \
        "not edit." % ((script,) + sys.version_info[:2] + (source, keyword))
    for line in textwrap.wrap(header, 77):
        print("# " + line)
    for n in names:
        print(keyword, n)
    return 0

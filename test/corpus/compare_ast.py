#!/usr/bin/env python3
"""Cross-check detc's AST against CPython's ast.parse on real files.

Usage: compare_ast.py DETC FILE_LIST [--every N] [--max-report K]

For each file (every N-th of the list), `detc parse --emit=json` and
`ast.parse` must agree on: the kind of every node, the scalar fields
(names, operators, contexts, constant types and string values), and the
positions (lineno, col_offset, end_lineno, end_col_offset) of every node that
has them. One known difference of CPython 3.11 is tolerated: the nodes that
CPython synthesizes inside f-strings (the Constant and FormattedValue parts of
a JoinedStr, and expressions in nested format specs) carry positions CPython
3.11 itself documents as unreliable, so positions are not compared below a
JoinedStr; their kinds and values still are.
Exits 1 on any difference, printing the first few.
"""
import ast
import json
import subprocess
import sys

OPS = (ast.operator, ast.unaryop, ast.cmpop, ast.boolop, ast.expr_context)
POS = ("lineno", "col_offset", "end_lineno", "end_col_offset")


def const_kind(v):
    if v is None:
        return "None"
    if v is True:
        return "True"
    if v is False:
        return "False"
    if v is Ellipsis:
        return "Ellipsis"
    return type(v).__name__


class Mismatch(Exception):
    pass


def spell(path):
    """The text of a path kept as nested tuples (parent, piece): built
    only for a mismatch (formatting every node's path once took a third of
    the comparison)."""
    pieces = []
    while isinstance(path, tuple):
        path, piece = path
        pieces.append(piece)
    pieces.append(path)
    return "".join(reversed(pieces))


def compare(py, dt, path, in_fstring, counter=None):
    if isinstance(py, list) and in_fstring and spell(path).endswith(
            ".values"):
        # CPython 3.12.0-3.12.2 end a format spec that ends in a field
        # with an empty Constant (fixed in 3.12.3 and 3.13); detc does not.
        py = [v for v in py
              if not (isinstance(v, ast.Constant) and v.value == "")]
    if isinstance(py, list):
        if not isinstance(dt, list) or len(py) != len(dt):
            raise Mismatch(f"{spell(path)}: list length {len(py)} vs "
                           f"{len(dt) if isinstance(dt, list) else dt!r}")
        for i, (a, b) in enumerate(zip(py, dt)):
            compare(a, b, (path, f"[{i}]"), in_fstring, counter)
        return
    if py is None:
        if dt is not None:
            raise Mismatch(f"{spell(path)}: expected nothing, detc has "
                           f"{dt!r:.80}")
        return
    if isinstance(py, OPS):
        if dt != type(py).__name__:
            raise Mismatch(f"{spell(path)}: {type(py).__name__} vs {dt}")
        return
    if not isinstance(py, ast.AST):
        if py != dt:
            raise Mismatch(f"{spell(path)}: {py!r:.60} vs {dt!r:.60}")
        return
    if counter is not None:
        counter[0] += 1
    name = type(py).__name__
    if not isinstance(dt, dict) or dt.get("_type") != name:
        got = dt.get("_type") if isinstance(dt, dict) else dt
        raise Mismatch(f"{spell(path)}: node {name} vs {got}")
    where = (path, f"<{name}@{getattr(py, 'lineno', '?')}>")
    if not in_fstring and hasattr(py, "lineno"):
        a = (py.lineno, py.col_offset, py.end_lineno, py.end_col_offset)
        b = tuple(dt.get(k) for k in POS)
        if a != b:
            raise Mismatch(f"{spell(where)}: position {a} vs {b}")
    inner = in_fstring or name == "JoinedStr"
    for field in py._fields:
        value = getattr(py, field)
        if field in ("type_comment", "type_ignores"):
            continue
        if name == "Constant":
            if field == "kind":
                continue
            if field == "value":
                if dt.get("kind") != const_kind(value):
                    raise Mismatch(f"{spell(where)}: constant kind "
                                   f"{const_kind(value)} vs {dt.get('kind')}")
                if isinstance(value, str):
                    try:
                        value.encode("utf-8")
                    except UnicodeEncodeError:
                        continue  # Lone surrogates: not representable in JSON.
                    if dt.get("value") != value:
                        raise Mismatch(f"{spell(where)}: string {value!r:.60} "
                                       f"vs {dt.get('value')!r:.60}")
                continue
        if name == "FormattedValue" and field == "conversion":
            if dt.get("conversion") != value:
                raise Mismatch(f"{spell(where)}: conversion {value} vs "
                               f"{dt.get('conversion')}")
            continue
        if name == "MatchSingleton" and field == "value":
            if dt.get("value") != const_kind(value):
                raise Mismatch(f"{spell(where)}: singleton {value} vs "
                               f"{dt.get('value')}")
            continue
        if field not in dt:
            raise Mismatch(f"{spell(where)}: detc lacks field {field}")
        compare(value, dt[field], (where, "." + field), inner, counter)


def main():
    detc, file_list = sys.argv[1], sys.argv[2]
    every = 1
    if "--every" in sys.argv:
        every = int(sys.argv[sys.argv.index("--every") + 1])
    max_report = 10
    files = [l.strip() for l in open(file_list) if l.strip()][::every]
    proc = subprocess.run([detc, "parse", "--emit=json", *files],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        print(proc.stderr.decode(errors="replace")[:2000])
        print("FAIL: detc could not parse every file")
        return 1
    outputs = proc.stdout.decode("utf-8").split("\n")[:-1]
    if len(outputs) != len(files):
        print(f"FAIL: {len(outputs)} JSON documents for {len(files)} files")
        return 1
    failures = 0
    nodes = [0]  # (counted by compare: a walk of its own cost a sixth)
    for f, out in zip(files, outputs):
        with open(f, "rb") as fh:
            tree = ast.parse(fh.read())
        try:
            compare(tree, json.loads(out), f, False, nodes)
        except Mismatch as m:
            failures += 1
            if failures <= max_report:
                print(f"MISMATCH {m}")
    print(f"compared {len(files)} files, {nodes[0]} nodes: "
          f"{len(files) - failures} agree, {failures} differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

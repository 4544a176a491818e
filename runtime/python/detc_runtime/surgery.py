"""Surgery on running vaccinated functions (docs/vaccinate.md).

A surgery file that redefines a vaccinated function F while F runs: the
original script with F's definition replaced is transformed again, with
the flags of the first transform (`detc` is called; DETC overrides its
path), F's new vaccinated code is loaded, and its cells are paired with
the running ones by their place in the function (the n-th cell inside the
m-th cell ...). From then on every cell of F starts with its new code (the
barrier swaps it in, keeping the invocation's variables); the failing cell
restarts at its first modified statement. An edit that changes the cells
on the way to the failing statement (a loop, if, with or try body added or
removed around it) cannot be resumed: refused, with that reason.
"""
import ast
import hashlib
import os
import re
import subprocess
import tempfile
import types

from . import vaccine


class SurgeryError(Exception):
    pass


# replace_running's answer when the failing call is redone by its caller.
REDO_CALL = "redo_call"


def _cells(code):
    """The cell code objects directly inside `code`, in source order."""
    return [c for c in code.co_consts if isinstance(c, types.CodeType)
            and c.co_name.startswith("_detc_cell_")]


def _pair(old, new, pairs, path=()):
    """Pairs old and new cells by place; a level whose number of cells
    changed pairs nothing below it."""
    pairs[old] = (new, path)
    a, b = _cells(old), _cells(new)
    if len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            _pair(x, y, pairs, path + (i,))


def _find(code, target, path=()):
    if code is target:
        return path
    for i, c in enumerate(_cells(code)):
        found = _find(c, target, path + (i,))
        if found is not None:
            return found
    return None


# detc's comments and cell numbering differ between two transforms.
_NOISE = re.compile(r"  # detc:.*$|_detc_cell_\d+, \d+|_detc_cell_\d+")


def _statements(lines, first):
    """The statements of the cell whose `def` is lines[first]: the text of
    each guarded statement, normalised (detc's comments and numbering
    removed)."""
    indent = len(lines[first]) - len(lines[first].lstrip())
    guard = indent + 1
    out = []
    for line in lines[first + 1:]:
        stripped = line.strip()
        width = len(line) - len(line.lstrip())
        if stripped and not stripped.startswith("#") and width <= indent:
            break
        if width == guard and vaccine._GUARD.match(line):
            out.append([])
        elif out:
            out[-1].append(_NOISE.sub("", line.rstrip()))
    return ["\n".join(s) for s in out]


def _first_change(old_lines, old_code, new_lines, new_code):
    a = _statements(old_lines, old_code.co_firstlineno - 1)
    b = _statements(new_lines, new_code.co_firstlineno - 1)
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def _transform(name, new_source):
    """The original script with `name` redefined, transformed as the
    running script was: (path of the output, its text)."""
    return _transform_all({name: new_source}, functions_only=True)


def transformed_definitions(sources):
    """{name: the top-level definition (a function or class) of the
    original script with each of `sources` (name -> its new source) put in
    its place, transformed as the running script was} — so that a class or
    function a surgery brings is keyed like the original (a redefined
    forward's F.dropout draws from the same keyed stream as the original's,
    not from torch's global generator). A name the script does not define
    is added at its end."""
    if not sources:
        return {}
    _, text = _transform_all(sources)
    found = {}
    for node in ast.parse(text).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and \
                node.name in sources:
            found[node.name] = node
    missing = sorted(set(sources) - set(found))
    if missing:
        raise SurgeryError("the transformed script has no top-level %s"
                           % ", ".join(missing))
    return found


def original_text():
    """The text of the script the running one was transformed from,
    checked against the SHA-256 its header records."""
    info = vaccine.SOURCE
    path, sha, command = info["path"], info["sha256"], info["retransform"]
    if not path or not command:
        raise SurgeryError("the script was transformed without the "
                           "information surgery needs (transform again)")
    try:
        with open(path, "rb") as f:
            original = f.read()
    except OSError as e:
        raise SurgeryError("cannot read the original script %s: %s"
                           % (path, e.strerror))
    if hashlib.sha256(original).hexdigest() != sha:
        raise SurgeryError("the original script %s changed since it was "
                           "transformed; surgery edits the version that "
                           "runs" % path)
    return original.decode("utf-8")


def _transform_all(sources, functions_only=False):
    path = vaccine.SOURCE["path"]
    text = original_text()
    tree = ast.parse(text)
    kinds = (ast.FunctionDef,) if functions_only else (ast.FunctionDef,
                                                        ast.ClassDef)
    lines = text.splitlines(keepends=True)
    places, added = [], []
    for name, new_source in sources.items():
        defs = [n for n in tree.body if isinstance(n, kinds)
                and n.name == name]
        if len(defs) > 1 or (not defs and functions_only):
            raise SurgeryError("'%s' is not defined once at the top level "
                               "of %s" % (name, path))
        if not defs:
            added.append(new_source.rstrip("\n") + "\n")
            continue
        node = defs[0]
        start = min([node.lineno] + [d.lineno for d in node.decorator_list])
        places.append((start, node.end_lineno, new_source))
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    _splice(lines, [(start, end, [new_source.rstrip("\n") + "\n"])
                    for start, end, new_source in places])
    return _retransform("".join(lines + added))


def _splice(lines, edits):
    """Replaces lines first..last (1-based; none when last < first) with
    each edit's new lines, from the bottom up: each edit leaves the lines
    above it in place."""
    for first, last, new in sorted(edits, key=lambda e: e[:2],
                                   reverse=True):
        lines[first - 1:last] = new


def _retransform(edited, plain=False):
    """(path of the output, its text): `edited` (a version of the original
    script) transformed with the flags of the first transform; `plain`:
    without --vaccinate (the code keeps its shape, its draws and layers
    are keyed as in the vaccinated script: stream keys do not depend on
    vaccination)."""
    path = vaccine.SOURCE["path"]
    command = vaccine.SOURCE["retransform"]
    if plain:
        command = [a for a in command if a != "--vaccinate"]
    directory = os.path.dirname(path)
    fd, script = tempfile.mkstemp(prefix=".detc-surgery-", suffix=".py",
                                  dir=directory)
    out = script[:-3] + ".out.py"
    try:
        with os.fdopen(fd, "w") as f:
            f.write(edited)
        binary = os.environ.get("DETC") or command[0]
        args = [binary] + [script if a == "{script}" else out
                           if a == "{out}" else a for a in command[1:]]
        try:
            r = subprocess.run(args, capture_output=True, text=True)
        except OSError as e:
            raise SurgeryError("cannot run detc (%s): %s; set DETC to its "
                               "path" % (binary, e.strerror))
        if r.returncode != 0:
            detail = r.stderr.strip().replace(script, os.path.basename(path))
            raise SurgeryError("detc transform refused the edited script:\n"
                               + detail)
        with open(out) as f:
            return out, f.read()
    finally:
        for p in (script, out):
            if os.path.exists(p):
                os.unlink(p)


# Marks code brought at run time in the script it is transformed in:
# `__detc_code_begin__ = N` ... `__detc_code_end__ = N` around chunk N.
_BEGIN, _END = "__detc_code_begin__", "__detc_code_end__"
_TRANSFORMED = {}  # chunks -> their transformed statements


def _statement_at(tree, line):
    """The first statement of `tree` that starts on `line`, or None."""
    best = None
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.lineno == line and (
                best is None or node.col_offset < best.col_offset):
            best = node
    return best


def _mark(node):
    """(name, N) of a `name = N` statement, else None."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
            isinstance(node.targets[0], ast.Name) and \
            isinstance(node.value, ast.Constant):
        return node.targets[0].id, node.value.value
    return None


def _between_marks(tree, n):
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if not isinstance(body, list):
                continue
            marks = [_mark(s) for s in body]
            if (_BEGIN, n) in marks and (_END, n) in marks:
                return body[marks.index((_BEGIN, n)) + 1:
                            marks.index((_END, n))]
    return None


def transformed_code(chunks):
    """Code brought at run time (an action, a surgery file's statements),
    transformed as the script was. Each chunk is (source text written at
    column 0, first, last): put in the original script in place of its
    lines first..last, before line `first` when last < first (where an
    action's failure was), or at the end when `first` is None. A layer it
    builds and a draw it makes are keyed as the script's own code there
    would be: stream keys come from the function around a call, the
    call's text and how often that text occurs in the function before it
    (docs/codegen.md). A list of statement lists, one per chunk;
    SurgeryError when that cannot be done."""
    key = tuple(chunks)
    if key in _TRANSFORMED:
        return _TRANSFORMED[key]
    text = original_text()
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    edits = []
    for n, (code, first, last) in enumerate(chunks):
        indent = ""
        if first is not None:
            node = _statement_at(tree, first)
            if node is None or lines[first - 1][:node.col_offset].strip():
                raise SurgeryError("no statement starts line %d of %s" % (
                    first, vaccine.SOURCE["path"]))
            indent = lines[first - 1][:node.col_offset]
        else:
            first, last = len(lines) + 1, len(lines)
        # Under `if True:`, the chunk keeps its own indentation.
        body = ["%s = %d\n" % (_BEGIN, n)] + [
            l if l.endswith("\n") else l + "\n"
            for l in code.splitlines(keepends=True)] + [
            "%s = %d\n" % (_END, n)]
        edits.append((first, max(last, first - 1), [indent + "if True:\n"] +
                      [indent + "    " + l if l.strip() else l
                       for l in body]))
    _splice(lines, edits)
    _, out = _retransform("".join(lines), plain=True)
    tree = ast.parse(out)
    found = [_between_marks(tree, n) for n in range(len(chunks))]
    if any(f is None for f in found):
        raise SurgeryError("the transformed script lost the code")
    _TRANSFORMED[key] = found
    return found


class _Renumber(ast.NodeTransformer):
    """Moves the new cells' sites past the running script's."""

    def __init__(self, offset):
        self.offset = offset

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr == "run" and \
                ast.unparse(f.value) == "_detc_rt.vaccine" and \
                len(node.args) >= 2 and isinstance(node.args[1],
                                                   ast.Constant):
            node.args[1] = ast.copy_location(
                ast.Constant(node.args[1].value + self.offset), node.args[1])
        return node


def _sites_of(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "enable" and node.args and \
                ast.unparse(node.func.value) == "_detc_rt.vaccine":
            return ast.literal_eval(node.args[0])
    return {}


def replace_running(name, new_source, crash, module_globals):
    """Redefines the running vaccinated function `name`; returns the index
    the failing cell restarts at when it belongs to `name` (REDO_CALL: the
    new code has no place for it, the caller's statement calls `name`
    again), else None."""
    old_fn = module_globals.get(name)
    if not isinstance(old_fn, types.FunctionType):
        raise SurgeryError("'%s' is not a function of the script" % name)
    out_path, text = _transform(name, new_source)
    tree = ast.parse(text)
    offset = (max(vaccine.SITES, default=0) // 1000 + 1) * 1000
    sites = {k + offset: v for k, v in _sites_of(tree).items()}
    fdefs = [n for n in tree.body if isinstance(n, ast.FunctionDef)
             and n.name == name]
    if len(fdefs) != 1:
        raise SurgeryError("the edited script has no top-level '%s'" % name)
    fdef = _Renumber(offset).visit(fdefs[0])
    namespace = {}
    display = "%s (surgery)" % crash.file
    exec(compile(ast.Module(body=[fdef], type_ignores=[]), display, "exec"),
         module_globals, namespace)
    new_fn = namespace[name]
    pairs = {}
    _pair(old_fn.__code__, new_fn.__code__, pairs)
    restart = None
    failing = crash.cell.__code__
    if crash.function == name:
        path = _find(old_fn.__code__, failing)
        unpaired = failing not in pairs or path is None or \
            pairs[failing][1] != path
        # A barrier outside the function (a vaccinated caller's, or a
        # loop's at the module's top level) can call it again.
        callers = vaccine.barriers_outside(name)
        if unpaired and callers:
            # The function's new shape has no place for the failing
            # statement: abandon this call; the caller's statement calls
            # the new function again.
            restart = REDO_CALL
        elif unpaired:
            raise SurgeryError(
                "the edit changes the loop, if, with or try bodies around "
                "the failing statement (%s:%d), so it cannot continue "
                "there; restart the function instead" % (
                    vaccine.SCRIPT[0], crash.line))
        else:
            import linecache
            new_lines = text.splitlines()
            old_lines = linecache.getlines(crash.file)
            new_cell = pairs[failing][0]
            restart = min(crash.k, _first_change(
                old_lines, failing, new_lines, new_cell))
    # The new code's lines come from the transformed text, not a file.
    import linecache
    linecache.cache[display] = (len(text), None, text.splitlines(True),
                                display)
    vaccine.SITES.update(sites)
    for old, (new, _) in pairs.items():
        vaccine.SWAPS[old] = new
    module_globals[name] = new_fn
    return restart

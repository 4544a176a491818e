"""In-situ crash recovery (DAiFU, SPEC §7, docs/vaccinate.md).

`detc transform --vaccinate` splits the entry function and the functions
on the training path into cells: nested functions whose statements are
guarded by a resume index (`if _detc_r <= k:`) and which are called through
`run(cell, site)`, the crash barrier. An exception stops at the innermost
barrier, with every enclosing frame still live (no `finally` or `with`
exit has run); recovery.py decides what to do (a policy, a prompt), and the
barrier calls the cell again from the statement that raised.

Codes a cell returns to the code after its call: None (fell off its end),
BREAK, CONTINUE, or a Ret holding a `return`'s value.
"""
import linecache
import os
import re
import sys

from . import recovery
from ._state import STATE


class _Code:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "detc_runtime.vaccine." + self.name


BREAK = _Code("BREAK")
CONTINUE = _Code("CONTINUE")
# `handled` of a barrier inside a `try` whose handler catches everything.
ALL = _Code("ALL")


class Ret:
    """A `return VALUE` crossing cells."""
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


RET_NONE = Ret(None)

# site -> (function, kind, original line of each guarded statement, whether
# a loop body cell encloses it, indices of its `raise` statements); filled
# by enable() from detc's table.
SITES = {}
# One entry per active barrier: [site, {statement index: the RNG snapshot
# before it}, the first snapshot of this call, the cell, its `handled`].
_marks = []
_GENS = ["torch"]
# Cell code -> the code a surgery replaced it with (surgery.py).
SWAPS = {}
# id(exception) -> (exception, function): a surgery redefined the function
# that raised it; the first barrier outside that function redoes its call.
_redo_calls = {}
# The original script and how it was transformed (for surgery.py).
SOURCE = {"path": None, "sha256": None, "retransform": ()}


SCRIPT = ["script"]


def enable(sites, gens=(), script=None, source=None, source_sha256=None,
           retransform=()):
    """Called once by the transformed script's header: detc's table of
    cells, the library generators the script draws from, the original
    script's name (the lines in SITES are its lines), path and SHA-256, and
    the command that transforms an edited copy the same way."""
    SITES.update(sites)
    if script:
        SCRIPT[0] = script
    SOURCE.update(path=source, sha256=source_sha256,
                  retransform=tuple(retransform))
    for g in gens:
        if g not in _GENS:
            _GENS.append(g)
    _setup_getters()
    recovery.configure(sys.argv)
    if os.environ.get("DETC_VACCINE_STATS"):
        _count_calls(os.environ["DETC_VACCINE_STATS"])


def _count_calls(path):
    """DETC_VACCINE_STATS=FILE (bench/transform_overhead.py --vaccinate):
    counts barrier calls and snapshots, written to FILE at exit."""
    import atexit
    import json
    counts = {"run": 0, "mark": 0}
    plain_run, plain_mark = run, mark

    def counted_run(cell, site, handled=None):
        counts["run"] += 1
        return plain_run(cell, site, handled)

    def counted_mark(k):
        counts["mark"] += 1
        return plain_mark(k)

    globals()["run"], globals()["mark"] = counted_run, counted_mark

    def write():
        from . import output
        output.write_bytes(path, json.dumps(counts).encode(),
                           "vaccine statistics")
    atexit.register(write)


# The generators a snapshot holds besides detc's: (name, get_state), set
# up once by enable() (a snapshot runs before every statement that may
# draw: docs/vaccinate.md measures it).
_getters = []


def _setup_getters():
    del _getters[:]
    for g in _GENS:
        mod = sys.modules.get(g)
        if mod is None and g in ("numpy", "random"):
            mod = __import__(g)
        if mod is None:
            continue
        if g == "torch":
            _getters.append((g, mod.default_generator.get_state))
            if mod.cuda.is_available():
                cuda = mod.cuda
                _getters.append(("cuda", lambda: cuda.get_rng_state_all()
                                 if cuda.is_initialized() else None))
        elif g == "numpy":
            _getters.append((g, mod.random.get_state))
        elif g == "random":
            _getters.append((g, mod.getstate))


def _snapshot():
    # detc's own keyed streams: the sequential streams' offsets and the
    # current batch's and example scope's.
    b, s = STATE.batch, STATE.scope
    states = [("detc", (STATE.sequential.copy(), b,
                        b.offsets.copy() if b is not None else None, s,
                        s.offsets.copy() if s is not None else None))]
    for g, get in _getters:
        states.append((g, get()))
    return states


def _rewind(states):
    for g, s in states:
        if g == "detc":
            sequential, b, b_offsets, scope, s_offsets = s
            STATE.sequential = dict(sequential)
            if b is not None and b is STATE.batch:
                b.offsets = dict(b_offsets)
            if scope is not None and scope is STATE.scope:
                scope.offsets = dict(s_offsets)
        elif g == "torch":
            sys.modules["torch"].default_generator.set_state(s)
        elif g == "cuda":
            if s is not None:
                sys.modules["torch"].cuda.set_rng_state_all(s)
        elif g == "numpy":
            sys.modules["numpy"].random.set_state(s)
        elif g == "random":
            sys.modules["random"].setstate(s)


def mark(k):
    """Before statement k that may draw: the generators' states, so that a
    retry of k draws the same numbers. True (it sits in the guard)."""
    entry = _marks[-1]
    snap = entry[1][k] = _snapshot()
    if entry[2] is None:
        entry[2] = snap
    return True


def _rewind_to(entry, k):
    """Restores the generators as they were before statement k ran: the
    snapshot of the first statement from k on that may draw (none: nothing
    drew since k)."""
    later = [j for j in entry[1] if j >= k]
    if later:
        _rewind(entry[1][min(later)])


def _iteration_start():
    """The RNG snapshot at the start of the innermost loop body cell's
    current iteration (its first snapshot: no statement before it draws),
    or None."""
    for entry in reversed(_marks):
        site = SITES.get(entry[0])
        if site and site[1] == "loop":
            return entry[2]
    return None


_GUARD = re.compile(r"\s*if _detc_r <= (\d+)\b")


def failed_index(exc, cell):
    """Index of the cell's statement that raised: the guard line above the
    line the cell's frame was executing."""
    code = cell.__code__
    lineno = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code is code:
            lineno = tb.tb_lineno
        tb = tb.tb_next
    if lineno is None:
        return 0
    fname = code.co_filename
    def_line = linecache.getline(fname, code.co_firstlineno)
    indent = len(def_line) - len(def_line.lstrip()) + 1
    for n in range(lineno, code.co_firstlineno, -1):
        text = linecache.getline(fname, n)
        if len(text) - len(text.lstrip()) == indent:
            m = _GUARD.match(text)
            if m:
                return int(m.group(1))
    return 0


def raised_here(exc, cell, site, k):
    """Whether statement k of the cell is a `raise` that raised `exc`:
    retrying it would raise again; the barrier of the statement around it
    (or of the call of this function) handles it."""
    info = SITES.get(site)
    if not info or len(info) < 5 or k not in info[4]:
        return False
    tb = exc.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame.f_code is cell.__code__


class _SkipIteration(BaseException):
    """`skip` decided where no loop of the same function encloses the
    failing statement: it goes up to the first barrier inside a loop (a
    vaccinated caller's), which skips that loop's iteration. Not an
    Exception: the script's `except Exception` between them must not take
    it for the failure."""


def _in_loop(site):
    info = SITES.get(site)
    return bool(info) and (info[1] == "loop" or info[3])


def loop_around():
    """Whether a barrier inside a loop is running (this function's or a
    caller's): where `skip` can go."""
    return any(_in_loop(entry[0]) for entry in _marks)


def run(cell, site, handled=None):
    """The crash barrier: calls cell(0); on an exception no enclosing user
    handler catches, recovers and calls cell(k) from the statement k that
    raised (or returns CONTINUE when told to skip the iteration)."""
    entry = [site, {}, None, cell, handled]
    _marks.append(entry)
    resume = 0
    try:
        while True:
            if SWAPS and cell.__code__ in SWAPS:
                cell = _swapped(cell)
            try:
                return cell(resume)
            except _SkipIteration:
                if not _in_loop(site):
                    raise
                start = _iteration_start()
                if start is not None:
                    _rewind(start)
                return CONTINUE
            except Exception as e:
                if handled is not None and (
                        handled is ALL or isinstance(e, handled())):
                    raise
                if recovery.given_up(e):
                    raise
                k = failed_index(e, cell)
                redo = _redo_calls.get(id(e))
                if redo is not None and redo[0] is e:
                    if SITES.get(site, ("",))[0] == redo[1]:
                        raise  # still inside the redefined function
                    del _redo_calls[id(e)]
                    _rewind_to(entry, k)
                    resume = k
                    recovery.resumed(site, k)
                    continue
                if raised_here(e, cell, site, k):
                    raise  # the code around this cell's `raise` failed
                decision = recovery.recover(e, cell, site, k)
                if decision is recovery.GIVE_UP:
                    raise
                if decision == "redo_call":
                    # A surgery redefined this function; the barrier of the
                    # statement that called it calls it again.
                    _redo_calls[id(e)] = (e, SITES[site][0])
                    raise
                if decision is recovery.SKIP and not _in_loop(site):
                    raise _SkipIteration() from e
                if decision is recovery.SKIP:
                    # The abandoned iteration leaves no trace in the random
                    # streams: the next one draws what it would have drawn.
                    start = _iteration_start()
                    if start is not None:
                        _rewind(start)
                    return CONTINUE
                # RETRY, or where a surgery restarts the cell.
                resume = k if decision is recovery.RETRY else decision
                _rewind_to(entry, resume)
                recovery.resumed(site, resume)
    finally:
        _marks.pop()


def fetches(site, k, iterable):
    """The iterable of the `for` that is statement k of cell `site`: a
    fetch that raises (a DataLoader's worker, a dataset's __getitem__) is
    handled by that cell's barrier as the `for` statement's failure, but a
    recovery goes on with the same iterator — the loop keeps its position
    in the epoch instead of starting over with a new one. The failed fetch
    is not made again: the loop goes on with the next one (a DataLoader's
    iterator has moved past the failed batch, whatever the decision)."""
    return _Fetches(site, k, iterable)


class _Fetches:
    """`iterable` is kept for the runtimes that look through a loop's
    wrappers to its loader (replay.batches); the iterator is made when the
    loop starts."""
    __slots__ = ("site", "k", "iterable", "it")

    def __init__(self, site, k, iterable):
        self.site, self.k, self.iterable, self.it = site, k, iterable, None

    def __iter__(self):
        self.it = iter(self.iterable)
        return self

    def __len__(self):
        return len(self.iterable)

    def __next__(self):
        while True:
            try:
                return next(self.it)
            except StopIteration:
                raise
            except Exception as e:
                entry = _marks[-1] if _marks else None
                if entry is None or entry[0] != self.site or \
                        recovery.given_up(e):
                    raise
                handled = entry[4]
                if handled is not None and (
                        handled is ALL or isinstance(e, handled())):
                    raise  # the script's own handler around the loop
                decision = recovery.recover(e, entry[3], self.site, self.k,
                                            fetch=True)
                if decision is recovery.GIVE_UP:
                    raise
                recovery.resumed(self.site, self.k)


# Per invocation of a function (keyed by one of its variables' cells): the
# cells of variables a surgery's new code added.
_new_cells = {}


def _swapped(cell):
    """`cell` with the code a surgery gave it, over the same invocation's
    variables."""
    import types
    code = SWAPS[cell.__code__]
    old = dict(zip(cell.__code__.co_freevars, cell.__closure__ or ()))
    key = id(next(iter(old.values()))) if old else 0
    extra = _new_cells.setdefault(key, {})
    closure = []
    for name in code.co_freevars:
        if name not in old and name not in extra:
            extra[name] = types.CellType()
        closure.append(old.get(name) or extra[name])
    return types.FunctionType(code, cell.__globals__, code.co_name, None,
                              tuple(closure))


def barriers_outside(function):
    """The running barriers that are not `function`'s where a call of it
    can be made again: its vaccinated callers', and those of loops at the
    module's top level (an iteration). Not a top-level block's: calling
    the entry (`main()` under `if __name__ == "__main__":`) again would
    start the whole run over, not continue it."""
    return [entry[0] for entry in _marks
            if SITES.get(entry[0], ("",))[0] != function and
            (SITES[entry[0]][0] != "<module>" or _in_loop(entry[0]))]

"""`--detc-profile FILE`: measured task and checkpoint costs for CheckHint.

A transformed script with checkpoint hints carries two tables from
`detc transform` (in its configure() call): where detc inserted lines (so
that lines of the running script map back to the original's), and, per
hint, what a checkpoint there saves (the names of the values live there
that the loops change, and `gen:X` for generator states).

With --detc-profile, the script runs normally under a line tracer limited
to the script's own frames: the time between two line events of a frame
goes to the statement of the earlier line (so a statement's time includes
the functions it calls), and every statement counts how often it starts
(a line event on it after one elsewhere: the continuation lines of a
statement written over several lines fold into its first line, from the
script's own syntax tree). At the first few arrivals at each hint, the
checkpoint that would be written there is written the way hints.py writes
it, into a temporary directory, and timed; that time is kept out of the
line times. At exit the profile is written atomically as JSON
(docs/checkhint.md):

    {"format": "detc-profile", "version": 1, "script_sha256": hex,
     "wall_seconds": s,
     "lines": {"<original line>": [seconds, events]},
     "hints": {"<original line>": {"checkpoint_seconds": s, "bytes": n,
                                   "arrivals": n}}}

`detc analyze/transform --profile=FILE` reads it.
"""
import ast
import atexit
import json
import os
import sys
import tempfile
import time

from . import holders, values as _values

FORMAT = "detc-profile"
VERSION = 1
MEASURED_ARRIVALS = 3


def _parse_inserted(text):
    """"L:k,L:k" -> [(original line, lines inserted before it)]."""
    pairs = []
    for item in (text or "").split(","):
        if item:
            line, count = item.split(":")
            pairs.append((int(line), int(count)))
    return sorted(pairs)


class LineMap:
    """Lines of the transformed script -> lines of the original."""

    def __init__(self, inserted):
        self.to_original = {}
        self.pairs = _parse_inserted(inserted)

    def original(self, line):
        shift = 0
        for before, count in self.pairs:
            first = before + shift  # first inserted line, in output lines
            if line < first:
                break
            if line < first + count:
                return None  # a line detc inserted
            shift += count
        return line - shift

    def output(self, original):
        shift = sum(count for before, count in self.pairs
                    if before <= original)
        return original + shift


class Profiler:
    def __init__(self, path, script_sha256, filename, line_map, hints):
        self.path = path
        self.sha = script_sha256
        self.filename = filename
        self.map = line_map
        self.first = _statement_lines(filename)
        self.seconds = {}
        self.events = {}
        # Output line of each hint -> (original line, names to save).
        self.hints = {line_map.output(int(k)): (int(k), v)
                      for k, v in (hints or {}).items()}
        self.measured = {}  # original hint line -> [seconds...]
        self.bytes = {}
        self.arrivals = {}
        self.start = time.perf_counter()

    # ---- Tracing ------------------------------------------------------------
    def global_trace(self, frame, event, arg):
        if frame.f_code.co_filename != self.filename:
            return None
        state = [None, 0.0]  # statement (first line) running, its start
        seconds, events, hints = self.seconds, self.events, self.hints
        first = self.first
        clock = time.perf_counter

        def local(frame, event, arg):
            now = clock()
            last = state[0]
            if last is not None:
                seconds[last] = seconds.get(last, 0.0) + (now - state[1])
            if event == "line":
                line = frame.f_lineno
                line = first.get(line, line)
                if line != last:
                    events[line] = events.get(line, 0) + 1
                if line in hints and line != last:
                    now += self.hint_arrival(frame, line)
                state[0], state[1] = line, now
            elif event == "return":
                state[0] = None
            else:
                state[1] = now
            return local

        return local

    def hint_arrival(self, frame, line):
        """Measures the checkpoint at this hint (the first few times);
        returns the time it took, kept out of the line's time."""
        original, names = self.hints[line]
        self.arrivals[original] = self.arrivals.get(original, 0) + 1
        taken = self.measured.setdefault(original, [])
        if len(taken) >= MEASURED_ARRIVALS:
            return 0.0
        # What the training loop pays: the commit's tail (fsyncs) runs on
        # the durability thread, and waiting for it is not counted.
        self.bytes[original], spent = _write_probe(frame, names)
        taken.append(spent)
        return spent

    # ---- Output -------------------------------------------------------------
    def finish(self):
        sys.settrace(None)
        lines = {}
        for line, events in self.events.items():
            original = self.map.original(line)
            if original is None:
                continue
            entry = lines.setdefault(str(original), [0.0, 0])
            entry[0] += self.seconds.get(line, 0.0)
            entry[1] += events
        hints = {}
        for original, taken in self.measured.items():
            taken = sorted(taken)
            hints[str(original)] = {
                "checkpoint_seconds": taken[len(taken) // 2],
                "bytes": self.bytes.get(original, 0),
                "arrivals": self.arrivals.get(original, 0)}
        body = {"format": FORMAT, "version": VERSION,
                "script_sha256": self.sha or "",
                "wall_seconds": time.perf_counter() - self.start,
                "lines": lines, "hints": hints}
        from . import output
        data = (json.dumps(body, indent=1, sort_keys=True) + "\n").encode()
        try:
            output.write_bytes(self.path, data, "profile")
        except OSError as e:
            print("detc-runtime: error: cannot write the profile %s: %s" %
                  (self.path, e), file=sys.stderr)
            sys.stderr.flush()
            holders.release()  # os._exit skips atexit
            os._exit(2)
        print("detc-runtime: profile written to %s" % self.path,
              file=sys.stderr)


def _statement_lines(filename):
    """Continuation line -> first line, for the statements of `filename`
    written over several lines (a compound statement: its header)."""
    try:
        with open(filename, "rb") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError):
        return {}
    first = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt):
            continue
        body = getattr(node, "body", None)
        last = node.end_lineno
        if isinstance(body, list) and body:
            last = body[0].lineno - 1  # the header
        for line in range(node.lineno + 1, last + 1):
            first.setdefault(line, node.lineno)
    return first


def _write_probe(frame, names):
    """Writes what a checkpoint at this hint would save, the way hints.py
    writes it (tensor file, sidecar, renames; fsyncs on the durability
    thread), to a temporary directory; returns (bytes written, seconds the
    write kept the caller)."""
    from . import hints

    def thunk(name):
        if name.startswith("gen:"):
            handle = name[4:]
            if handle in ("torch", "numpy", "random"):
                return lambda: _values.generator_state(handle)
            return lambda: _values.generator_state(_lookup(frame, handle))
        return lambda: _lookup(frame, name)

    with tempfile.TemporaryDirectory(prefix="detc-profile-") as tmp:
        begin = time.perf_counter()
        written = hints.write(0, 0, {name: thunk(name) for name in names},
                              path=os.path.join(tmp, "probe.pt"))
        spent = time.perf_counter() - begin
        # The tail, and the holder it prepared there, before the
        # directory goes.
        holders.release()
        return written, spent


def _lookup(frame, name):
    depth, _, local = name.rpartition(":")
    if depth.isdigit():  # "d:name": a variable of a function up the calls
        from .hints import frame_value
        return frame_value(frame, int(depth), local)
    if name in frame.f_locals:
        return frame.f_locals[name]
    if name in frame.f_globals:
        return frame.f_globals[name]
    raise NameError(name)


PROFILER = None


def _check_writable(path):
    """Refuses, before the run, a profile path the run could not or must
    not write at its end (the write happens in an atexit hook, too late
    to fail): output.py's rule, then a probe of the directory."""
    from . import output
    t = output.check_target(path, "profile", "--detc-profile")
    if t.regular:
        try:
            fd, tmp = output.temporary_beside(t.path, t.mode)
            os.close(fd)
            os.unlink(tmp)
        except OSError as e:
            from .replay import fail
            fail("error: --detc-profile: %s: cannot write there: %s" %
                 (path, e.strerror))


def start(path, script_sha256, inserted, hints):
    """Called by configure() with --detc-profile: traces the caller's file
    from here on."""
    global PROFILER
    _check_writable(os.fspath(path))
    caller = sys._getframe(2)  # the script's configure() call
    PROFILER = Profiler(os.fspath(path), script_sha256,
                        caller.f_code.co_filename, LineMap(inserted), hints)
    atexit.register(PROFILER.finish)
    sys.settrace(PROFILER.global_trace)
    # The module frame is already running: trace it too.
    caller.f_trace = PROFILER.global_trace(caller, "call", None)

"""What a crash barrier does with an exception (docs/vaccinate.md).

A policy file (`--detc-recovery=policy.py`, or DETC_RECOVERY_POLICY) lists
rules; the first rule matching the exception's type, message and place
decides. Without a matching rule, errors known to be transient are retried
with back-off; with a terminal attached (or DETC_RECOVERY=interactive) a
prompt asks; otherwise the barrier gives up and the exception propagates as
it would have without detc. In a data-parallel job a rank with no decision
of its own waits for the fix another rank applied at the same place.

Every recovery is one JSON line in the recovery log.

    # policy.py
    from detc_runtime.recovery import Rule, action, surgery
    RULES = [
        Rule(FileNotFoundError, do=action("os.makedirs(ckpt_dir)")),
        Rule(RuntimeError, match="out of memory",
             do=action("batch = batch[: len(batch) // 2]"), times=2),
        Rule(ValueError, match="NaN loss", where="train_epoch", do="skip"),
        Rule(OSError, do="retry", times=3, backoff=0.1),
    ]
"""
import datetime
import json
import os
import re
import sys
import time

from . import replay as _replay
from .inputs import load_json

GIVE_UP = "give_up"
SKIP = "skip"
RETRY = "retry"


class Rule:
    """`exception`: a class or its name; `match`: a regex searched in
    str(exception); `where`: the vaccinated function's name, optionally
    with `:LINE` (the original script's line of the failing statement);
    `do`: "retry", "skip", "give_up", action(...), surgery(...), or a list
    of these; `times`: how often the rule may fire at one statement;
    `backoff`: seconds before the first retry, doubled each time."""

    def __init__(self, exception=Exception, match=None, where=None,
                 do=RETRY, times=1, backoff=0.0):
        # Checked here, when the policy loads before training: a rule that
        # only failed at the fault would lose the run it was to save.
        classes = exception if isinstance(exception, tuple) else (exception,)
        if not classes or not all(
                isinstance(c, str) and c or isinstance(c, type) and
                issubclass(c, BaseException) for c in classes):
            raise ValueError("Rule: exception must be an exception class, "
                             "its name or a tuple of classes, not %r"
                             % (exception,))
        if match is not None and not isinstance(match, str):
            raise ValueError("Rule: match must be a regular expression "
                             "string, not %r" % (match,))
        self.exception = exception
        self.match = re.compile(match) if match else None
        if where is not None:
            fn, colon, line = str(where).partition(":")
            if colon and not (line.isdigit() and int(line) > 0):
                raise ValueError("Rule: where=%r: the part after ':' must be "
                                 "a line number" % (where,))
        self.where = where
        self.steps = _steps(do)
        if isinstance(times, bool) or not isinstance(times, int) or \
                times < 0:
            raise ValueError("Rule: times must be a non-negative integer, "
                             "not %r" % (times,))
        self.times = times
        if isinstance(backoff, bool) or not isinstance(
                backoff, (int, float)) or not 0 <= backoff <= 3600:
            raise ValueError("Rule: backoff must be seconds in [0, 3600], "
                             "not %r" % (backoff,))
        self.backoff = float(backoff)

    def matches(self, crash):
        e = crash.exc
        if isinstance(self.exception, str):
            if not any(c.__name__ == self.exception
                       for c in type(e).__mro__):
                return False
        elif not isinstance(e, self.exception):
            return False
        if self.match and not self.match.search(str(e)):
            return False
        if self.where:
            fn, _, line = str(self.where).partition(":")
            if fn and fn != crash.function:
                return False
            if line and int(line) != crash.line:
                return False
        return True


def action(code):
    """Run `code` (or `@file.py`) in the failing function's variables, then
    retry the statement."""
    return ("action", code)


def surgery(path):
    """Replace the functions and methods `path` defines, then retry."""
    return ("surgery", path)


def _steps(do):
    """The steps of `do`, checked: ValueError for anything but retry,
    skip, give_up, action(CODE) or surgery(PATH) (an action's code must
    compile)."""
    if isinstance(do, (str, tuple)):
        do = [do]
    if not isinstance(do, (list, tuple)):
        raise ValueError("do=%r: expected a step or a list of steps" % (do,))
    steps = [tuple(s) if isinstance(s, list) else s for s in do]
    for step in steps:
        if step in (RETRY, SKIP, GIVE_UP):
            continue
        if not (isinstance(step, tuple) and len(step) == 2 and
                step[0] in ("action", "surgery") and
                isinstance(step[1], str) and step[1]):
            raise ValueError("unknown recovery step %r (retry, skip, "
                             "give_up, action(CODE), surgery(PATH))"
                             % (step,))
        if step[0] == "action" and not step[1].startswith("@"):
            try:
                compile(step[1], "<detc action>", "exec")
            except SyntaxError as e:
                raise ValueError("action %r does not compile: %s"
                                 % (step[1], e)) from None
    if steps and steps[-1] not in (RETRY, SKIP, GIVE_UP):
        steps.append(RETRY)
    return steps


# Errors retried without being told: a peer's or a file system's hiccup.
_TRANSIENT = re.compile(
    r"Connection (reset|closed|refused)|timed out|Timeout|temporarily "
    r"unavailable|Broken pipe|NCCL (error|communicator).*(remote|system)")
DEFAULT_RULES = [
    Rule((ConnectionError, TimeoutError, InterruptedError), do=RETRY, times=3,
         backoff=0.05),
    Rule(RuntimeError, match=_TRANSIENT.pattern, do=RETRY, times=3,
         backoff=0.05),
]


class Crash:
    """One exception at a barrier."""

    def __init__(self, exc, cell, site, k):
        from . import vaccine
        self.exc, self.cell, self.site, self.k = exc, cell, site, k
        fn, kind, lines, in_loop = vaccine.SITES.get(
            site, ("?", "block", (0,), False))[:4]
        self.function, self.kind, self.in_loop = fn, kind, in_loop
        self.line = lines[min(k, len(lines) - 1)] if lines else 0
        self.file = cell.__code__.co_filename
        self.started = time.perf_counter()

    def variables(self):
        """The vaccinated function's variables, as the cell sees them."""
        code, closure = self.cell.__code__, self.cell.__closure__ or ()
        out = {}
        for name, c in zip(code.co_freevars, closure):
            try:
                out[name] = c.cell_contents
            except ValueError:  # not bound yet
                pass
        return out

    def describe(self):
        from .vaccine import SCRIPT
        return "%s: %s at %s:%d in %s (statement %d of a %s cell)" % (
            type(self.exc).__name__, self.exc, SCRIPT[0], self.line,
            self.function, self.k, self.kind)


class _Config:
    def __init__(self):
        self.rules = []
        self.mode = ""
        self.log_path = None
        self.log = None
        self.counts = {}
        self.pending = None  # (crash, steps, source) awaiting resumed()
        self.shared = None
        self.rank = 0
        self.world = 1


CONFIG = _Config()
_given_up_ids = {}


def configure(argv):
    """Reads --detc-recovery/--detc-recovery-log (off argv) and the
    environment."""
    from . import env
    CONFIG.mode = env.recovery_mode()
    CONFIG.rank, CONFIG.world = env.rank(), env.world_size()
    policy = _replay._take_flag(argv, "--detc-recovery") or os.environ.get(
        "DETC_RECOVERY_POLICY")
    log = _replay._take_flag(argv, "--detc-recovery-log") or os.environ.get(
        "DETC_RECOVERY_LOG")
    shared = _replay._take_flag(argv, "--detc-recovery-shared") or \
        os.environ.get("DETC_RECOVERY_SHARED")
    stem = os.path.splitext(os.path.basename(argv[0] if argv else "script"))[0]
    rank = ".rank%d" % CONFIG.rank if CONFIG.world > 1 else ""
    CONFIG.log_path = log or "%s%s.recovery.jsonl" % (stem, rank)
    from . import output
    output.check_target(CONFIG.log_path, "recovery log",
                        "--detc-recovery-log")
    # Fixes are shared between ranks only through a file the user named:
    # a fix record holds code, and a file merely found in the working
    # directory (left by an earlier run, or planted) is never run.
    CONFIG.shared = shared or None
    if CONFIG.shared and not output.check_target(
            CONFIG.shared, "shared fix records",
            "--detc-recovery-shared").regular:
        _replay.fail("error: --detc-recovery-shared: %s: must be a regular "
                     "file, which the other ranks read back" % CONFIG.shared)
    if policy:
        output.protect(policy, "the recovery policy")
        CONFIG.rules = load_policy(policy)


def load_policy(path):
    try:
        with open(path) as f:
            source = f.read()
    except OSError as e:
        _replay.fail("error: --detc-recovery: cannot read '%s': %s"
                     % (path, e.strerror))
    namespace = {"__file__": path, "__name__": "detc_policy"}
    try:
        exec(compile(source, path, "exec"), namespace)
    except BaseException as e:  # also sys.exit(): the run must not end so
        _replay.fail("error: --detc-recovery: '%s' raised %s: %s"
                     % (path, type(e).__name__, e))
    rules = namespace.get("RULES")
    if not isinstance(rules, (list, tuple)) or not all(
            isinstance(r, Rule) for r in rules):
        _replay.fail("error: --detc-recovery: '%s' must define RULES, a list "
                     "of detc_runtime.recovery.Rule" % path)
    return list(rules)


def given_up(e):
    return _given_up_ids.get(id(e)) is e


def _give_up(e):
    _given_up_ids[id(e)] = e


# ---- Deciding ---------------------------------------------------------------

def _decide(crash):
    """(steps, source, backoff) for `crash`, or None."""
    for rules, source in ((CONFIG.rules, "policy"),
                          (DEFAULT_RULES, "default")):
        for i, rule in enumerate(rules):
            if not rule.matches(crash):
                continue
            key = (source, i, crash.site, crash.k)
            n = CONFIG.counts.get(key, 0)
            if n >= rule.times:
                continue
            CONFIG.counts[key] = n + 1
            return rule.steps, source, rule.backoff * (2 ** n)
    return None


def recover(exc, cell, site, k, fetch=False):
    """RETRY (the barrier calls the cell from statement k), SKIP, GIVE_UP,
    or the statement index a surgery restarts the cell at. `fetch`: the
    exception came from the iterator of the `for` that is statement k
    (vaccine.fetches): skipping skips that fetch, whatever encloses it."""
    crash = Crash(exc, cell, site, k)
    if CONFIG.mode == "off":
        _give_up(exc)
        return GIVE_UP
    from . import annotate
    annotate.print_crash(crash, sys.stderr)
    decided = _decide(crash)
    steps = source = None
    backoff = 0.0
    if decided:
        steps, source, backoff = decided
    elif CONFIG.mode == "interactive" or (
            CONFIG.mode != "batch" and sys.stdin is not None
            and sys.stdin.isatty() and sys.stderr.isatty()):
        from .prompt import RecoveryPrompt
        steps, source = RecoveryPrompt(crash).ask(), "prompt"
    elif CONFIG.world > 1 and CONFIG.shared:
        steps, source = _wait_for_fix(crash), "another rank"
    if not steps:
        _log(crash, ["give_up"], source or "none", "gave up")
        _give_up(exc)
        return GIVE_UP
    if CONFIG.world > 1 and CONFIG.shared and source in ("policy", "prompt"):
        _share_fix(crash, steps)
    restart = None
    for step in steps:
        if step == GIVE_UP:
            _log(crash, steps, source, "gave up")
            _give_up(exc)
            return GIVE_UP
        if step == SKIP and fetch:
            _log(crash, steps, source, "skipped the failed fetch")
            return SKIP
        if step == SKIP:
            from . import vaccine
            if not crash.in_loop and not vaccine.loop_around():
                print("detc-recovery: cannot skip: no loop encloses the "
                      "failing statement (%s); giving up" % crash.describe(),
                      file=sys.stderr)
                _log(crash, steps, source, "gave up (nothing to skip)")
                _give_up(exc)
                return GIVE_UP
            # In this function's loop, or in the loop of a vaccinated
            # caller (vaccine.run passes the skip up to its barrier).
            _log(crash, steps, source, "skipped the iteration")
            return SKIP
        if step == RETRY:
            if backoff:
                time.sleep(backoff)
                crash.started += backoff  # waiting is not restoring
            CONFIG.pending = (crash, steps, source)
            return RETRY if restart is None else restart
        kind, arg = step
        try:
            if kind == "action":
                run_action(crash, arg)
            elif kind == "surgery":
                restart = run_surgery(crash, arg)
        except KeyboardInterrupt:
            raise
        except BaseException as e:  # the fix itself failed (sys.exit too:
            #                          a fix must not end the run with 0)
            print("detc-recovery: the %s failed: %s: %s; giving up"
                  % (kind, type(e).__name__, e), file=sys.stderr)
            _log(crash, steps, source, "gave up (%s failed: %s)" % (kind, e))
            _give_up(exc)
            return GIVE_UP
    return RETRY if restart is None else restart


def resumed(site, k):
    """The barrier is about to run statement k again."""
    if CONFIG.pending is None:
        return
    crash, steps, source = CONFIG.pending
    CONFIG.pending = None
    _log(crash, steps, source, "resumed",
         resume_ms=(time.perf_counter() - crash.started) * 1e3)


# ---- Fixes ------------------------------------------------------------------

def _source_of(arg):
    if arg.startswith("@"):
        with open(arg[1:]) as f:
            return f.read(), arg[1:]
    return arg, "<detc action>"


def _compiled_action(crash, code, name):
    """The action's code transformed as the script was, as if written
    before the failing statement (surgery.transformed_code): a layer it
    builds or a draw it makes is keyed like the script's own. Code that
    calls nothing can neither draw nor build, and runs as written; so does
    code that cannot be transformed here, and the run says so."""
    import ast
    tree = ast.parse(code, name)
    if not any(isinstance(n, ast.Call) for n in ast.walk(tree)):
        return compile(tree, name, "exec")
    from . import surgery
    try:
        module = ast.Module(body=surgery.transformed_code(
            [(code, crash.line, crash.line - 1)])[0], type_ignores=[])
    except surgery.SurgeryError as e:
        print("detc-recovery: warning: the action runs as written, not "
              "transformed (%s): a layer it builds or a random draw it "
              "makes is not keyed, and the run may not match the fixed "
              "script's" % e, file=sys.stderr)
        return compile(tree, name, "exec")
    return compile(module, "%s (transformed)" % name, "exec")


def run_action(crash, arg):
    """Runs code with the failing function's variables; assignments to them
    (and to module globals) stay."""
    code, name = _source_of(arg)
    module_globals = crash.cell.__globals__
    local = crash.variables()
    namespace = dict(module_globals)
    namespace.update(local)
    namespace["detc_exception"] = crash.exc
    before = dict(namespace)
    exec(_compiled_action(crash, code, name), namespace)
    cells = dict(zip(crash.cell.__code__.co_freevars,
                     crash.cell.__closure__ or ()))
    for key, value in namespace.items():
        if key in ("__builtins__", "detc_exception"):
            continue
        if key in before and before[key] is value:
            continue
        if key in cells:
            cells[key].cell_contents = value
        else:
            module_globals[key] = value


def _surgery_module(code, path):
    """The surgery file compiled, its statements other than definitions
    and imports that call something transformed as the script's own code
    would be (a layer one builds is keyed), where they stand in the
    script: in place of the script's assignment of the same name, else at
    its end. Its definitions are transformed in run_surgery, where they
    replace the script's."""
    import ast
    from . import surgery
    tree = ast.parse(code, path)
    kept = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import,
            ast.ImportFrom)
    chosen = [node for node in tree.body if not isinstance(node, kept) and
              any(isinstance(n, ast.Call) for n in ast.walk(node))]
    if chosen:
        # `X = ...` where the script assigns X once at its top level
        # replaces that assignment (as a redefined function replaces
        # its original); anything else goes at the script's end.
        try:
            script = ast.parse(surgery.original_text())
        except surgery.SurgeryError as e:
            raise ValueError(str(e))
        def assigned_name(node):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                    isinstance(node.targets[0], ast.Name):
                return node.targets[0].id
            return None

        assigned = {}
        for node in script.body:
            if assigned_name(node):
                assigned.setdefault(assigned_name(node), []).append(node)
        chunks = []
        for node in chosen:
            place = (None, None)
            if len(assigned.get(assigned_name(node), ())) == 1:
                old = assigned[assigned_name(node)][0]
                place = (old.lineno, old.end_lineno)
            chunks.append((ast.get_source_segment(code, node),) + place)
        try:
            found = surgery.transformed_code(chunks)
        except surgery.SurgeryError as e:
            raise ValueError(str(e))
        by_node = dict(zip(map(id, chosen), found))
        body = []
        for node in tree.body:
            body += by_node.get(id(node), [node])
        tree = ast.Module(body=body, type_ignores=[])
    return compile(tree, path, "exec")


def run_surgery(crash, arg):
    """Defines the file's functions and classes. A class's methods are
    patched into the existing class (live objects, such as the model, get
    them); a plain function is replaced; a vaccinated one is transformed
    again and swapped in, also while it runs (surgery.py). Returns the
    statement the failing cell restarts at when its function was
    redefined, else None."""
    import ast
    from . import surgery, vaccine
    path = arg[1:] if arg.startswith("@") else arg
    with open(path) as f:
        code = f.read()
    module_globals = crash.cell.__globals__
    namespace = dict(module_globals)
    exec(_surgery_module(code, path), namespace)
    vaccinated = {info[0] for info in vaccine.SITES.values()}
    lines = code.splitlines(keepends=True)
    sources, classes = {}, {}
    for node in ast.parse(code).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            first = min([node.lineno] + [d.lineno
                                         for d in node.decorator_list])
            text = "".join(lines[first - 1:node.end_lineno])
            (sources if isinstance(node, ast.FunctionDef)
             else classes)[node.name] = text
    # Classes and plain functions the file defines, transformed as the
    # script was (a redefined forward's dropout keyed as before);
    # the vaccinated functions are transformed and swapped in below.
    plain = dict(classes, **{k: v for k, v in sources.items()
                             if k not in vaccinated})
    try:
        definitions = surgery.transformed_definitions(plain)
    except surgery.SurgeryError as e:
        raise ValueError(str(e))
    for key, node in definitions.items():
        # Defined over the module's globals (what the script's own
        # functions see), bound in a namespace of its own.
        defined = {}
        exec(compile(ast.Module(body=[node], type_ignores=[]),
                     "%s (surgery)" % path, "exec"), module_globals, defined)
        namespace[key] = defined[key]
    restart = None
    for key, value in namespace.items():
        old = module_globals.get(key)
        if value is old or key.startswith("__"):
            continue
        if isinstance(value, type) and isinstance(old, type):
            for attr, member in vars(value).items():
                if callable(member) or isinstance(member, (staticmethod,
                                                           classmethod,
                                                           property)):
                    setattr(old, attr, member)
        elif key in vaccinated and key in sources:
            try:
                at = surgery.replace_running(key, sources[key], crash,
                                             module_globals)
            except surgery.SurgeryError as e:
                raise ValueError(str(e))
            if at is not None:
                restart = at
        elif callable(value) or key not in module_globals:
            module_globals[key] = value
    return restart


# ---- Data-parallel jobs -----------------------------------------------------

def _fix_key(crash):
    return [crash.site, crash.k, type(crash.exc).__name__]


# When this process started (wall clock): a fix record older than this
# job is not this job's.
_STARTED = time.time()
_SAME_JOB_SLACK = 120.0  # seconds between the starts of one job's ranks


def job_id():
    """What names this job for all its ranks: DETC_RUN_ID, torchrun's run
    id, else the rendezvous address."""
    return (os.environ.get("DETC_RUN_ID") or
            os.environ.get("TORCHELASTIC_RUN_ID") or
            "%s:%s" % (os.environ.get("MASTER_ADDR", ""),
                       os.environ.get("MASTER_PORT", "")))


def _script_sha256():
    from . import REPLAY
    return REPLAY.script_sha256 or ""


def _share_fix(crash, steps):
    from . import output
    record = {"format": "detc-fix", "version": 1, "job": job_id(),
              "script_sha256": _script_sha256(), "rank": CONFIG.rank,
              "time": time.time(), "key": _fix_key(crash),
              "steps": [list(s) if isinstance(s, tuple) else s
                        for s in steps]}
    with output.open_stream(CONFIG.shared, "shared fix records",
                            append=True) as f:
        f.write(json.dumps(record) + "\n")
        f.flush()
        os.fsync(f.fileno())


def _fix_of(record, key):
    """The steps of `record` when it is this job's fix for `key` from
    another rank, else None; "foreign" when it is well formed but another
    job's or another script's."""
    if not isinstance(record, dict) or record.get("format") != "detc-fix":
        return "foreign"
    if record.get("key") != key:
        return None
    t = record.get("time")
    if (record.get("job") != job_id() or
            record.get("script_sha256") != _script_sha256() or
            record.get("rank") == CONFIG.rank or
            not isinstance(t, (int, float)) or
            t < _STARTED - _SAME_JOB_SLACK):
        return "foreign"
    try:
        return _steps(record.get("steps"))
    except ValueError:
        return "foreign"


def _wait_for_fix(crash):
    """The fix another rank of this job applied where this one crashed
    (read from the shared file the user named), or None after
    DETC_RECOVERY_WAIT seconds (300)."""
    from . import env
    deadline = time.monotonic() + env.recovery_wait()
    key = _fix_key(crash)
    print("detc-recovery: rank %d waits for the fix another rank applies "
          "(%s)" % (CONFIG.rank, CONFIG.shared), file=sys.stderr)
    ignored = 0
    while time.monotonic() < deadline:
        ignored = 0
        try:
            with open(CONFIG.shared) as f:
                for line in f:
                    try:
                        record = load_json(line, CONFIG.shared)
                    except ValueError:
                        continue  # a line being written, or junk
                    fix = _fix_of(record, key)
                    if fix == "foreign":
                        ignored += 1
                    elif fix:
                        return fix
        except FileNotFoundError:
            pass
        time.sleep(0.05)
    if ignored:
        print("detc-recovery: ignored %d record(s) in %s that are not this "
              "job's fixes (another run, script or format)"
              % (ignored, CONFIG.shared), file=sys.stderr)
    return None


def _script():
    from .vaccine import SCRIPT
    return SCRIPT[0]


# ---- Log --------------------------------------------------------------------

def _log(crash, steps, source, outcome, resume_ms=None):
    record = {
        "time": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "exception": type(crash.exc).__name__,
        "message": str(crash.exc)[:500],
        "script": _script(), "running": crash.file,
        "function": crash.function, "line": crash.line,
        "site": crash.site, "statement": crash.k,
        "action": [list(s) if isinstance(s, tuple) else s
                   for s in (steps or [])],
        "decided_by": source, "outcome": outcome,
    }
    if resume_ms is not None:
        record["resume_ms"] = round(resume_ms, 3)
    if CONFIG.world > 1:
        record["rank"] = CONFIG.rank
    if CONFIG.log is None:
        from . import output
        CONFIG.log = output.open_stream(CONFIG.log_path, "recovery log",
                                        append=True)
    CONFIG.log.write(json.dumps(record) + "\n")
    CONFIG.log.flush()
    print("detc-recovery: %s -> %s" % (crash.describe(), outcome),
          file=sys.stderr)

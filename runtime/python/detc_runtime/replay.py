"""Checkpoints that resume bit-identically (SPEC §5).

A transformed script's checkpoint call goes through `checkpoint(site,
save, values)`: the user's file is written to a temporary path, then
committed together with a sidecar (sidecar.py) that records where the run
is — which checkpoint site and how many times it has run, each keyed
loader's epoch and position, the seeds, and the values detc must save
because fast-forward cannot re-derive them.

`--detc-resume PATH` (or DETC_RESUME=PATH) starts the script in
fast-forward: the script runs from the top, but the statements detc guards
(forward, backward, optimizer steps, ...) are skipped while `REPLAY.ff` is
set, and keyed loaders hand out placeholder batches without loading data.
When the checkpoint site runs for the recorded time, the restore code detc
put after it loads the user's checkpoint (`user_checkpoint`), the saved
values (`saved_value`), and `resumed()` ends fast-forward: the loader that
was mid-epoch continues for real from the recorded position.

A hint checkpoint (hints.py) given to --detc-resume restarts the run at
its hint instead; `--detc-restart` resumes from the hint checkpoint when
there is one (`--detc-checkpoint PATH` or DETC_CHECKPOINT, default
`<script>.detc-hint.pt`) and starts afresh otherwise.

`--detc-replay PATH --detc-until EPOCH:STEP` resumes the same way and
stops the run once the loader at the checkpoint's site has handed out
batch STEP (counted from 0) of epoch EPOCH and the script asks for the
next one.

A resumed run that ends without reaching its checkpoint (or hint, or
--detc-until position) has trained nothing it was asked to: it exits with
status 3 and names the flags that differ from the checkpointed run's
(recorded in the sidecar), never 0.
"""
import atexit
import collections
import errno
import inspect
import os
import sys
import time

import torch

from . import (checkpoint_files, continuation, fingerprint, hints, holders,
               jit_replicas, moved, ranks, recorded_values, sidecar, trace)
from . import values as _values
from ._state import STATE, exit_stream, fail, warn_once


class Skipped:
    """What a fast-forwarded batch holds: nothing. Statements that would
    read it are skipped by the guards detc inserts."""

    __slots__ = ()

    def __repr__(self):
        return "<detc: skipped batch>"


SKIPPED = Skipped()


class ReplayError(Exception):
    pass


class Replay:
    def __init__(self):
        self.script_sha256 = None  # of the original script (transform time)
        self.ff = False  # fast-forwarding now
        # next() calls on a generator a loop fast-forward skips is taking
        # its batches from, under way now (_shaped)
        self.feeding = 0
        self.checkpoint = None  # path of the checkpoint resumed from
        self.target = None  # its sidecar body
        self.counts = {}  # checkpoint site -> times it ran
        # (site, instance, values) a helper's caller announced for the
        # checkpoint the helper writes next
        self.announced = None
        # the values announced with the target instance in fast-forward
        self.reached_values = None
        # site -> thunks of values its checkpoints save that the function
        # writing them cannot see (outer_values)
        self.outer = {}
        # the frames on the stack where the resume ended fast-forward, whose
        # outer values are restored when their calls return
        # (restoring_outer)
        self.outer_frames = []
        # outer variable -> its value as the resume restored it
        self.outer_restored = {}
        # site -> {outer attribute path: a function setting it}
        self.outer_setters = {}
        # the loops' variables where the announced checkpoint was announced
        # (_loop_position)
        self.announced_position = {}
        # the target has this rank's record in place (ranks.for_this_rank)
        self.rank_adopted = False
        self.pending = None  # site whose restore code runs now
        self.until = None  # (epoch, step) where --detc-replay stops
        self.until_reached = False
        self.loaders = {}  # loader site -> the loader's current iteration
        # loader site -> (epoch fast-forward left it at, the checkpointed
        # run's) for a loader behind between passes (_check_positions),
        # until a restore sets its position
        self.stale_loaders = {}
        # loader site -> how many loaders that keep one iterator for all
        # epochs were made there (data.py)
        self.made = {}
        self.crashed = False  # an exception ended the script
        # The transformed script's globals (configure's caller): in a worker
        # torch.multiprocessing spawns, its functions' globals are not
        # `__main__`'s (the worker runs it as `__mp_main__`, then copies it).
        self.script_globals = None
        # workers torch.multiprocessing started resume in its place
        self.delegated = False
        # time.monotonic() when fast-forward began, and of its last
        # progress line
        self.ff_started = self.ff_said = None
        # logged test -> the run's decisions there, in order ('0'/'1'),
        # and how many of the checkpointed run's fast-forward took
        self.decisions = {}
        self.decided = {}
        # site -> the values its recorded reads gave (encoded), in order
        # (recorded), and how many of the checkpointed run's fast-forward
        # took
        self.recorded = {}
        self.recorded_taken = {}
        # calls the training loop makes of functions also called outside
        # it, under way now (from_nest)
        self.nest_calls = 0
        # {entry: digest} of the checkpoint as user_checkpoint() loaded it:
        # what the restored state must digest alike (_saved_state_digests)
        self.loaded_digests = None
        # id(a parameter of a module the checkpoint saved whole) -> (it,
        # the run's own parameter that took its state): restore_object
        self.restored_params = {}
        # (site, instance, commit serial) of the checkpoint a helper's call
        # announced and wrote, until the call returns (call_end.py)
        self.last_commit = None

    def position(self, site):
        it = self.loaders.get(site)
        if it is None:
            return None
        position = {"epoch": it.epoch, "step": it.step,
                    "position": it.samples}
        # A loader that keeps one iterator for all epochs: where its
        # sampler's passes are (data.py, _PassPosition).
        loader = getattr(it, "loader", None)
        passes = getattr(loader, "_detc_pass", None)
        if passes is not None:
            position["pass"] = passes.state()
            position["made"] = loader._detc_made
        # A custom sampler's: what the epoch's order came from and what
        # the run had taken of it (data.WrappedSampler), which the resume
        # makes again at this position.
        origin = loader._detc_origin(it.epoch) if hasattr(
            loader, "_detc_origin") else None
        if origin is not None:
            position["origin"] = _values.encode(origin, "loader")
        return position


REPLAY = Replay()


def _save_through(save, obj, path, args, kwargs):
    """The script's save to a device or pipe: into memory, then written
    through by output.py, so that a device that fails writes (/dev/full)
    is an OSError naming it, not the serializer aborting the process."""
    import io
    from . import output
    buffer = io.BytesIO()
    try:
        result = save(obj, buffer, *args, **kwargs)
    except (TypeError, AttributeError):  # a save that takes only paths
        return save(obj, path, *args, **kwargs)
    output.write_bytes(path, buffer.getvalue(), "checkpoint")
    return result


def _take_flag(argv, name):
    """Removes `name VALUE` or `name=VALUE` from argv; returns VALUE."""
    for i, arg in enumerate(argv):
        if arg == name:
            if i + 1 >= len(argv):
                fail("error: %s needs a value" % name)
            value = argv[i + 1]
            del argv[i:i + 2]
            return value
        if arg.startswith(name + "="):
            del argv[i]
            return arg[len(name) + 1:]
    return None


# The run-time flags of a transformed script, all in detc's namespace: a
# script's own flags never collide with them (detc transform refuses a
# script that defines one of these).
FLAGS = ("--detc-resume", "--detc-replay", "--detc-until", "--detc-checkpoint",
         "--detc-restart", "--detc-profile", "--detc-recovery",
         "--detc-recovery-log", "--detc-recovery-shared")


def run_flags():
    """The script's own command line (detc's flags are off it by now)."""
    return [str(a) for a in sys.argv[1:]]


def _options(flags):
    """{--name: value} of a command line ('--a 1', '--a=1', '--switch')."""
    options = {}
    i = 0
    while i < len(flags):
        arg = flags[i]
        if arg.startswith("-") and "=" in arg:
            name, value = arg.split("=", 1)
            options[name] = value
        elif arg.startswith("-"):
            value = None
            if i + 1 < len(flags) and not flags[i + 1].startswith("-"):
                value = flags[i + 1]
                i += 1
            options[arg] = value
        i += 1
    return options


def changed_flags(saved):
    """'--epochs 1 (checkpointed run: 2), ...': the flags of this run that
    differ from `saved`, the checkpointed run's."""
    if not isinstance(saved, list):
        return None
    now, then = _options(run_flags()), _options([str(a) for a in saved])
    out = []
    for name in sorted(set(now) | set(then)):
        a, b = now.get(name, "<absent>"), then.get(name, "<absent>")
        if name not in now:
            out.append("%s absent (checkpointed run: %s)" % (name, b))
        elif name not in then:
            out.append("%s %s (absent in the checkpointed run)" % (name, a))
        elif a != b:
            out.append("%s %s (checkpointed run: %s)" % (name, a, b))
    return ", ".join(out)


def _unfinished_message():
    """Why the run ends before what it resumed from, or None."""
    if REPLAY.ff:
        t = REPLAY.target
        where = "site %d, run %d" % (t["site"], t["instance"])
        loaders = [p for p in t["loaders"].values() if p]
        if loaders:
            where += ", epoch %d step %d" % (loaders[0]["epoch"],
                                               loaders[0]["step"])
        return REPLAY.checkpoint, "checkpoint (%s)" % where, t.get("argv")
    if hints.HINT.entering is not None:
        t = hints.HINT.target
        return hints.HINT.checkpoint, "hint checkpoint (hint site %d, " \
            "arrival %d)" % (t["site"], t["instance"]), t.get("argv")
    if REPLAY.until is not None and not REPLAY.until_reached:
        return REPLAY.checkpoint, "--detc-until position epoch %d step %d" \
            % REPLAY.until, (REPLAY.target or {}).get("argv")
    return None


def _at_exit():
    if REPLAY.crashed or STATE.failed:
        return  # the traceback or detc's error and exit status say it all
    if REPLAY.delegated:
        return  # its workers resumed (_hand_to_spawned_workers)
    unfinished = _unfinished_message()
    if unfinished is None:
        return
    path, what, saved = unfinished
    diff = changed_flags(saved)
    print("detc-runtime: %s: error: the run ended without reaching the %s "
          "it resumes from: it trained nothing it was asked to. %s" % (
              path, what,
              ("Flags that differ from the checkpointed run: " + diff)
              if diff else "The script's control flow differs from the "
              "checkpointed run's (same flags)."), file=sys.stderr)
    sys.stdout.flush()
    sys.stderr.flush()
    holders.release()  # os._exit skips atexit; waits for the tail too
    os._exit(3)


def restore_in_progress():
    """(checkpoint, its sidecar) while the restore code after a resume or
    restart point runs (between the load and resumed()), else None."""
    if REPLAY.pending is not None:
        return REPLAY.checkpoint, REPLAY.target
    if hints.HINT.restoring is not None:
        return hints.HINT.checkpoint, hints.HINT.target
    return None


def _refuse_failed_restores():
    """An exception out of the restore code (the script's own
    load_state_dict of a model built with other sizes: `size mismatch`)
    is a checkpoint that does not fit this run: exit 2 with one message
    that names the flags that differ, not a traceback and exit 1."""
    previous = sys.excepthook

    def hook(kind, value, tb):
        at = restore_in_progress()
        if at is None or issubclass(kind, (SystemExit, KeyboardInterrupt)):
            return previous(kind, value, tb)
        path, target = at
        diff = changed_flags((target or {}).get("argv"))
        first = str(value).strip().splitlines()
        err = exit_stream()
        print("detc-runtime: %s: error: the checkpoint does not fit this run: "
              "restoring it raised %s: %s%s" % (
                  path, kind.__name__, first[0] if first else "",
                  " (flags that differ: %s)" % diff if diff else
                  " (same flags: was the script edited?)"), file=err)
        STATE.failed = True
        sys.stdout.flush()
        err.flush()
        holders.release()  # os._exit skips atexit
        os._exit(2)

    sys.excepthook = hook


def _watch_for_crash():
    previous = sys.excepthook

    def hook(*exc):
        REPLAY.crashed = True
        previous(*exc)

    sys.excepthook = hook
    atexit.register(_at_exit)


def start(script_sha256, argv=None):
    """Called by configure(): takes detc's own flags off the command line
    (the script's parser never sees them) and, when resuming, loads and
    checks the sidecar before any of the script runs. `script_sha256` is
    the hash of the code that runs (the transformed script's bytes).
    Returns the checkpoint this run resumes from (None: a fresh run)."""
    argv = sys.argv if argv is None else argv
    REPLAY.script_sha256 = script_sha256
    _refuse_failed_restores()
    resume = _take_flag(argv, "--detc-resume")
    replay = _take_flag(argv, "--detc-replay")
    until = _take_flag(argv, "--detc-until")
    given_hint_path = _take_flag(argv, "--detc-checkpoint")
    shared_hint_path = given_hint_path or os.environ.get(
        "DETC_CHECKPOINT") or hints.default_path(argv[0] if argv else None)
    hint_path = hints.rank_local(shared_hint_path)
    hints.set_path(hint_path)
    restart = "--detc-restart" in argv
    if restart:
        argv.remove("--detc-restart")
        if resume is not None or replay is not None:
            fail("error: --detc-restart resumes from the hint checkpoint; "
                 "it excludes --detc-resume and --detc-replay")
        if hints.job_shape()[0] is not None:
            # Every rank restarts from the newest usable checkpoint among
            # the replicas' (a rank that failed in its step wrote none).
            chosen = jit_replicas.choose(shared_hint_path, script_sha256)
            resume = chosen[0] if chosen else None
        elif os.path.exists(hint_path):
            resume = hint_path
    if resume is not None and replay is not None:
        fail("error: --detc-resume and --detc-replay are exclusive")
    if replay is not None:
        if until is None:
            fail("error: --detc-replay needs --detc-until EPOCH:STEP")
        try:
            epoch, step = (int(x, 10) for x in until.split(":"))
        except ValueError:
            epoch = step = -1
        if epoch < 0 or step < 0:
            fail("error: --detc-until %r: expected EPOCH:STEP, two "
                 "non-negative integers" % until)
        REPLAY.until = (epoch, step)
        resume = replay
    elif until is not None:
        fail("error: --detc-until is for --detc-replay")
    # Taken, not read: processes this one starts (DataLoader workers that
    # run the script again under the spawn start method) are not resumes
    # (each loaded the checkpoint and stopped with exit 3 at its end).
    env_resume = os.environ.pop("DETC_RESUME", None)
    if resume is None:
        resume = env_resume or None
    if resume is None:
        _hand_to_spawned_workers(None, given_hint_path)
        _watch_own_resumes()
        return None
    try:
        body = sidecar.load(resume)
    except sidecar.SidecarError as e:
        fail(str(e))
    if script_sha256 is not None and body["script_sha256"] != script_sha256:
        fail("%s: error: the checkpoint was written by another script (or "
             "another version of it): script hash %s, this script's %s" % (
                 sidecar.sidecar_path(resume), body["script_sha256"][:16],
                 script_sha256[:16]))
    override = body["seeds"].get("override")
    if override != STATE.override:
        fail("%s: error: the checkpointed run used seed override %s, this "
             "run %s (--seed / DETC_SEED must match)" % (
                 sidecar.sidecar_path(resume), override, STATE.override))
    if hints.is_hint_checkpoint(body):
        if REPLAY.until is not None:
            fail("error: --detc-replay needs a checkpoint the script saves; "
                 "%s is a hint checkpoint (use --detc-resume)" % resume)
        if body["hint"].get("jit") is not None:
            _, problem = jit_replicas.check(resume, None, hints.job_shape()[1],
                                            script_sha256)
            if problem:
                fail(problem)
        hints.begin(resume, body)
        _hand_to_spawned_workers(resume, given_hint_path)
        _watch_for_crash()
        return resume
    REPLAY.checkpoint = os.fspath(resume)
    REPLAY.target = body
    REPLAY.ff = True
    # The script may rename its checkpoint again at the instance it resumes
    # at (written as `tmp`, renamed to the name resumed from): moved.py.
    moved.install()
    _hand_to_spawned_workers(
        REPLAY.checkpoint if REPLAY.until is None else None, given_hint_path)
    _watch_for_crash()
    return resume


def _hand_to_spawned_workers(resume, hint_path):
    """A script that trains in workers torch.multiprocessing starts
    (ImageNet's and SimSiam's `mp.spawn(main_worker, ...)`): detc's flags
    are taken off the parent's command line, which the workers get, so
    what they say is handed over in the workers' environment. `resume`:
    the workers resume from it (DETC_RESUME), and the parent, which only
    waits for them, does not reach the checkpoint itself; a worker that
    does not reach it stops with exit 3, and spawn raises in the parent.
    (Workers got no resume: they trained from the start, and the parent
    then stopped with exit 3.) `hint_path`: where --detc-checkpoint said
    hint and just-in-time checkpoints go (DETC_CHECKPOINT; workers wrote
    them to the default path)."""
    spawn = sys.modules.get("torch.multiprocessing.spawn")
    if spawn is None or not callable(getattr(spawn, "start_processes", None)):
        return
    handed = {}
    if resume is not None:
        handed["DETC_RESUME"] = os.path.abspath(resume)
    if hint_path is not None:
        handed["DETC_CHECKPOINT"] = os.path.abspath(hint_path)
    if not handed:
        return
    original = spawn.start_processes

    def start_processes(*args, **kwargs):
        REPLAY.delegated |= resume is not None
        before = {k: os.environ.get(k) for k in handed}
        os.environ.update(handed)
        try:
            return original(*args, **kwargs)
        finally:
            for k, v in before.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v

    spawn.start_processes = start_processes
    torch.multiprocessing.start_processes = start_processes


def _watch_own_resumes():
    """A fresh run whose own code loads a checkpoint this script wrote
    before writing one itself — its own auto-resume, `if
    os.path.isfile(path): ckpt = torch.load(path)` (VICReg, ConvNeXt,
    Swin) — goes on from there with detc's generators, streams and loader
    positions started afresh: not the run that wrote it, bit for bit, and
    it said nothing. It says so now (torch.load, wrapped in fresh runs)."""
    original = torch.load
    if getattr(original, "_detc_own_resumes", False):
        return

    def load(f, *args, **kwargs):
        _check_own_resume(f)
        return original(f, *args, **kwargs)

    load._detc_own_resumes = True
    load.__wrapped__ = original
    load.__name__ = getattr(original, "__name__", "load")
    load.__doc__ = getattr(original, "__doc__", None)
    torch.load = load


def _check_own_resume(f):
    """The script's own `torch.load(f)` in a fresh run that has written no
    checkpoint yet: a checkpoint of this script's (its sidecar says so)
    is a resume, which continuation.py continues or says it does not."""
    if REPLAY.checkpoint is not None or any(REPLAY.counts.values()):
        return
    if not isinstance(f, (str, bytes, os.PathLike)):
        # An open file (`with open(path, "rb") as f: torch.load(f)`).
        f = getattr(f, "name", None)
        if not isinstance(f, str):
            return
    try:
        path = os.fsdecode(f)
        side = sidecar.sidecar_path(path)
        if not (os.path.exists(side) or os.path.exists(side + ".tmp")):
            return
        body = sidecar.load(path)
    except (sidecar.SidecarError, OSError, TypeError, ValueError):
        return
    if body.get("script_sha256") != REPLAY.script_sha256 or \
            hints.is_hint_checkpoint(body):
        return
    continuation.own_load(path, body)


def outer_values(site, values, setters=None):
    """The next statement calls, on the way to checkpoint `site`, code that
    cannot see `values`: locals of the calling function (timm's
    `best_metric` in `main`, around the recovery checkpoint written in
    `train_one_epoch`). The site's checkpoints save them too; a resume
    there restores them (`_restore_outer`), and the caller binds its
    variables to them when the call returns (`restoring_outer`).
    `setters` sets an attribute path's value on its object at the resume
    (the run then goes on changing it)."""
    REPLAY.outer.setdefault(site, {}).update(values)
    if setters:
        REPLAY.outer_setters.setdefault(site, {}).update(setters)


def _with_outer(site, thunks):
    outer = REPLAY.outer.get(site)
    return {**outer, **(thunks or {})} if outer else thunks


def restoring_outer(site):
    """True once, in a frame that was on the stack when the resume at
    checkpoint `site` ended fast-forward, after its call on the way there
    returned: the frame's variables the checkpoint saved (`outer_values`)
    are bound now to what the resume restored (`outer_value`)."""
    if not REPLAY.outer_frames or REPLAY.target is None or \
            REPLAY.target["site"] != site:
        return False
    me = sys._getframe(1)
    for i, frame in enumerate(REPLAY.outer_frames):
        if frame is me:
            # It and the frames it called (innermost first: they have
            # returned) are let go; their locals were held alive since.
            del REPLAY.outer_frames[:i + 1]
            return True
    return False


def outer_value(name):
    """The value of outer variable `name` as the resume restored it
    (_restore_outer): an object of the script's had its saved state loaded
    into it then, before the run went on and changed it."""
    return REPLAY.outer_restored[name]


def _restore_outer(site):
    """At the resume: the callers' values saved with checkpoint `site`,
    restored now, where the run continues. What the run then does to
    them (a model trained in place) is theirs; the callers rebind their
    variables to these values when their calls return."""
    REPLAY.outer_restored = {}
    setters = REPLAY.outer_setters.get(site) or {}
    for name, thunk in (REPLAY.outer.get(site) or {}).items():
        if name not in REPLAY.target["values"]:
            continue
        value = saved_value(name, thunk)
        if name in setters:
            setters[name](value)
        else:
            REPLAY.outer_restored[name] = value


def _save_values(site, thunks, tensors, frame=None):
    """Evaluates each saved value; a variable not bound yet at this point of
    the run (NameError) is left out, and restored as unbound; so is an
    attribute path the object does not have (AttributeError: the analysis
    names the fields of every class the object may be, and timm's task is
    a ClassificationTask or a DistillationTask with its `teacher`). The
    values' tensors are appended to `tensors` (the sidecar's payload)."""
    encoded = {}
    # (One scan of the frame's modules for all the values.)
    parameters = _values.Parameters(frame)
    for name, thunk in (thunks or {}).items():
        try:
            value = thunk()
        except (NameError, AttributeError):
            continue
        try:
            mark = len(tensors)
            with parameters:
                encoded[name] = _values.encode(value, repr(name), tensors)
        except _values.UnsavableValue as e:
            del tensors[mark:]
            warn_once(("value", site, name), "checkpoint site %d: %s; it is "
                      "not saved, and resuming from this checkpoint stops "
                      "with an error" % (site, e))
            encoded[name] = {"unsaved": str(e)}
    return encoded


def checkpoint(site, save, values=None, loops=()):
    """The script's checkpoint call `save(obj, path, ...)` at `site`;
    `values` maps the names of what detc saves beside it to thunks that
    read them; `loops` names the variables of the loops around the call
    (`epoch`): where in the run the checkpoint was written, which a resume
    checks (_loop_position)."""

    def call(obj, f, *args, **kwargs):
        frame = sys._getframe(1)  # the script's, where the save is
        # Into a file the script opened (checkpoint_files.py): in a
        # holder, or in place.
        held = checkpoint_files.held(f)
        in_place = held.real if held is not None else \
            checkpoint_files.in_place_path(f)
        if in_place is None and not isinstance(f, (str, bytes, os.PathLike)):
            # Into a file object (io.BytesIO: a copy kept in memory): not a
            # checkpoint a run resumes from; it runs as written, also in
            # fast-forward, and counts no instance of the site (a helper's
            # announced one is spent). An open file detc cannot tie a
            # sidecar to (opened to append, written past its start): it
            # says so.
            REPLAY.announced = None
            if isinstance(getattr(f, "name", None), str) and not REPLAY.ff:
                warn_once(("file-object", site), "the checkpoint at site %d "
                          "is written to an open file (%s); detc writes no "
                          "sidecar for it, so a run cannot resume from it "
                          "(save to the path instead)" %
                          (site, checkpoint_files.shown_name(f)))
            if REPLAY.ff and obj is None:
                # What the transform passes for an object only skipped
                # statements compute: nothing to write into the file.
                return None
            return save(obj, f, *args, **kwargs)
        at, thunks = site, values
        announced = REPLAY.announced is not None
        if announced:
            # Announced where every process of a job counts it (a helper's
            # call, or the `if` only rank 0 passes): a save reads detc's
            # values itself where it has them (the script's own save).
            at, count, announced_thunks = REPLAY.announced
            REPLAY.announced = None
            # (the announcement's hold the callers' outer values already)
            thunks = announced_thunks if thunks is None else \
                _with_outer(at, thunks)
            position = REPLAY.announced_position
        else:
            count = _count(at)
            position = _loop_position(frame, loops)
            thunks = _with_outer(at, thunks)
        if REPLAY.ff:
            _reached(at, count, position)
            return None
        path = in_place if in_place is not None else os.fsdecode(f)
        try:
            if in_place is None:
                sidecar.writable_target(path)
            unwritable = False
        except OSError as e:
            if e.errno not in (errno.ENOENT, errno.ENOTDIR, errno.EISDIR):
                raise
            unwritable = True
        if unwritable:
            # No such directory, or a directory: the script's own save
            # fails too, with the exception its handlers expect (torch's
            # RuntimeError, not detc's OSError), and with its own traceback
            # (called outside the handler, nothing of detc's is chained).
            return save(obj, f, *args, **kwargs)
        # In a job, the other ranks' records (ranks.py): they announced
        # this instance too. An unannounced save may be every rank's (a
        # DDP script saving without a rank test: each rank writes the
        # file, and whichever sidecar lands must hold every rank's
        # record): each publishes its own and takes those the others make
        # at this instance within a short wait. A save of one rank's the
        # transform could not announce leaves the others unrecorded (a
        # resume of theirs stops, naming it).
        if announced:
            job = ranks.gather(at, count)
        elif ranks.world():
            ranks.publish(at, count, lambda: ranks.record(
                frame, _seeds_now(), decisions_made(), thunks))
            job = ranks.gather(at, count, ranks.unannounced_wait_seconds())
        else:
            job = {}
        beyond = _beyond_state_dicts(frame)
        written, tensors = [], []

        def body():  # the sidecar's, once the checkpoint is written
            # The fingerprint of the state the run goes on from: after the
            # save (a resume skips it), taken while the core hashes the
            # checkpoint (sidecar.tied_body).
            fp = fingerprint.capture(frame)
            if fp["mode"] != "off":
                # The state's digests are taken at the resume, of the
                # checkpoint as it loads (_saved_state_digests): the file
                # is the state as saved (its sidecar holds the file's
                # hash), and digesting it here cost the save a few µs per
                # tensor.
                fp["state_from"] = "checkpoint"
            written.append({
                "script_sha256": REPLAY.script_sha256 or "",
                "argv": run_flags(),
                "seeds": _seeds_now(),
                "site": at, "instance": count,
                "loaders": {str(s): REPLAY.position(s)
                            for s in REPLAY.loaders},
                "values": _save_values(at, thunks, tensors, frame),
                "tensors": tensors,
                # Arrivals at the CheckHint hint: a resumed run keeps its
                # period.
                "hint_arrivals": {str(k): int(v)
                                  for k, v in hints.HINT.arrivals.items()},
                **({"decisions": decisions_made()}
                   if REPLAY.decisions else {}),
                **({"recorded": {str(k): list(v) for k, v in
                                 REPLAY.recorded.items()}}
                   if REPLAY.recorded else {}),
                "fingerprint": fp,
                # The name it is written under: a script that renames it
                # next does so again where the resume continues (moved.py).
                "written_as": os.path.basename(path),
                **({"position": position} if position else {}),
                # Objects beyond tensors and plain data (a whole module):
                # loading needs weights_only=False on torch >= 2.6.
                "pickled": not _plain_state(obj),
                **({"beyond": beyond} if beyond else {}), **job})
            return written[0]

        if held is not None:
            result = save(obj, f, *args, **kwargs)
            done = result, checkpoint_files.commit(held, body)
        elif in_place is not None:
            done = sidecar.save_in_place(
                f, lambda: save(obj, f, *args, **kwargs), body)
        else:
            done = sidecar.save_with_sidecar(
                path, lambda tmp: save(obj, tmp, *args, **kwargs), body)
        if done is not None and announced:
            REPLAY.last_commit = (at, count, moved.last_serial())
        if done is not None:
            # The next passes over its loaders record where the run goes
            # on: a script's own resume from it continues there. Not in a
            # job (each rank's own position is not in the record).
            continuation.committed(
                None if job or ranks.world() else
                moved.last_serial(), written[0], path)
        if done is None:
            warn_once(("not-a-file", at), "the checkpoint at site %d is "
                      "written to %s, not a regular file; detc writes no "
                      "sidecar for it" % (at, path))
            return _save_through(save, obj, path, args, kwargs)
        return done[0]

    return call


def checkpoint_file(open_, across_saves=False):
    """The script's `open` around a checkpoint written into the file it
    opens (`with checkpoint_file(open)(path, "wb") as f: torch.save(model,
    f)`): checkpoint_files.CheckpointFile; `across_saves`: a file opened
    once for a loop's saves (checkpoint_files.across_saves)."""

    def call(*args, **kwargs):
        if across_saves:
            return checkpoint_files.across_saves(
                open_, lambda: REPLAY.ff, REPLAY.checkpoint, *args, **kwargs)
        return checkpoint_files.CheckpointFile(open_, REPLAY.ff, *args,
                                               **kwargs)

    return call


def _seeds_now():
    return {"override": STATE.override,
            "generators": {str(k): int(v) for k, v in STATE.seeds.items()}}


_PLAIN_SCALARS = (bool, int, float, str, bytes, type(None))


def _plain_state(obj, depth=0):
    """Whether `obj` holds only tensors, containers and plain values (what
    torch.load(weights_only=True) reads). Subclasses are not plain: Swin's
    yacs `CfgNode` is a dict, numpy's float64 a float, and both are
    pickled as their own classes."""
    if depth > 16:
        return False
    if isinstance(obj, torch.Tensor) or type(obj) in _PLAIN_SCALARS:
        return True
    if type(obj) in (dict, collections.OrderedDict):
        return all(_plain_state(k, depth + 1) and _plain_state(v, depth + 1)
                   for k, v in obj.items())
    if type(obj) in (list, tuple):
        return all(_plain_state(v, depth + 1) for v in obj)
    return False


def _count(site):
    count = REPLAY.counts.get(site, 0) + 1
    REPLAY.counts[site] = count
    return count


def _reached(site, count, position):
    """Fast-forward reached instance `count` of checkpoint `site`: at the
    target, the restore code after it runs."""
    target = REPLAY.target
    if target["site"] == site and target["instance"] == count:
        target = _target_of_this_rank()
        _check_positions(target)
        _check_loop_position(target, position)
        REPLAY.pending = site


_POSITION_SCALARS = (int, bool, str, type(None))
_NOT_SET = object()


def _loop_position(frame, names):
    """The values of the loop variables `names` in `frame` that say where a
    run is: ints, bools, strings and None (`epoch`, `step`, a phase's
    name). A batch is not (fast-forward gives placeholders for it), nor a
    float."""
    out = {}
    for name in names:
        v = frame.f_locals.get(name, frame.f_globals.get(name, _NOT_SET))
        if type(v) in _POSITION_SCALARS and (type(v) is not str or
                                             len(v) <= 200):
            out[name] = v
    return out


def _check_loop_position(target, position):
    """Fast-forward counted its way to the checkpoint's instance; the loops
    around it must stand where they stood when it was written. They do not
    when the script took another path: its own resume logic (Swin's
    auto-resume loads the newest checkpoint and starts at its epoch, and
    fast-forward then reached the target instance two epochs late: the run
    ended with exit 0, two epochs untrained), or an input that changed."""
    saved = target.get("position") or {}
    differ = sorted(k for k in saved if position.get(k, _NOT_SET) !=
                    saved[k])
    if differ:
        _took_another_path(
            target,
            ", ".join("%s = %r" % (k, position.get(k, "(unset)"))
                      for k in differ),
            "it was written with " + ", ".join("%s = %r" % (k, saved[k])
                                               for k in differ))


def _took_another_path(target, now, then):
    """Stops the run (exit 3): fast-forward reached the target checkpoint
    with `now` (`epoch = 3`), where the run that wrote it had `then`."""
    fail("%s: error: fast-forward reached the checkpoint (site %d, run %d) "
         "with %s, but %s: the script took another path than the run that "
         "wrote it (its own resume logic, such as an auto-resume that "
         "loaded a checkpoint, or an input that changed); run it without "
         "its own resume to continue bit-identically, or without "
         "--detc-resume: its own resume then continues the run that wrote "
         "the checkpoint, or says why it cannot" % (
             REPLAY.checkpoint, target["site"], target["instance"], now,
             then), code=3)


def check_rederived(saved, entries):
    """After a restore: the entries of the user's checkpoint `saved` that
    fast-forward re-derives instead of loading (`'iter_num': iter_num`),
    `entries` mapping their keys to thunks reading the variables now. An
    int that differs means fast-forward reached the checkpoint elsewhere
    (nanoGPT's `init_from = 'resume'` loads the checkpoint itself and
    starts at its `iter_num`): exit 3 naming it. Other values are not
    compared (an argparse.Namespace with another --out is the resumed
    run's own)."""
    if not isinstance(saved, dict):
        return
    for key, now in entries.items():
        then = saved.get(key)
        if type(then) is not int:
            continue
        value = now()
        if type(value) is int and value != then:
            _took_another_path(REPLAY.target, "%r = %d" % (key, value),
                               "the checkpoint holds %d" % then)


def announce_checkpoint(site, values=None, loops=()):
    """The next statement calls a helper that writes checkpoint `site`
    (`save_checkpoint(state, is_best)`); `values` and `loops` as in
    `checkpoint`. The announcement counts the site's instance, whether or
    not the helper then saves; in fast-forward the call is skipped and this
    is where the target instance is reached."""
    count = _count(site)
    frame = sys._getframe(1)
    position = _loop_position(frame, loops)
    if REPLAY.ff:
        # (the callers' outer values are not restored yet when the resume
        # compares this rank's values with the writer's)
        REPLAY.reached_values = values
        _reached(site, count, position)
        return
    REPLAY.announced_position = position
    values = _with_outer(site, values)
    ranks.publish(site, count, lambda: ranks.record(
        frame, _seeds_now(), decisions_made(), values))
    REPLAY.announced = (site, count, values)


def _target_of_this_rank():
    """The sidecar body as this process resumes from it: in a job, with
    its own rank's record (ranks.py), once its process group is up."""
    if not REPLAY.rank_adopted:
        REPLAY.target = ranks.for_this_rank(REPLAY.target, REPLAY.checkpoint)
        REPLAY.rank_adopted = True
    return REPLAY.target


def _between_passes(it, step):
    """Whether a loader whose last iteration is `it` stands between two
    passes at batch `step` of one: none under way, or at its end."""
    try:
        return step >= len(it)
    except TypeError:  # no length (an iterable dataset)
        return False


def _check_positions(target):
    for s, saved in target["loaders"].items():
        now = REPLAY.position(int(s))
        if now is not None and saved is not None and (
                now["epoch"], now["step"]) != (saved["epoch"], saved["step"]):
            it = REPLAY.loaders.get(int(s))
            # A pass fast-forward loaded for real and left under way, before
            # the checkpoint's (a look at a first batch: `images, labels =
            # next(iter(loader))` before training), is where the
            # checkpointed run left that iteration too.
            looked = getattr(it, "loaded", False) and \
                now["epoch"] < saved["epoch"]
            if (_between_passes(it, now["step"]) or looked) and \
                    _between_passes(it, saved["step"]):
                # Fast-forward skipped whole passes over the loader (a
                # validation after each epoch, whose results the sidecar
                # holds; every pass before a final save): its position
                # matters only if the run iterates it again. The sidecar
                # restores it (KeyedDataLoader.load_state_dict) when the
                # run does; a pass begun over a loader still stale stops
                # the run (data.py).
                REPLAY.stale_loaders[int(s)] = (now["epoch"],
                                                saved["epoch"])
                continue
            fail("%s: error: fast-forward reached the checkpoint at epoch "
                 "%d step %d, but it was written at epoch %d step %d (the "
                 "script's control flow differs from the checkpointed run)"
                 % (REPLAY.checkpoint, now["epoch"], now["step"],
                    saved["epoch"], saved["step"]), code=3)
    seeds = {str(k): int(v) for k, v in STATE.seeds.items()}
    if seeds != target["seeds"]["generators"]:
        fail("%s: error: the script seeded its generators with %s, the "
             "checkpointed run with %s" % (REPLAY.checkpoint, seeds,
                                          target["seeds"]["generators"]))


def restoring(site):
    """True while the restore code after checkpoint `site` must run. (Its
    announcement is spent: a save the rank did not make leaves none for
    the next.)"""
    if REPLAY.announced is not None and REPLAY.announced[0] == site:
        REPLAY.announced = None
    return REPLAY.pending == site


def unrestorable(names, why):
    """A resume from this checkpoint cannot be bit-identical: `names` take
    a value only the run computed after the checkpoint was written (what
    the call writing it returns): exit 3, saying so."""
    fail("%s: error: cannot resume from this checkpoint: %s %s; resume from "
         "a checkpoint written elsewhere" % (REPLAY.checkpoint, names, why),
         code=3)


def user_checkpoint(load=None, *args, **kwargs):
    """The user's checkpoint, read with the script's own load function
    (torch.load when the script names none)."""
    if load is None:
        load = torch.load
        if REPLAY.target.get("pickled") and "weights_only" not in kwargs \
                and _takes_weights_only():
            # This script wrote it (the sidecar ties both), holding objects
            # (a whole module, an argparse.Namespace): torch >= 2.6 loads
            # only tensors by default, torch 1.x loaded such files as is.
            kwargs["weights_only"] = False
    obj = load(REPLAY.checkpoint, *args, **kwargs)
    if load is torch.load and REPLAY.loaded_digests is None and \
            fingerprint.state_from_checkpoint(REPLAY.target):
        # Now, before the restore code reads it (a state dict it loads
        # stays as loaded, but a script's own code may edit the object).
        REPLAY.loaded_digests = fingerprint.state_digests(
            obj, REPLAY.target["fingerprint"].get("mode") == "full")
    return obj


def _saved_state_digests(full):
    """{entry: digest} of the state the checkpoint saved: of the object
    user_checkpoint() loaded, or, when the restore code loaded none, of
    the checkpoint loaded here (on the CPU: a digest is the same on any
    device)."""
    if REPLAY.loaded_digests is None:
        kwargs = {"weights_only": False} if REPLAY.target.get(
            "pickled") and _takes_weights_only() else {}
        REPLAY.loaded_digests = fingerprint.state_digests(torch.load(
            REPLAY.checkpoint, map_location="cpu", **kwargs), full)
    return REPLAY.loaded_digests


def _takes_weights_only():
    try:
        return "weights_only" in inspect.signature(torch.load).parameters
    except (TypeError, ValueError):
        return False


def bound(read):
    """What `read()` gives, or None where the variable it reads is unbound:
    a variable saved whole that only statements fast-forward skips assign
    (`sd = to_state(model); torch.save(sd, path)`), whose restore takes
    the checkpoint's object (restore_object)."""
    try:
        return read()
    except NameError:  # UnboundLocalError too
        return None


def entries_except(state, keys):
    """The entries of the state dict `state` but those under `keys`: the
    ones a model's strict load_state_dict takes where the script stored
    entries of its own into the state dict it saved (Pytorch-UNet's
    `state_dict['mask_values'] = ...`); those are restored apart."""
    return {k: v for k, v in state.items() if k not in keys}


def restore_object(current, loaded):
    """The restore of a checkpoint that saved a whole object
    (`torch.save(model, path)`): a module, optimizer or anything with
    load_state_dict takes the loaded object's state — the script's own
    object stays the one the optimizer and the rest of the script hold —;
    any other value is the loaded one."""
    if current is not None and type(current) is type(loaded) and hasattr(
            current, "load_state_dict") and hasattr(loaded, "state_dict"):
        current.load_state_dict(loaded.state_dict())
        if isinstance(current, torch.nn.Module):
            mine = dict(current.named_parameters())
            for name, p in loaded.named_parameters():
                if name in mine:
                    REPLAY.restored_params[id(p)] = (p, mine[name])
        return current
    if isinstance(loaded, torch.optim.Optimizer):
        return _rehome_optimizer(loaded, current)
    if isinstance(current, torch.nn.Module) and \
            isinstance(loaded, torch.nn.Module):
        # Another kind of module than the run's (a DataParallel wrapper
        # saved, a bare model here): taking the checkpoint's object would
        # leave the optimizer stepping this run's model, which nothing
        # uses any more — other weights, with exit 0.
        fail("the checkpoint holds a whole %s where this run has a %s: "
             "restoring it would leave what holds the run's module (its "
             "optimizer) on a module the run no longer uses; resume in the "
             "configuration that wrote the checkpoint" % (
                 type(loaded).__name__, type(current).__name__), 3)
    return loaded


def _rehome_optimizer(loaded, current):
    """A whole optimizer of another kind than the run's (awd-lstm-lm saves
    `[model, criterion, optimizer]` and switches from SGD to ASGD
    mid-run; fast-forward skipped the switch): the checkpoint's own,
    which steps its unpickled copies of the model's parameters. Those of
    the modules restored before it become the run's own (with the state
    the optimizer keeps for them), as the checkpointed run had it; any
    other parameter is exit 3 (the run's model would train untouched)."""
    mapping = REPLAY.restored_params
    params = [p for group in loaded.param_groups for p in group["params"]]
    stray = [p for p in params if id(p) not in mapping]
    if stray:
        fail("the checkpoint holds a whole %s%s that steps %d parameter(s) "
             "of no module restored before it: restoring it would leave "
             "the run's model untrained; save the model before the "
             "optimizer, or save state_dict()s" % (
                 type(loaded).__name__, "" if current is None else
                 " where this run has a %s" % type(current).__name__,
                 len(stray)), 3)
    for group in loaded.param_groups:
        group["params"] = [mapping[id(p)][1] for p in group["params"]]
    state = collections.defaultdict(dict)
    for p, s in loaded.state.items():
        state[mapping[id(p)][1] if id(p) in mapping else p] = s
    loaded.state = state
    return loaded


def restore_value(read, loaded):
    """The restore of a checkpoint's entry `loaded` into the variable
    `read()` reads (None where unbound): restore_object's — a module,
    optimizer or scheduler the entry holds whole keeps the script's own
    object, which the rest of the run holds, and takes the entry's state;
    any other value is the entry."""
    return restore_object(bound(read), loaded)


def load_unwrapped(obj, state):
    """The restore of a checkpoint entry a library's `get_state_dict(obj)`
    wrote (timm: `unwrap_model(obj).state_dict()`): `state` goes into the
    model `obj` wraps, as timm unwraps it — an EMA's `.ema` (ModelEma) or
    `.module` (ModelEmaV2/V3, DDP), a compiled module's `._orig_mod`. The
    digest check after the restore compares the entry as the script
    computes it again with the checkpoint's."""
    target = obj
    for _ in range(8):
        ema = getattr(target, "ema", None)
        if not isinstance(target, torch.nn.Module) and isinstance(
                ema, torch.nn.Module):
            target = ema
            continue
        inner = getattr(target, "module", None)
        if not isinstance(inner, torch.nn.Module):
            inner = getattr(target, "_orig_mod", None)
        if isinstance(inner, torch.nn.Module):
            target = inner
            continue
        break
    target.load_state_dict(state)


def has_value(name):
    """Whether the sidecar holds `name` (it was bound when saved)."""
    return name in REPLAY.target["values"]


def _script_frame():
    """The innermost frame of code outside this package."""
    frame = sys._getframe(1)
    here = os.path.dirname(os.path.abspath(__file__))
    while frame is not None and os.path.dirname(
            os.path.abspath(frame.f_code.co_filename)) == here:
        frame = frame.f_back
    return frame


def saved_value(name, current=None):
    """The value saved under `name`. `current` returns the script's own
    object (or raises NameError when it is unbound): a saved state_dict is
    loaded into it."""
    encoded = REPLAY.target["values"].get(name)
    if encoded is None:
        fail("%s: error: the sidecar has no saved value %r" %
             (REPLAY.checkpoint, name))
    if "unsaved" in encoded:
        fail("%s: error: cannot resume: %s when the checkpoint was written" %
             (REPLAY.checkpoint, encoded["unsaved"]))

    def now():
        try:
            return current() if current is not None else None
        except NameError:
            return None

    try:
        with _values.Parameters(_script_frame()):
            saved = _values.decode(encoded, now,
                                   REPLAY.target.get("tensors"))
    except _values.UnsavableValue as e:
        fail("%s: error: cannot restore %r: %s" % (REPLAY.checkpoint, name, e))
    except (KeyError, IndexError, TypeError, ValueError, RuntimeError) as e:
        fail("%s: error: the sidecar's value %r is malformed (%s)" %
             (REPLAY.checkpoint, name, e))
    # Only with other flags: with the same ones a tensor the setup built
    # may have grown since (an accumulator), and the saved one is right.
    why = _values.tensor_mismatch(saved, now())
    diff = why and changed_flags(REPLAY.target.get("argv"))
    if diff:
        fail("%s: error: the checkpoint does not fit this run: %r is %s "
             "(flags that differ: %s)" % (REPLAY.checkpoint, name, why, diff))
    return saved


def _beyond_state_dicts(frame):
    """{variable: encoded} of the objects bound to the variables of
    `frame`'s function and module whose state_dict() leaves state out
    (values.state_beyond: an optimizer subclass of the script's, SAM's
    base optimizer and its momentum), with a digest of it. A checkpoint
    saving `optimizer.state_dict()` does not hold that state; the sidecar
    does, and resumed() sets it back after the script's own restore."""
    found = {}
    if frame is None:
        return found
    scopes = [frame.f_locals]
    if frame.f_globals is not frame.f_locals:
        scopes.append(frame.f_globals)
    for variables in scopes:
        for name, value in list(variables.items()):
            if name in found or not _values.own_object(value):
                continue
            try:
                extra = _values.encode_beyond(value, name)
            except _values.UnsavableValue as e:
                found[name] = {"unsaved": str(e)}
                continue
            if extra is not None:
                extra["digest"] = fingerprint.digest(
                    dict(_values.state_beyond(value)))
                found[name] = extra
    return found


def _restore_beyond_state_dicts(frame):
    """At the end of fast-forward, after the script's own restore: sets
    back what _beyond_state_dicts() saved into the same variables' objects
    and checks that it digests as it did (exit 3 naming it otherwise)."""
    saved = REPLAY.target.get("beyond") or {}
    if not isinstance(saved, dict):
        fail("%s: error: the sidecar's \"beyond\" is malformed" %
             REPLAY.checkpoint)
    for name, encoded in saved.items():
        if not isinstance(encoded, dict) or not isinstance(
                encoded.get("beyond", encoded.get("unsaved")), (list, str)):
            fail("%s: error: the sidecar's state of %r is malformed" % (
                REPLAY.checkpoint, name))
        if "unsaved" in encoded:
            fail("%s: error: cannot resume: %r: %s" % (
                REPLAY.checkpoint, name, encoded["unsaved"]), 3)
        if frame is not None and name in frame.f_locals:
            obj = frame.f_locals[name]
        elif frame is not None and name in frame.f_globals:
            obj = frame.f_globals[name]
        else:
            fail("%s: error: cannot resume: %r held state beyond its "
                 "state_dict() when the checkpoint was written, and is not "
                 "bound where the run resumes" % (REPLAY.checkpoint, name),
                 3)
        try:
            _values.restore_beyond(obj, encoded)
        except _values.UnsavableValue as e:
            fail("%s: error: cannot restore %r: %s" % (REPLAY.checkpoint,
                                                       name, e), 3)
        except (KeyError, TypeError, ValueError, RuntimeError,
                AttributeError) as e:
            fail("%s: error: the sidecar's state of %r is malformed (%s)" %
                 (REPLAY.checkpoint, name, e))
        if fingerprint.mode() != "off" and fingerprint.digest(dict(
                _values.state_beyond(obj))) != encoded.get("digest"):
            fail("%s: error: the restored run is not the checkpointed one — "
                 "refusing to continue: what %r holds beyond its "
                 "state_dict() differs from the checkpointed run's" % (
                     REPLAY.checkpoint, name), 3)


def restore_generator(name, gen):
    """Sets generator `gen` to the state saved under `name`."""
    _values.set_generator_state(gen, saved_value(name))


def resumed(state=None):
    """End of fast-forward: the run continues for real from here. The
    fingerprint the checkpoint recorded is restored (global generators,
    sequential streams) and checked: `state` maps the names of the saved
    entries to thunks reading the restored objects' state; any difference
    stops the run with exit status 3, naming it."""
    _restore_beyond_state_dicts(sys._getframe(1))
    if REPLAY.outer.get(REPLAY.target["site"]):
        _restore_outer(REPLAY.target["site"])
        # The callers' frames bind them as their calls return (not the
        # restore's own frame: its values were in its scope).
        frame, REPLAY.outer_frames = sys._getframe(1).f_back, []
        while frame is not None:
            REPLAY.outer_frames.append(frame)
            frame = frame.f_back
    named_state = {fingerprint.state_name(k): v
                   for k, v in (state or {}).items()}
    fingerprint.settle(REPLAY.target, REPLAY.checkpoint, named_state,
                       sys._getframe(1),
                       more=ranks.value_differences(REPLAY.target,
                                                    REPLAY.reached_values) +
                       fingerprint.changed_after_save(
                           REPLAY.target, REPLAY.checkpoint, named_state),
                       saved_state=_saved_state_digests)
    REPLAY.pending = None
    REPLAY.ff = False
    # The checkpointed run's recorded values, also those of reads
    # fast-forward skipped: the sidecars this run writes log them as the
    # uninterrupted run's did.
    for k, v in (REPLAY.target.get("recorded") or {}).items():
        REPLAY.recorded[int(k)] = list(v)
    arrivals = REPLAY.target.get("hint_arrivals") or {}
    hints.HINT.arrivals.update({int(k): int(v) for k, v in arrivals.items()})
    print("detc-runtime: resumed from %s (site %d, run %d)" % (
        REPLAY.checkpoint, REPLAY.target["site"], REPLAY.target["instance"]),
        file=sys.stderr)


def guard():
    """True when the statement detc guarded must run (not fast-forwarding).
    Always in a DataLoader worker: it fetches real examples for a loop
    that takes real batches in fast-forward (timm's prefetcher), and was
    forked with fast-forward's state (a dataset's `__getitem__`, guarded
    as code only the training loop reaches, handed its transforms a file
    object instead of the image it skipped opening)."""
    return not REPLAY.ff or _in_worker()


def _in_worker():
    return torch.utils.data.get_worker_info() is not None


def from_nest(fn):
    """`fn`, called by the training loop, of a function also called outside
    it (ImageNet's `validate`, DeiT's `evaluate`): in fast-forward, its
    statements detc guards with `nest_guard` are skipped for this call."""
    if not REPLAY.ff:
        return fn

    def call(*args, **kwargs):
        REPLAY.nest_calls += 1
        try:
            return fn(*args, **kwargs)
        finally:
            REPLAY.nest_calls -= 1

    return call


def nest_guard():
    """True when a statement of a function also called outside the
    training loop must run: always, except in fast-forward while the
    training loop's call of it is under way (`from_nest`)."""
    return not (REPLAY.ff and REPLAY.nest_calls) or _in_worker()


def nest_batches(loader, arity=None, source=None):
    """A loop over a keyed loader in a function also called outside the
    training loop: placeholder batches in the training loop's calls in
    fast-forward (`batches`), real ones in the others (`real_batches`)."""
    if REPLAY.ff and REPLAY.nest_calls:
        return batches(loader, arity, source)
    return real_batches(loader)


def fed():
    """True when a statement of a generator's loop around its `yield` must
    run: not while fast-forward skips the loop taking the generator's items
    (DeiT's `metric_logger.log_every(data_loader, ...)`: after its `yield`
    it prints meters the skipped loop body never updated, and the resume
    died dividing by zero). The same generator feeding a loop that runs
    (a validation pass) runs in full."""
    return not (REPLAY.ff and REPLAY.feeding)


def decide(test, value):
    """The run's decision at logged test `test`: an `if` on the way to a
    checkpoint that only the training decides (pytorch-cifar's `if acc >
    best_acc:` around its save), which fast-forward cannot evaluate. Logged
    for the sidecars of the checkpoints that follow."""
    value = bool(value)
    REPLAY.decisions.setdefault(test, []).append("1" if value else "0")
    return value


def decision(test):
    """Fast-forward's decision at logged test `test`: the checkpointed
    run's, in the order it took them."""
    target = _target_of_this_rank() if REPLAY.target else {}
    logged = target.get("decisions", {}).get(str(test), "")
    taken = REPLAY.decided.get(test, 0)
    if taken >= len(logged):
        fail("%s: error: fast-forward reached the test logged as %d for the "
             "%d%s time, but the checkpointed run decided it %d time(s) "
             "before writing it (the script's control flow differs from "
             "the checkpointed run)" % (REPLAY.checkpoint, test, taken + 1,
                                        _ordinal(taken + 1), len(logged)),
             code=3)
    REPLAY.decided[test] = taken + 1
    REPLAY.decisions.setdefault(test, []).append(logged[taken])
    return logged[taken] == "1"


def recorded(site, read):
    """`read` at call site `site`: a function whose value differs from run
    to run (the clock: `datetime.now`), read in code fast-forward runs
    (recorded_values.py). Its values are logged for the sidecars of the
    checkpoints that follow; fast-forward gives the checkpointed run's, in
    order, so the resumed run names its folders and checkpoints as that
    run did. A value the log cannot hold is read anew."""

    def call(*args, **kwargs):
        # (The sidecar's writer's values, in a job too: setup code reads
        # the clock before its process group says which rank it is.) A
        # restart from a hint or JIT checkpoint heading for its hint reads
        # that checkpoint's.
        target = REPLAY.target if REPLAY.ff else \
            hints.HINT.target if hints.HINT.entering is not None else None
        if target:
            logged = (target.get("recorded") or {}).get(str(site), [])
            taken = REPLAY.recorded_taken.get(site, 0)
            if taken < len(logged):
                REPLAY.recorded_taken[site] = taken + 1
                REPLAY.recorded.setdefault(site, []).append(logged[taken])
                if logged[taken] is not None:
                    return recorded_values.decode(logged[taken])
                return read(*args, **kwargs)
        value = read(*args, **kwargs)
        REPLAY.recorded.setdefault(site, []).append(
            recorded_values.encode(value))
        return value

    return call


def decisions_made():
    """The decisions logged so far, for a sidecar."""
    return {str(k): "".join(v) for k, v in REPLAY.decisions.items()}


def _ordinal(n):
    if n % 100 in (11, 12, 13):
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def batches(loader, arity=None, source=None):
    """A loop's iterable over a keyed loader, with the shape of the loop's
    target (`for x, y in ...`: 2), so that fast-forward's placeholder
    batches unpack like real ones. `source`: a thunk reading the loader,
    where the iterable hides it (`pbar = enumerate(loader)`)."""
    if source is not None:
        try:
            held = source()
        except Exception:  # not bound here: the iterable is searched
            held = None
        if hasattr(held, "_detc_sampler"):
            held._detc_arity = arity
            return loader
    inner = _keyed_loader_in(loader)
    if inner is not None:
        inner._detc_arity = arity
        return loader
    if hasattr(type(loader), "__next__"):
        # A generator passing a keyed loader's batches on (DeiT's
        # `metric_logger.log_every(data_loader, ...)`, `for obj in
        # iterable: yield obj`): its placeholders have the shape of its
        # own loop's target, shaped here like this loop's.
        return _shaped(loader, arity)
    return loader


def _shaped(iterator, arity):
    """The items of a generator feeding a loop fast-forward skips, while
    it runs (`fed` tells the generator's statements around its yield)."""
    while True:
        REPLAY.feeding += 1
        try:
            item = next(iterator)
        except StopIteration:
            return
        finally:
            REPLAY.feeding -= 1
        yield placeholder(arity) if item is SKIPPED else item


def _keyed_loader_in(iterable):
    """The keyed loader `iterable` iterates, or None: through a hint's loop
    level, a traced loop's fetches and the iterator wrappers scripts put
    around a loader (`tqdm(loader)`: they keep it as `.iterable`)."""
    inner = iterable
    for _ in range(8):
        if hasattr(inner, "_detc_sampler") or not hasattr(inner, "iterable"):
            break
        inner = inner.iterable
    return inner if hasattr(inner, "_detc_sampler") else None


_RUNTIME_DIR = os.path.dirname(os.path.abspath(__file__))


def _library_file(name):
    """Code of Python itself or of an installed package (tqdm's wrapper,
    accelerate's loader shard), not of the user's project."""
    return (name.startswith("<") or name.startswith(_RUNTIME_DIR) or
            "/site-packages/" in name or "/dist-packages/" in name or
            name.startswith(os.path.dirname(os.__file__)))


def user_frame(frame):
    """The first frame of the script's own code from `frame` out (past
    tqdm's wrapper, torch's and detc's own)."""
    while frame is not None and _library_file(frame.f_code.co_filename):
        frame = frame.f_back
    return frame


def user_frames(frame):
    """The frames of the script's own code from `frame` out, innermost
    first (the loop's function, its callers up to the module)."""
    frames = []
    while frame is not None:
        if not _library_file(frame.f_code.co_filename):
            frames.append(frame)
        frame = frame.f_back
    return frames


def check_not_stale(site):
    """A pass begins over the keyed loader at `site`: stops the run (exit 3)
    when fast-forward left the loader behind the checkpointed run's and
    nothing restored its position (_check_positions), naming the loop."""
    stale = REPLAY.stale_loaders.get(site)
    if stale is None:
        return
    frame = user_frame(sys._getframe(1))
    where = "%s:%d: " % (frame.f_code.co_filename, frame.f_lineno) \
        if frame is not None else ""
    fail("%s: error: %sa pass over the DataLoader at site %s begins, but "
         "fast-forward left that loader at epoch %d and the checkpoint "
         "restores no position for it (the run had it at epoch %d): its "
         "order and keys would not be the checkpointed run's" % (
             REPLAY.checkpoint, where, site, stale[0], stale[1]), code=3)


def check_loop_edited():
    """Fast-forward starts an epoch of a keyed loader: the loop doing it
    must be code detc edited (the transformed script, or a module copy its
    header installed), whose guards skip what the placeholder batches
    cannot feed. A loop in a module detc did not edit (a training loop in
    an imported `engine.py`) would run its forward on placeholders and
    crash with a TypeError far from the cause: exit 3 naming it instead.
    A generator that yields the loader's batches (`def infinite(loader):
    ... yield batch`) passes them on: its consumer is the loop."""
    from . import overlay
    main = sys.modules.get("__main__")
    main_globals = getattr(main, "__dict__", None)
    frame = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        if _library_file(code.co_filename):
            frame = frame.f_back
            continue
        if frame.f_globals is main_globals or \
                frame.f_globals is REPLAY.script_globals or \
                frame.f_globals.get("__name__") in overlay.APPLIED:
            return
        if code.co_flags & (inspect.CO_GENERATOR | inspect.CO_ASYNC_GENERATOR):
            frame = frame.f_back
            continue
        fail("%s:%d: error: fast-forward reached a loop over a keyed loader "
             "in '%s', code detc did not edit (a module the script "
             "imports): it cannot skip that loop's forward and backward, "
             "so the resume from %s stops here. Move the training loop "
             "into the script, or resume with the script's own mechanism"
             % (code.co_filename, frame.f_lineno, code.co_name,
                REPLAY.checkpoint), code=3)


def real_batches(loader):
    """A loop over a keyed loader that fast-forward runs in full (setup
    code, or a function also called outside the training loop: its body
    is not skipped): its next iteration loads real batches, also in
    fast-forward, where the loader hands out placeholders otherwise."""
    inner = _keyed_loader_in(loader)
    # Not for a generator's loop feeding a loop fast-forward skips: its
    # batches would be loaded for nothing.
    if inner is not None and not (REPLAY.ff and REPLAY.feeding):
        inner._detc_real_next = True
    return loader


def fast_forward_progress(site, epoch, step):
    """A loader skipped batch `step` of `epoch` in fast-forward. A long
    fast-forward says where it is every DETC_PROGRESS_SECONDS (10 s by
    default), and where it goes: no batch is loaded, but the statements
    the Needed analysis keeps still run, and a user waiting without a word
    would take the resume for a hang."""
    from . import env
    now = time.monotonic()
    if REPLAY.ff_started is None:
        REPLAY.ff_started = REPLAY.ff_said = now
    if now - REPLAY.ff_said < env.progress_seconds():
        return
    REPLAY.ff_said = now
    goal = (REPLAY.target or {}).get("loaders", {}).get(str(site))
    print("detc-runtime: fast-forwarding to %s: at epoch %d, step %d%s "
          "(%.0f s; no batch is loaded)" % (
              REPLAY.checkpoint, epoch, step,
              "; the checkpoint is at epoch %d, step %d" % (
                  goal["epoch"], goal["step"]) if goal else "",
              now - REPLAY.ff_started), file=sys.stderr)


def skippable(iterable):
    """A loop fast-forward skips as a whole: no iterations while
    fast-forwarding. Scripts transformed before session 59 call it; detc
    now emits `(it) if _detc_rt.guard() else ()`, which does not evaluate
    the iterable (it may read what skipped statements assign)."""
    return () if REPLAY.ff else iterable


def placeholder(arity):
    return SKIPPED if arity is None else (SKIPPED,) * arity


def check_until(epoch, step):
    """Stops a --detc-replay run once it has passed (epoch, step)."""
    until = REPLAY.until
    if until is not None and not REPLAY.ff and (epoch, step) > until:
        if REPLAY.until_reached:
            print("detc-runtime: replay reached epoch %d step %d; stopping" %
                  until, file=sys.stderr)
        # Otherwise the epoch ended before the step: exit status 3 (_at_exit).
        raise SystemExit(0)


def note_batch(epoch, step):
    """A keyed loader handed out batch `step` of `epoch` for real."""
    if REPLAY.until is not None and (epoch, step) == REPLAY.until:
        REPLAY.until_reached = True

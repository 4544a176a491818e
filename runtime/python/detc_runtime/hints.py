"""Checkpoints at the hint the CheckHint schedule chose (SPEC §6).

`detc transform --overhead=O` picks one `_checkpoint()` hint and a period k
(docs/checkhint.md). The hint call becomes `hint(site, k, values, fn)`:
every k-th time the run reaches it, the values live there that the loops
change (variables, objects with a state_dict, generator states) are
written with the position of every loop around the hint — atomically, as a
torch file of tensors plus a sidecar (sidecar.py) holding the rest as JSON.

The loops around the hint iterate through `loop(site, level, iterable)`
(an `enumerate` gets its start from `start(...)`): they count their
items, and a keyed loader's level also records where in its epoch the
current batch starts. On restart
(`--detc-resume PATH`, or `--detc-restart`), the script runs its setup
again, each of those loops starts at the saved item (a keyed loader at the
saved sample, without loading the batches before it), the statements
before the hint on the way in are skipped (`guard(site)` is false and the
`if`/`while` tests on the path are taken: `entering(site)`), and at the
hint the saved values are restored. From there the run continues as the
uninterrupted one would.
"""
import os
import sys

import torch
from torch.utils.data import DataLoader

from . import fingerprint, sidecar, values as _values
from ._state import STATE, fail, warn_once

DEFAULT_SUFFIX = ".detc-hint.pt"
# Encodings (values.py) of what is the same on every data-parallel replica.
_REPLICATED = ("state_dict", "sampler_epoch", "rewound")


class HintRun:
    def __init__(self):
        self.path = None  # where hint checkpoints are written
        self.arrivals = {}  # site -> times the run reached the hint
        self.levels = {}  # site -> active loop levels, outermost first
        self.entering = None  # site the restarted run is heading for
        self.restoring = None  # site whose restore code runs now
        self.checkpoint = None  # path restarted from
        self.replica = None  # the rank whose checkpoint it is, if not ours
        self.from_replica = []  # values restored from that rank's
        self.target = None  # its sidecar body
        self.tensors = None  # its tensors
        self.pending = []  # saved positions of levels not yet re-entered
        self.written = 0
        # At a restart: the thunks reading the values the hint saves and
        # the hint's frame, for the fingerprint check in resumed().
        self.verify_values = None
        self.verify_frame = None


HINT = HintRun()


_fail = fail  # (the name this module's callers use)


def default_path(argv0):
    stem = os.path.splitext(os.path.basename(argv0 or "script"))[0]
    return stem + DEFAULT_SUFFIX


def job_shape():
    """(rank, world size) of this process: (None, 1) outside a
    data-parallel job (WORLD_SIZE > 1 and RANK set, as torchrun sets them)."""
    from . import env
    world = env.world_size()
    if world <= 1 or os.environ.get("RANK") is None:
        return None, 1
    return str(env.rank()), world


def rank_path(path, rank):
    """Rank `rank`'s file for the shared checkpoint path `path`:
    `NAME.rank<R>.EXT`, or where `{rank}` in the path says."""
    path = os.fspath(path)
    if "{rank}" in path:
        return path.replace("{rank}", str(rank))
    base, ext = os.path.splitext(path)
    return "%s.rank%s%s" % (base, rank, ext)


def rank_local(path):
    """`path` for this process: in a data-parallel job each rank writes and
    restarts from its own file (rank_path)."""
    path = os.fspath(path)
    rank, _ = job_shape()
    if rank is None:
        from . import env
        return path.replace("{rank}", str(env.rank()))
    return rank_path(path, rank)


def set_path(path):
    HINT.path = os.fspath(path)


def restart_loader(site):
    """The saved position of the loader made at `site`, when this run
    restarts from a hint checkpoint whose loops iterate it (a loader that
    keeps one iterator for all epochs is started there when made)."""
    if HINT.target is None or not HINT.pending:
        return None
    for level in HINT.pending:
        loader = level.get("loader")
        if isinstance(loader, dict) and loader.get("site") == site:
            return loader
    return None


def is_hint_checkpoint(body):
    return isinstance(body.get("hint"), dict)


def begin(path, body):
    """Restart from hint checkpoint `path` (its sidecar body checked)."""
    info = body["hint"]
    levels = info.get("levels")
    if not isinstance(levels, list) or not all(
            isinstance(p, dict) and isinstance(p.get("index"), int)
            for p in levels):
        _fail("%s: error: the sidecar has no valid hint loop positions" %
              sidecar.sidecar_path(path))
    try:
        tensors = torch.load(path, weights_only=True)
    except Exception as e:  # torch raises many kinds for a bad file
        _fail("%s: error: cannot read the hint checkpoint's tensors: %s" %
              (path, e))
    if not isinstance(tensors, list):
        _fail("%s: error: not a detc hint checkpoint (no tensor list)" %
              path)
    HINT.checkpoint = os.fspath(path)
    jit = info.get("jit")
    rank = job_shape()[0]
    if isinstance(jit, dict) and rank is not None and \
            str(jit.get("rank")) != str(rank):
        HINT.replica = jit.get("rank")
    HINT.target = body
    HINT.tensors = tensors
    HINT.entering = body["site"]
    HINT.pending = list(levels)
    HINT.arrivals[body["site"]] = body["instance"]


# ---- Loops around the hint --------------------------------------------------

class Level:
    """One loop on the path to the hint, for one run of the loop."""

    def __init__(self, site, level, iterable):
        levels = HINT.levels.setdefault(site, [])
        del levels[level:]
        levels.extend([None] * (level - len(levels)))
        levels.append(self)
        self.site, self.level = site, level
        self.iterable = iterable
        self.index = -1
        self.iterator = None
        # A keyed loader: its generator's state at the epoch's start, and
        # (step, samples) where the current batch starts.
        self.loader_state = None
        self.before = None
        self.pass_before = None  # (a loader that keeps one iterator)

    def keyed(self):
        return hasattr(self.iterable, "_detc_sampler")

    def __len__(self):
        # A progress bar around the level (`tqdm(hints.loop(...))`) asks.
        return len(self.iterable)

    def position(self, tensors):
        saved = {"index": self.index}
        if isinstance(self.iterable, range):
            # Its bounds may come from values the loops change, which the
            # restarted run has not restored when the loop starts.
            r = self.iterable
            saved["range"] = [r.start, r.stop, r.step]
        if self.keyed() and self.before is not None:
            step, samples = self.before
            saved["loader"] = dict({
                "epoch": int(self.iterator.epoch), "step": step,
                "samples": samples,
                "generator": _values.encode(self.loader_state, "loader",
                                            tensors)}, **loader_shape(
                                                self.iterable))
            origin = self.iterable._detc_origin(self.iterator.epoch)
            if origin is not None:
                saved["loader"]["origin"] = _values.encode(origin, "loader",
                                                           tensors)
            passes = getattr(self.iterable, "_detc_pass", None)
            if passes is not None:
                # One iterator for all epochs (data.py): where its
                # sampler's passes are as of this batch, which the restart
                # starts it at when the loader is made.
                saved["loader"].update(
                    site=self.iterable._detc_site,
                    made=self.iterable._detc_made,
                    **{"pass": list(self.pass_before)})
        return saved

    def _begin(self, saved):
        if self.keyed():
            self.loader_state = self.iterable.generator.get_state()
        if saved is None:
            return iter(self.iterable)
        index = saved["index"]
        loader = saved.get("loader")
        if loader is not None:
            if not self.keyed():
                _fail("%s: error: the loop at hint level %d iterates a "
                      "keyed loader in the checkpointed run but not now" %
                      (HINT.checkpoint, self.level), code=3)
            shape = loader_shape(self.iterable)
            for key, now in shape.items():
                then = loader.get(key)
                if then is not None and then != now:
                    from .replay import changed_flags
                    diff = changed_flags(HINT.target.get("argv"))
                    _fail("%s: error: the loader at hint level %d has %s %d "
                          "now, %d in the checkpointed run: its order and "
                          "batches differ, and the run cannot continue where "
                          "it stopped%s" % (
                              HINT.checkpoint, self.level,
                              key.replace("_", " "), now, then,
                              " (flags that differ: %s)" % diff if diff
                              else ""), code=3)
            state = _decode(loader["generator"])
            self.loader_state = state
            self.index = index - 1
            if self.iterable._detc_sampler.self_counting:
                # Its one iterator was started at this batch when the
                # loader was made (restart_loader).
                if "pass" not in loader:
                    _fail("%s: error: the loader at hint level %d keeps one "
                          "iterator for all epochs, and the checkpoint does "
                          "not say where its sampler was (written by an "
                          "earlier detc)" % (HINT.checkpoint, self.level),
                          code=3)
                return self.iterable._detc_continue(
                    loader["epoch"], loader["step"], loader["samples"])
            origin = loader.get("origin")
            try:
                return self.iterable._detc_iter_at(
                    loader["epoch"], loader["step"], loader["samples"],
                    state, origin=None if origin is None else
                    _decode(origin))
            except _values.Mismatch as e:
                _fail("%s: error: %s" % (HINT.checkpoint, e), code=3)
        if "range" in saved:
            if not isinstance(self.iterable, range):
                _fail("%s: error: the loop at hint level %d iterates a range "
                      "in the checkpointed run but not now" %
                      (HINT.checkpoint, self.level), code=3)
            self.iterable = self._restart_range(saved)
        if isinstance(self.iterable, (range, list, tuple)):
            it = iter(self.iterable[index:])
        else:
            it = iter(self.iterable)
            for skipped in range(index):
                if next(it, _END) is _END:
                    _fail("%s: error: the loop at hint level %d has %d items "
                          "now, the checkpointed run was at item %d" %
                          (HINT.checkpoint, self.level, skipped, index),
                          code=3)
        self.index = index - 1
        return it

    def _restart_range(self, saved):
        """The range a restarted loop continues over. The outermost loop's
        bounds come from the setup and the flags alone (nothing of the
        loop nest has run when it starts): new bounds are followed, as a
        replay would (--epochs 2 -> 4 trains 4 epochs), and a range that
        no longer reaches the saved item stops the run with exit status 3.
        An inner loop's bounds may come from values the nest changes and
        the restart restores only at the hint: its saved bounds are used
        for the run the hint is in."""
        then = range(*saved["range"])
        now = self.iterable
        if now == then:
            return then
        if self.level != 0:
            # Same flags: the bounds may come from state the restart
            # restores only at the hint; the saved ones hold. Other flags
            # (--steps 300 -> 200): the new bounds, as for the outermost
            # loop, or exit 3 when they no longer reach the saved item —
            # never the old bounds silently (a run neither identical nor
            # refused).
            from .replay import changed_flags
            if not changed_flags(HINT.target.get("argv")):
                return then
        index = saved["index"]
        position = then[index] if 0 <= index < len(then) else None
        if now.start != then.start or now.step != then.step or (
                position is not None and position not in now):
            from .replay import changed_flags
            diff = changed_flags(HINT.target.get("argv"))
            _fail("%s: error: the %s loop around the hint is now %r; "
                  "the checkpointed run was at item %d of %r, which it no "
                  "longer reaches the same way%s" % (
                      HINT.checkpoint, "outermost" if self.level == 0 else
                      "level-%d" % self.level, now, index, then,
                      (" (flags that differ: %s)" % diff) if diff else ""),
                  code=3)
        print("detc-runtime: the %s loop around the hint is now %r "
              "(the checkpointed run had %r); following the new bounds" %
              ("outermost" if self.level == 0 else "level-%d" % self.level,
               now, then), file=sys.stderr)
        return now

    def __iter__(self):
        saved = None
        if HINT.entering == self.site and HINT.pending:
            if len(HINT.levels[self.site]) - 1 != self.level or (
                    self.level != len(HINT.target["hint"]["levels"]) -
                    len(HINT.pending)):
                _fail("%s: error: the restarted run entered hint loop level "
                      "%d out of order" % (HINT.checkpoint, self.level),
                      code=3)
            saved = HINT.pending.pop(0)
        self.iterator = it = self._begin(saved)
        keyed = self.keyed()
        passes = getattr(self.iterable, "_detc_pass", None)
        while True:
            before = (it.step, it.samples) if keyed else None
            pass_before = passes.state() if passes is not None else None
            try:
                item = next(it)
            except StopIteration:
                return
            self.index += 1
            self.before, self.pass_before = before, pass_before
            yield item


_END = object()


def loop(site, level, iterable):
    """`for ... in iterable` at `level` of the loops around hint `site`."""
    return Level(site, level, iterable)


def start(site, level, first=0):
    """The `start` of `enumerate(loop(site, level, ...), start)`: moved to
    the saved item when the restarted run re-enters that loop."""
    if HINT.entering == site and HINT.pending:
        done = len(HINT.target["hint"]["levels"]) - len(HINT.pending)
        if done == level:
            return first + max(HINT.pending[0]["index"], 0)
    return first


def skippable(site, iterable):
    """A loop before the hint: no iterations while re-entering it.
    Scripts transformed before session 59 call it; detc now emits `(it) if
    _detc_rt.hints.guard(site) else ()`, leaving the iterable
    unevaluated."""
    return () if HINT.entering == site else iterable


def guard(site):
    """False for the statements before the hint while re-entering it."""
    return HINT.entering != site


def entering(site):
    """True while the restarted run heads for hint `site` (an `if` or
    `while` test on the way is taken without evaluating it)."""
    return HINT.entering == site


# ---- The hint ---------------------------------------------------------------

def hint(site, period, values, fn, outer=None):
    """The hint call `fn(...)` at `site`, checkpointing every `period`-th
    arrival; `values` maps names to thunks reading what is saved; `outer`
    maps a depth d to the names saved from the function d calls up (the
    hint's function is called, on the way from the loops, by another):
    they are saved as "d:name"."""

    def call(*args, **kwargs):
        if HINT.entering == site:
            _arrived(site)
            expect(dict(values, **_outer_thunks(sys._getframe(1), outer)),
                   sys._getframe(1))
            return None
        from .replay import REPLAY  # a replay fast-forward writes nothing
        count = HINT.arrivals.get(site, 0) + 1
        HINT.arrivals[site] = count
        result = fn(*args, **kwargs)
        if period and count % period == 0 and not REPLAY.ff:
            write(site, count, dict(values, **_outer_thunks(
                sys._getframe(1), outer)),
                frame=sys._getframe(1))
        return result

    return call


def frame_value(frame, depth, name):
    """Variable `name` of the function `depth` calls up from `frame`."""
    for _ in range(depth):
        frame = frame.f_back
    if frame is None or name not in frame.f_locals:
        raise NameError(name)
    return frame.f_locals[name]


def _outer_thunks(frame, outer):
    thunks = {}
    for depth, names in (outer or {}).items():
        for name in names:
            thunks["%d:%s" % (depth, name)] = (
                lambda d=depth, n=name: frame_value(frame, d, n))
    return thunks


def _arrived(site):
    if HINT.pending:
        _fail("%s: error: the restarted run reached the hint without "
              "entering %d of its loops at their saved positions" %
              (HINT.checkpoint, len(HINT.pending)), code=3)
    seeds = {str(k): int(v) for k, v in STATE.seeds.items()}
    if seeds != HINT.target["seeds"]["generators"]:
        _fail("%s: error: the script seeded its generators with %s, the "
              "checkpointed run with %s" % (HINT.checkpoint, seeds,
                                           HINT.target["seeds"]["generators"]))
    HINT.restoring = site


def expect(values, frame):
    """A restarted run reached the hint: `values` will hold the restored
    state, `frame` is the hint's (resumed() checks the fingerprint)."""
    HINT.verify_values = values
    HINT.verify_frame = frame


def _fingerprint(moment, frame):
    """The fingerprint of a hint's or just-in-time checkpoint's sidecar:
    `moment`'s (a just-in-time checkpoint's minibatch start) or, without
    one, this moment's (with the named generators of `frame`: the hint's
    caller). Taken after the save, while the core hashes the file
    (sidecar.tied_body). The saved values are compared at the restart,
    as the checkpoint holds them (_saved_digests): the file is the state
    as encoded (its sidecar holds the file's hash), and digesting the
    live values here cost a 1.6 MB checkpoint's write 2-3%."""
    moment = moment or fingerprint.Moment(frame)
    fp = moment.encode()
    if moment.mode != "off":
        fp["state_from"] = "checkpoint"
    return fp


def write(site, count, values, path=None, jit=None, moment=None,
          frame=None):
    """Writes the checkpoint of hint `site` at arrival `count` (to `path`
    instead when given: the profiler's probe, which counts nothing);
    returns the bytes written. `jit`: what a just-in-time checkpoint adds
    to the sidecar's "hint" (jit_replicas.py)."""
    from .replay import REPLAY
    probe = path is not None
    path = path or HINT.path or default_path(sys.argv[0])
    tensors = []
    encoded = {}
    for name, thunk in (values or {}).items():
        try:
            value = thunk()
        except NameError:
            continue  # not bound yet: restored as unbound
        if isinstance(value, DataLoader) and not hasattr(value,
                                                          "_detc_sampler"):
            # Not keyed (an iterable dataset, a custom batch sampler): it
            # keeps no state between epochs; a restart iterates it again.
            encoded[name] = {"rewound": True}
            continue
        try:
            encoded[name] = _values.encode(value, repr(name), tensors)
        except _values.UnsavableValue as e:
            warn_once(("hint-value", site, name), "hint site %d: %s; it is "
                      "not saved, and restarting from this checkpoint stops "
                      "with an error" % (site, e))
            encoded[name] = {"unsaved": str(e)}
    levels = [] if probe else [
        lvl.position(tensors) if lvl is not None else {"index": -1}
        for lvl in HINT.levels.get(site, [])]
    from .replay import decisions_made, run_flags

    def save(tmp):
        torch.save(tensors, tmp)
        return os.path.getsize(tmp)

    done = sidecar.save_with_sidecar(path, save, lambda: {
        "script_sha256": REPLAY.script_sha256 or "",
        "argv": run_flags(),
        "seeds": {"override": STATE.override,
                  "generators": {str(k): int(v)
                                 for k, v in STATE.seeds.items()}},
        "site": site, "instance": count, "loaders": {}, "values": encoded,
        "fingerprint": _fingerprint(moment, frame),
        # The user checkpoints' run counts go along: replay sidecars
        # written after a restart must number them as the first run did.
        "hint": dict({"levels": levels, "replay_counts": {
            str(k): int(v) for k, v in REPLAY.counts.items()}},
            **({"jit": jit} if jit else {})),
        # So do the decisions logged at tests fast-forward cannot evaluate
        # (replay.decide): a replay sidecar written after a restart holds
        # the first run's too.
        **({"decisions": decisions_made()} if REPLAY.decisions else {}),
        # And the clock reads setup code made (replay.recorded): a
        # restart names its folders and checkpoints as the first run did.
        **({"recorded": {str(k): list(v) for k, v in REPLAY.recorded.items()}}
           if REPLAY.recorded else {})})
    if done is None:
        _fail("error: the hint checkpoint path %s is not a regular file" %
              path)
    size = done[0] + done[1]
    if not probe:
        HINT.written += 1
    return size


# ---- Restore ----------------------------------------------------------------

def restoring(site):
    """True while the restore code after hint `site` must run."""
    return HINT.restoring == site


def has_value(name):
    return name in HINT.target["values"]


def loader_shape(loader):
    """What fixes a keyed loader's order and batches besides its seed: its
    dataset's length and its batch size (saved with its position; a
    restart with `--examples 4096` on a 2048-example checkpoint continued
    silently with another order)."""
    shape = {}
    try:
        shape["dataset_length"] = int(len(loader.dataset))
    except (TypeError, AttributeError, NotImplementedError):
        pass
    batch = getattr(loader, "batch_size", None)
    if isinstance(batch, int):
        shape["batch_size"] = batch
    return shape


def _decode(encoded, current=None):
    try:
        return _values.decode(encoded, current, HINT.tensors)
    except _values.Mismatch as e:
        from .replay import changed_flags
        diff = changed_flags(HINT.target.get("argv"))
        _fail("%s: error: %s%s" % (HINT.checkpoint, e, " (flags that differ: "
                                   "%s)" % diff if diff else ""), code=3)
    except _values.UnsavableValue as e:
        _fail("%s: error: cannot restore a saved value: %s" %
              (HINT.checkpoint, e))
    except (KeyError, IndexError, TypeError, ValueError, RuntimeError) as e:
        _fail("%s: error: a saved value is malformed (%s)" %
              (HINT.checkpoint, e))


def value(name, current, inplace=False, loop=False):
    """The value saved under `name`. `current` returns the script's object
    now (raises NameError when unbound). An object with a state_dict gets
    the saved state; with `inplace` (a variable the loops never rebind:
    other objects may hold the one the setup made), a tensor, list or dict
    is overwritten in place and stays the same object. With `loop` (a
    loop around the hint bound it again at the saved item), a rank
    restarting from another rank's checkpoint keeps its own (its batch)."""
    encoded = HINT.target["values"][name]
    if "rewound" in encoded or (loop and HINT.replica is not None):
        return current()
    if HINT.replica is not None and not any(k in encoded
                                            for k in _REPLICATED):
        HINT.from_replica.append(name)
    if "unsaved" in encoded:
        _fail("%s: error: cannot restart: %s when the checkpoint was "
              "written" % (HINT.checkpoint, encoded["unsaved"]))

    def now():
        try:
            return current()
        except NameError:
            return None

    saved = _decode(encoded, now)
    cur = now()
    why = _values.tensor_mismatch(saved, cur)
    # Only with other flags: with the same ones a tensor the setup built
    # may have grown since (an accumulator), and the saved one is right.
    from .replay import changed_flags
    diff = why and changed_flags(HINT.target.get("argv"))
    if diff:
        _fail("%s: error: the checkpoint does not fit this run: %r is %s%s"
              % (HINT.checkpoint, name, why, " (flags that differ: %s)" % diff))
    if not inplace:
        return saved
    if isinstance(cur, torch.Tensor) and isinstance(saved, torch.Tensor) and (
            cur.shape == saved.shape and cur.dtype == saved.dtype):
        with torch.no_grad():
            cur.copy_(saved)
        if cur.is_leaf:
            cur.requires_grad_(saved.requires_grad)
            cur.grad = saved.grad
        return cur
    if isinstance(cur, list) and isinstance(saved, list):
        cur[:] = saved
        return cur
    if isinstance(cur, dict) and isinstance(saved, dict):
        cur.clear()
        cur.update(saved)
        return cur
    return saved


def restore_generator(name, gen):
    _values.set_generator_state(gen, value(name, lambda: None))
    if HINT.replica is not None:
        HINT.from_replica.append(name)


def _compared(name):
    """Whether the restart compares saved value `name` with the restored
    one: not a generator state (the fingerprint's own: the global ones as
    of the minibatch start, which a just-in-time checkpoint's live "gen:"
    values read at the failure may not be), nor a value the checkpoint
    does not hold."""
    encoded = HINT.target["values"].get(name)
    return not name.startswith("gen:") and isinstance(encoded, dict) and \
        "rewound" not in encoded and "unsaved" not in encoded


def _comparable(encoded, tensors, like=None, ids=None):
    """`encoded` (values.encode's JSON, its tensors in `tensors`) as
    fingerprint.digest compares it: tensor references replaced by the
    tensors, objects' ids numbered in order of appearance (a restored
    object is another object). `like`: the saved encoding, whose fields
    alone are compared (a module a just-in-time boundary kept is saved
    without its train/eval modes, which the restored module has)."""
    ids = {} if ids is None else ids
    if isinstance(encoded, dict):
        out = {}
        for key in sorted(encoded):  # (the sidecar's JSON sorts them)
            v = encoded[key]
            if isinstance(like, dict) and key not in like:
                continue
            if key == "tensor_ref":
                out[key] = tensors[v] if isinstance(v, int) and \
                    0 <= v < len(tensors) else "no tensor %r" % (v,)
            elif key == "id":
                out[key] = ids.setdefault(repr(v), len(ids))
            else:
                out[key] = _comparable(v, tensors, like.get(key) if isinstance(
                    like, dict) else None, ids)
        return out
    if isinstance(encoded, list):
        return [_comparable(v, tensors, like[i] if isinstance(like, list) and
                            i < len(like) else None, ids)
                for i, v in enumerate(encoded)]
    return encoded


def _saved_digests(full):
    """{name: digest} of the values the checkpoint saved, as it holds
    them (its sidecar's encodings and the tensors the restart loaded)."""
    return {name: fingerprint.digest(_comparable(encoded, HINT.tensors),
                                     full)
            for name, encoded in HINT.target["values"].items()
            if _compared(name)}


def _restored_form(name, thunk):
    """The restored value `name` (read by `thunk`) as _saved_digests
    digests the saved one: encoded again. NameError when unbound."""
    value = thunk()
    # A generator repeating a loader is made again and armed, not started.
    value = _values.armed_at(value) or value
    tensors = []
    try:
        encoded = _values.encode(value, repr(name), tensors)
    except _values.UnsavableValue as e:
        return "cannot be encoded again: %s" % e
    return _comparable(encoded, tensors, HINT.target["values"].get(name))


# Called (with the site) when a restarted run has its state back
# (jit.py keeps the boundary's values then).
RESUME_HOOKS = []


def resumed():
    """The restarted run has its state back: it continues for real."""
    from .replay import REPLAY
    site = HINT.restoring
    for hook in RESUME_HOOKS:
        hook(site)
    state = HINT.verify_values
    if state is not None and "state" not in HINT.target.get(
            "fingerprint", {}):
        # Compared as encoded (an earlier detc's sidecar holds the live
        # values' digests instead: compared as they are).
        state = {name: (lambda name=name, thunk=thunk: _restored_form(
            name, thunk)) for name, thunk in state.items()}
    fingerprint.settle(HINT.target, HINT.checkpoint, state,
                       HINT.verify_frame, named=HINT.replica is None,
                       saved_state=_saved_digests)
    HINT.verify_values = HINT.verify_frame = None
    HINT.restoring = None
    HINT.entering = None
    counts = HINT.target["hint"].get("replay_counts") or {}
    REPLAY.counts.update({int(k): int(v) for k, v in counts.items()})
    # (checked by sidecar.decode: digits to strings of 0 and 1)
    REPLAY.decisions.update({int(k): list(v) for k, v in (
        HINT.target.get("decisions") or {}).items()})
    REPLAY.recorded.update({int(k): list(v) for k, v in (
        HINT.target.get("recorded") or {}).items()})
    print("detc-runtime: resumed from %s (hint site %d, arrival %d)" % (
        HINT.checkpoint, site, HINT.target["instance"]), file=sys.stderr)
    if HINT.from_replica:
        print("detc-runtime: taken from rank %s as they were there: %s "
              "(exact when the script keeps them equal on every rank, as "
              "seeding every rank alike does for generators)" % (
                  HINT.replica, ", ".join(sorted(set(HINT.from_replica)))),
              file=sys.stderr)

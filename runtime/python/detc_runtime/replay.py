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

`--detc-replay PATH --until EPOCH:STEP` resumes the same way and stops the
run once the loader at the checkpoint's site has handed out batch STEP
(counted from 0) of epoch EPOCH and the script asks for the next one.
"""
import base64
import os
import sys

import numpy as np
import torch

from . import sidecar
from ._state import STATE, warn_once


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
        self.checkpoint = None  # path of the checkpoint resumed from
        self.target = None  # its sidecar body
        self.counts = {}  # checkpoint site -> times it ran
        self.pending = None  # site whose restore code runs now
        self.until = None  # (epoch, step) where --detc-replay stops
        self.loaders = {}  # loader site -> the loader's current iteration

    def position(self, site):
        it = self.loaders.get(site)
        if it is None:
            return None
        return {"epoch": it.epoch, "step": it.step, "position": it.samples}


REPLAY = Replay()


def fail(message, code=2):
    print("detc-runtime: " + message, file=sys.stderr)
    raise SystemExit(code)


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


def start(script_sha256, argv=None):
    """Called by configure(): takes detc's own flags off the command line
    (the script's parser never sees them) and, when resuming, loads and
    checks the sidecar before any of the script runs."""
    argv = sys.argv if argv is None else argv
    REPLAY.script_sha256 = script_sha256
    resume = _take_flag(argv, "--detc-resume")
    replay = _take_flag(argv, "--detc-replay")
    until = _take_flag(argv, "--until")
    if resume is not None and replay is not None:
        fail("error: --detc-resume and --detc-replay are exclusive")
    if replay is not None:
        if until is None:
            fail("error: --detc-replay needs --until EPOCH:STEP")
        try:
            epoch, step = (int(x) for x in until.split(":"))
        except ValueError:
            fail("error: --until %r: expected EPOCH:STEP" % until)
        REPLAY.until = (epoch, step)
        resume = replay
    elif until is not None:
        fail("error: --until is for --detc-replay")
    if resume is None:
        resume = os.environ.get("DETC_RESUME") or None
    if resume is None:
        return
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
    REPLAY.checkpoint = os.fspath(resume)
    REPLAY.target = body
    REPLAY.ff = True


def _encode_value(name, value):
    if value is None or isinstance(value, (bool, int, str)):
        return {"py": value}
    if isinstance(value, float):
        return {"float": value.hex()}
    if isinstance(value, torch.Tensor):
        t = value.detach().cpu().contiguous()
        if t.numel() > 256:
            warn_once(("value", name), "%r (%d elements) is too large for "
                      "the sidecar; it is not saved" % (name, t.numel()))
            return None
        array = t.numpy()
        return {"tensor": base64.b64encode(array.tobytes()).decode("ascii"),
                "dtype": str(array.dtype), "shape": list(t.shape),
                "requires_grad": bool(value.requires_grad)}
    warn_once(("value", name), "%r (a %s) cannot be saved in the sidecar" %
              (name, type(value).__name__))
    return None


def _decode_value(encoded):
    if "py" in encoded:
        return encoded["py"]
    if "float" in encoded:
        return float.fromhex(encoded["float"])
    raw = base64.b64decode(encoded["tensor"])
    array = np.frombuffer(raw, dtype=np.dtype(encoded["dtype"]))
    t = torch.from_numpy(array.copy()).reshape(encoded["shape"])
    return t.requires_grad_(encoded["requires_grad"])


def checkpoint(site, save, values=None):
    """The script's checkpoint call `save(obj, path, ...)` at `site`;
    `values()` returns the variables detc saves beside it."""

    def call(obj, f, *args, **kwargs):
        count = REPLAY.counts.get(site, 0) + 1
        REPLAY.counts[site] = count
        if REPLAY.ff:
            target = REPLAY.target
            if target["site"] == site and target["instance"] == count:
                _check_positions(target)
                REPLAY.pending = site
            return None
        if not isinstance(f, (str, bytes, os.PathLike)):
            warn_once(("file-object", site), "the checkpoint at site %d is "
                      "written to a file object; detc writes no sidecar for "
                      "it (resume needs a path)" % site)
            return save(obj, f, *args, **kwargs)
        path = os.fsdecode(f)
        tmp = path + ".detc-tmp"
        result = save(obj, tmp, *args, **kwargs)
        encoded = {}
        for name, value in (values() if values else {}).items():
            e = _encode_value(name, value)
            if e is not None:
                encoded[name] = e
        sidecar.commit(path, tmp, {
            "script_sha256": REPLAY.script_sha256 or "",
            "seeds": {"override": STATE.override,
                      "generators": {str(k): int(v)
                                     for k, v in STATE.seeds.items()}},
            "site": site, "instance": count,
            "loaders": {str(s): REPLAY.position(s) for s in REPLAY.loaders},
            "values": encoded})
        return result

    return call


def _check_positions(target):
    for s, saved in target["loaders"].items():
        now = REPLAY.position(int(s))
        if now is not None and saved is not None and (
                now["epoch"], now["step"]) != (saved["epoch"], saved["step"]):
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
    """True while the restore code after checkpoint `site` must run."""
    return REPLAY.pending == site


def user_checkpoint(load, *args, **kwargs):
    """The user's checkpoint, read with the script's own load function."""
    return load(REPLAY.checkpoint, *args, **kwargs)


def saved_value(name):
    encoded = REPLAY.target["values"].get(name)
    if encoded is None:
        fail("%s: error: the sidecar has no saved value %r" %
             (REPLAY.checkpoint, name))
    return _decode_value(encoded)


def resumed():
    """End of fast-forward: the run continues for real from here."""
    REPLAY.pending = None
    REPLAY.ff = False
    print("detc-runtime: resumed from %s (site %d, run %d)" % (
        REPLAY.checkpoint, REPLAY.target["site"], REPLAY.target["instance"]),
        file=sys.stderr)


def guard():
    """True when the statement detc guarded must run (not fast-forwarding)."""
    return not REPLAY.ff


def batches(loader, arity=None):
    """A loop's iterable over a keyed loader, with the shape of the loop's
    target (`for x, y in ...`: 2), so that fast-forward's placeholder
    batches unpack like real ones."""
    if hasattr(loader, "_detc_sampler"):
        loader._detc_arity = arity
    return loader


def placeholder(arity):
    return SKIPPED if arity is None else (SKIPPED,) * arity


def check_until(epoch, step):
    """Stops a --detc-replay run once it has passed (epoch, step)."""
    until = REPLAY.until
    if until is not None and not REPLAY.ff and (epoch, step) > until:
        print("detc-runtime: replay reached epoch %d step %d; stopping" %
              until, file=sys.stderr)
        raise SystemExit(0)

"""A script's own resume continues the run that wrote its checkpoint.

Most training scripts resume themselves: `if os.path.isfile(path): ckpt =
torch.load(path)` (VICReg, ConvNeXt, Swin), `--resume` (DeiT, MAE, timm),
then the loop from `ckpt["epoch"]`. The script restores its model,
optimizer and epoch; what detc keeps — the global generators, detc's
sequential streams, each keyed loader's epoch and worker-seed generator —
started afresh, so the resumed run drew other numbers than the run that
wrote the checkpoint (the loader shuffled epoch 0's order again), exit 0.

Where the two runs meet is the next pass over the training loader: the
run that wrote the checkpoint goes on from the save (evaluation, logging)
to its next epoch, the resumed run from the script's load to the epoch
the checkpoint names. So, in the writing run, the first time each keyed
loader begins a pass after a commit, detc records what it keeps as of
then, with digests of the state of the modules, optimizers, schedulers
and scalers bound to the variables of the function iterating it, and adds
that record to the checkpoint's sidecar (where the script moved or copied
the checkpoint since, too: moved.names_of). In a fresh run whose own code
loads that checkpoint before writing one (replay._check_own_resume), the
first pass over a keyed loader looks up its record:

  * the script's objects digest as they did there (the script restored
    them all): detc sets what it keeps to the record, checks that it holds
    it (exit 3 naming what does not), and says the run continues;
  * an object differs (the script's resume leaves its scheduler out; a
    fine-tune loads the checkpoint on purpose with a new optimizer), or
    there is no record (the run was stopped before its next pass): detc
    sets nothing and warns that this run does not continue the one that
    wrote the checkpoint bit for bit, naming why.

docs/replay.md, "The script's own resume".
"""
import base64
import os
import sys

import torch

from . import fingerprint, moved, values
from ._state import STATE, fail, warn_once

# The commit whose sidecar the next passes' records go to: (serial, the
# sidecar's site and instance, {loader site: record} so far, sites the
# sidecar knows). None when no commit waits for records.
_WRITING = None
# The checkpoint a fresh run's own code loaded, and its sidecar body, until
# the first pass over a keyed loader decides whether the run continues it.
_OWN = None

# What a module of the script keeps state in that a resume must restore:
# digested by name at the pass.
_STATEFUL = (torch.nn.Module, torch.optim.Optimizer)


def _stateful(value):
    if isinstance(value, _STATEFUL):
        return True
    # LR schedulers (torch's and timm's), GradScaler: objects with a
    # state_dict that are not plain data.
    # (Looked up on the class: an object's own __getattr__ — a logger's
    # proxy — is not called.)
    kind = type(value).__name__
    return callable(getattr(type(value), "state_dict", None)) and (
        kind.endswith("Scheduler") or kind.endswith("LR") or
        kind == "GradScaler")


def _objects(frames):
    """{name: digest of its state_dict()} of the stateful objects bound to
    the variables of the script's functions on the stack at the pass (the
    loop's, `train_one_epoch`'s, `main`'s — a pass is often taken in a
    helper generator such as DeiT's `log_every`), and to `self`'s
    attributes there; names are qualified by their function (`main:model`),
    each object digested once, under its innermost name."""
    found, seen = {}, set()
    for frame in frames:
        scope = frame.f_locals
        where = frame.f_code.co_name + ":"
        candidates = list(scope.items())
        me = scope.get("self")
        if me is not None and not _stateful(me):
            candidates += [("self." + n, v) for n, v in
                           list(getattr(me, "__dict__", {}).items())]
        for name, value in candidates:
            if _stateful(value) and id(value) not in seen:
                seen.add(id(value))
                found[where + name] = value
    out = {}
    full = fingerprint.mode() == "full"
    for name, value in found.items():
        try:
            out[name] = fingerprint.digest(value.state_dict(), full)
        except Exception:  # a state_dict that needs what is not there
            continue
    return out


def _shown(key):
    """An object's name in a message: `'model' (in main)`."""
    function, _, name = key.rpartition(":")
    return "'%s' (in %s)" % (name, function) if function else "'%s'" % name


def _visible(frames, name):
    """The value of a variable detc saves beside the checkpoint (a sidecar
    value's name: `best_acc`, `self.meter.avg`, `main/best_metric` — a
    local of `main` —, `@name` — a global) as the script's functions on
    the stack see it (the innermost that has it); raises LookupError where
    none does."""
    if name.startswith("gen:"):
        raise LookupError(name)  # generators: the fingerprint's
    function = None
    if "/" in name:
        function, name = name.rsplit("/", 1)
        function = function.rsplit("/", 1)[-1]
    root, *path = name.lstrip("@").split(".")
    for frame in frames:
        if function is not None and frame.f_code.co_name != function:
            continue
        scope = frame.f_globals if name.startswith("@") else frame.f_locals
        if root not in scope:
            continue
        value = scope[root]
        for part in path:
            try:
                value = getattr(value, part)
            except Exception:
                raise LookupError(name) from None
        return value
    raise LookupError(name)


def _values_seen(frames, names):
    """{name: digest} of the values detc saves beside the checkpoint that
    the script's `frames` see and that hold data (numbers, strings,
    containers of them, tensors): what the script's own resume must have
    restored too (its loss history, best accuracy, step counter). Objects
    with a state_dict are _objects'; others (a loader, a logger) are the
    setup's."""
    out = {}
    full = fingerprint.mode() == "full"
    for name in names:
        try:
            value = _visible(frames, name)
        except LookupError:
            continue
        if _data(value):
            out[name] = fingerprint.digest(value, full)
    return out


def _data(value, depth=0):
    if isinstance(value, (bool, int, float, complex, str, bytes,
                          type(None), torch.Tensor)):
        return True
    if depth < 4 and isinstance(value, (list, tuple)):
        return all(_data(v, depth + 1) for v in value[:64])
    if depth < 4 and isinstance(value, dict):
        return all(_data(k, depth + 1) and _data(v, depth + 1)
                   for k, v in list(value.items())[:64])
    return False


def _loader_states():
    """The position of every keyed loader made so far (the last one of its
    site): its sampler's epoch and its worker-seed generator."""
    states = {}
    for site, loader in list(values.LOADERS.items()):
        if getattr(loader, "_detc_pass", None) is not None:
            continue  # one iterator for all epochs: no pass to meet at
        state = loader.state_dict()
        states[str(site)] = {
            "epoch": int(state["epoch"]),
            "generator": base64.b64encode(
                state["generator"].numpy().tobytes()).decode("ascii")}
    return states


def committed(serial, body, path):
    """The checkpoint of commit `serial` (moved.last_serial) was written to
    `path` with sidecar `body`: the next pass over each keyed loader
    records where the run is then. A run that resumed with the script's
    own code and did not continue the checkpointed run by now says so."""
    global _WRITING, _OWN
    if _OWN is not None:
        (own_path, own_body, why), _OWN = _OWN, None
        if why is None and "world_size" in own_body:
            why = _IN_JOB
        elif why is None:
            why = _NO_RECORD if any(
                (own_body.get("loaders") or {}).values()) else _NO_LOADER
        warn_once(("own-resume", own_path), "%s: the script resumed from "
                  "this checkpoint with its own code, and this run does not "
                  "continue the one that wrote it bit for bit: %s "
                  "(--detc-resume %s continues it, when the script's own "
                  "resume is not taken)" % (own_path, why, own_path))
    _WRITING = None
    if serial is None or fingerprint.mode() == "off":
        return
    sites = {s for s, p in body.get("loaders", {}).items() if p}
    if sites:
        _WRITING = (serial, body["site"], body["instance"], {}, sites,
                    sorted(body.get("values", {})))


_NO_RECORD = ("the run that wrote it stopped before its loop went on past "
              "the checkpoint (detc records where it went on at the next "
              "pass over each DataLoader)")


_IN_JOB = ("it was written by a job of several processes, and detc records "
           "where a run went on in single-process runs only")
# nanoGPT's shape: batches drawn by the script itself, no loader to meet at
# (continuing it would need a record at the loop's head).
_NO_LOADER = ("the two runs meet at a pass over a DataLoader detc keys, and "
              "this script iterates none")


def pass_begins(loader, frames):
    """A pass over keyed `loader` begins, iterated by the script's
    `frames` (its functions on the stack, innermost first; the main
    process, not in fast-forward). A run whose own code loaded a
    checkpoint continues it at the first pass whose record it matches (a
    pass over another loader may come first: Swin validates right after
    its resume, where the checkpointed run validated after its save)."""
    global _OWN
    if _OWN is not None:
        path, body, _ = _OWN
        why = _why_not(body, loader, frames)
        if why is None:
            _OWN = None
            _continue(path, body, loader, frames)
        elif _OWN[2] is None:
            # The first pass's reason tells: where this run first could
            # have met that run (a later pass is past it).
            _OWN = (path, body, why)
    if _WRITING is not None:
        _record(loader, frames)


def _record(loader, frames):
    global _WRITING
    serial, site, instance, records, sites, names = _WRITING
    key = str(loader._detc_site)
    if key in records:
        return
    records[key] = {"fingerprint": fingerprint.capture(frames[0]),
                    "loaders": _loader_states(),
                    "objects": _objects(frames),
                    "values": _values_seen(frames, names)}
    if set(records) >= sites:
        _WRITING = None

    # Now (a kill from here on finds the record), without waiting for the
    # commit's tail (sidecar.amend).
    _add_records(serial, site, instance, dict(records))


def _add_records(serial, site, instance, records):
    def failed(real, e):
        warn_once(("continuation", real), "%s: could not add where the run "
                  "went on to its sidecar (%s); the script's own resume "
                  "from it will not continue this run bit for bit" %
                  (real, e))

    moved.amend_commit(serial, site, instance, {"continuation": records},
                       failed)


def own_load(path, body):
    """A fresh run's own code loads checkpoint `path` (with sidecar `body`
    of this script) before writing one: a pass over a keyed loader
    continues it, or its first commit says it did not."""
    global _OWN
    _OWN = (path, body, None)


def _valid(record):
    fp = record.get("fingerprint") if isinstance(record, dict) else None
    return fingerprint.valid(fp) and all(
        isinstance(record.get(k, {}), dict) and all(
            isinstance(v, str) for v in record.get(k, {}).values())
        for k in ("objects", "values")) \
        and isinstance(record.get("loaders"), dict) and all(
            isinstance(v, dict) and isinstance(v.get("epoch"), int) and
            isinstance(v.get("generator"), str)
            for v in record["loaders"].values())


def _continue(path, body, loader, frames):
    record = body["continuation"][str(loader._detc_site)]
    try:
        fingerprint.restore(record["fingerprint"])
        _set_loaders(record["loaders"])
    except (fingerprint.Mismatch, ValueError, RuntimeError) as e:
        fail("%s: error: cannot continue the run that wrote it: %s" % (
            path, e), 3)
    problems = fingerprint.verify(record["fingerprint"],
                                  frame=frames[0]) + [
        "the DataLoader at site %s: its position is not the one the run "
        "had" % s for s, state in _loader_states().items()
        if s in record["loaders"] and state != record["loaders"][s]]
    if problems:
        fail("%s: error: the script's own resume does not continue the run "
             "that wrote it — refusing to go on (please report it with the "
             "script):\n  %s" % (path, "\n  ".join(problems)), 3)
    print("detc-runtime: the script resumes from %s with its own code; detc "
          "continues the run that wrote it (its generators, streams and "
          "loader positions as they were at this pass)" % path,
          file=sys.stderr)
    # Its model, optimizer and schedulers are that run's (the pass matched
    # them); a plain value its resume leaves out (DeiT's max_accuracy,
    # reset to 0) makes what depends on it differ: said, not refused —
    # refusing would make the weights differ too.
    seen = _values_seen(frames, list(record.get("values", {})))
    differ = sorted(n for n, d in record.get("values", {}).items()
                    if n in seen and seen[n] != d)
    if differ:
        warn_once(("own-resume-values", path), "%s: the script's own resume "
                  "does not restore %s as the run that wrote it had %s "
                  "here: what depends on %s may differ from that run's" % (
                      path, ", ".join("'%s'" % n for n in differ),
                      "it" if len(differ) == 1 else "them",
                      "it" if len(differ) == 1 else "them"))


def _why_not(body, loader, frames):
    """Why this run cannot continue the one that wrote `body`'s checkpoint
    at this pass (None: it can)."""
    if "world_size" in body:
        return _IN_JOB
    records = body.get("continuation")
    record = records.get(str(loader._detc_site)) \
        if isinstance(records, dict) else None
    if record is None:
        return _NO_RECORD if not records else (
            "the run that wrote it was stopped before its pass over the "
            "DataLoader at site %s, where this run goes on (detc records "
            "where a run went on at that pass)" % loader._detc_site)
    if not _valid(record):
        return "the sidecar's record of where that run went on is malformed"
    if body.get("seeds", {}).get("override") != STATE.override:
        return "it used seed override %s, this run %s" % (
            body["seeds"].get("override"), STATE.override)
    now = _objects(frames)
    differ = sorted(n for n, d in record["objects"].items()
                    if n in now and now[n] != d)
    if differ:
        return "%s %s not the state that run had here (the script's own " \
            "resume does not restore it, or loads the checkpoint to start " \
            "another run)" % (", ".join(_shown(n) for n in differ),
                              "is" if len(differ) == 1 else "are")
    named = fingerprint.named_generators(frames[0])
    differ = sorted(n for n, d in record["fingerprint"].get("named",
                                                            {}).items()
                    if n in named and named[n] != d)
    if differ:
        return "generator %s: not the state that run had here" % \
            ", ".join("'%s'" % n for n in differ)
    return None


def _set_loaders(states):
    for site, loader in list(values.LOADERS.items()):
        state = states.get(str(site))
        if state is None or getattr(loader, "_detc_pass", None) is not None:
            continue
        data = base64.b64decode(state["generator"].encode("ascii"),
                                validate=True)
        loader.load_state_dict({
            "epoch": state["epoch"],
            "generator": torch.frombuffer(bytearray(data),
                                          dtype=torch.uint8)})


def forget_in_child():
    """A forked child (a DataLoader worker) records and continues
    nothing."""
    global _WRITING, _OWN
    _WRITING = _OWN = None


os.register_at_fork(after_in_child=forget_in_child)

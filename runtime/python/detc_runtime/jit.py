"""Just-in-time checkpointing (SPEC §8, docs/jit.md): a checkpoint is
written only when a failure happens, as of the start of the minibatch it
happened in, and the restart (`--detc-restart`) redoes at most that
minibatch.

`detc transform --jit-checkpoint` puts `boundary(site, values)` at the
start of the training loop's minibatch (a CheckHint hint site that is never
written periodically: hints.py writes and restores it) and wraps the
optimizer step in `step(...)`. At each boundary the runtime keeps what a
checkpoint of that moment needs and the minibatch may change before its
step: module buffers (BatchNorm statistics the forward updates), plain
values and containers, generator states, and — after a minibatch that did
not step — the gradients accumulated so far; never parameters or optimizer
state, which do not change before the step (guard-step mode copies them
before each step). Then:

* an exception that ends the script (sys.excepthook) before the step began
  writes the checkpoint of the boundary: current parameters and optimizer
  state, the buffers and values as they were at the boundary, the loop
  positions of the current minibatch; during or after the step, this
  process's state no longer describes a minibatch start: with guard-step
  the copy is put back and the checkpoint written; otherwise none, and the
  message says where to restart from (in a data-parallel job, the healthy
  replicas' checkpoint of the next minibatch: jit_replicas.py);
* a minibatch that does not finish within the hang timeout (10 x the
  median minibatch time, at least DETC_JIT_HANG_FLOOR seconds, default 60)
  is written by a watchdog thread, and the process exits with status 124;
* SIGTERM or SIGUSR1 (preemption) writes the checkpoint at the next
  boundary, where the state is exact, and exits with status 143.
"""
import copy
import os
import signal
import statistics
import sys
import threading
import time
import types

import torch

from . import fingerprint, hints, holders, jit_replicas, sinks
from . import values as _values
from ._state import STATE, warn_once

EXIT_HANG = 124
EXIT_PREEMPTED = 143

BEFORE_STEP, IN_STEP, AFTER_STEP = "before the optimizer step", \
    "in the optimizer step", "after the optimizer step"


class _Run:
    def __init__(self):
        self.enabled = False
        self.site = None      # boundary site reached last
        self.count = 0        # its arrival number
        self.values = None    # the thunks of what a checkpoint saves
        self.outer = None     # names saved from calling frames
        self.frame = None     # the boundary's caller frame (for `outer`)
        self.snapshot = {}    # name -> value as at the boundary
        self.moment = None    # fingerprint.Moment of the boundary
        self.phase = None
        self.boundary_time = None
        self.durations = []   # recent minibatch times, seconds
        self.preempted = False
        self.pending = None   # (site, thunks) of a restart's boundary
        # Whether the minibatch before this one stepped the optimizer: if
        # not, gradients may be accumulating over minibatches, and the
        # boundary keeps a copy of them for the checkpoint.
        self.clean = True
        self.grads = {}       # module name -> gradients kept (not clean)
        self.kept = {}        # (id(owner), slot) -> (owner, reused copy)
        self.slots = {}       # id(module) -> [module, buffer slots, uses]
        self.memo = {}        # deepcopy memo of the current boundary
        self.modules_kept = []  # the boundary's _ModuleKept
        self.unseen = False   # parameters changed by a step detc did not see
        # guard-step: a copy of each optimizer's parameters and state from
        # before its step in this minibatch, so a failure in or after the
        # step can still write the boundary's checkpoint.
        self.guard_step = False
        self.guards_by_optimizer = {}
        self.guarded = []     # the guards taken since the boundary
        self.lock = threading.Lock()
        self.written = False
        self.floor = 60.0


JIT = _Run()


def enable(guard_step=False):
    """Installs the failure handlers (the transformed script's header).
    `guard_step` (`--jit-checkpoint=guard-step`): before each optimizer
    step keep a copy of what it changes, so a failure inside the step of a
    single-process job still writes the minibatch's checkpoint."""
    JIT.guard_step = bool(guard_step)
    if JIT.enabled:
        return
    JIT.enabled = True
    from . import env
    JIT.floor = env.jit_hang_floor()
    previous = sys.excepthook

    def on_exception(kind, value, tb):
        if not issubclass(kind, (SystemExit, KeyboardInterrupt)):
            _on_failure("%s: %s" % (kind.__name__, value))
        previous(kind, value, tb)

    sys.excepthook = on_exception
    _bound_collectives()
    for sig in (signal.SIGTERM, signal.SIGUSR1):
        try:
            signal.signal(sig, _on_preemption)
        except (ValueError, OSError):  # not the main thread
            pass
    threading.Thread(target=_watchdog, name="detc-jit-watchdog",
                     daemon=True).start()


def collective_timeout():
    """The process group's own timeout: DETC_JIT_COLLECTIVE_TIMEOUT seconds,
    by default 5 x the hang floor (5 minutes, where the library waits 30):
    a gloo collective blocked on a dead or hung peer raises then — an
    exception before the step, which writes the checkpoint — should the
    watchdog not have fired first."""
    from . import env
    return env.jit_collective_timeout(JIT.floor)


def _bound_collectives():
    """Makes init_process_group's default timeout collective_timeout() (a
    timeout the script passes itself is kept)."""
    import datetime
    import torch.distributed as dist
    if not dist.is_available() or getattr(dist.init_process_group,
                                          "_detc_jit", False):
        return
    init = dist.init_process_group

    def init_process_group(*args, **kwargs):
        if "timeout" not in kwargs and len(args) < 3:
            kwargs["timeout"] = datetime.timedelta(
                seconds=collective_timeout())
        return init(*args, **kwargs)

    init_process_group._detc_jit = True
    init_process_group.__doc__ = init.__doc__
    dist.init_process_group = init_process_group


def _on_preemption(signum, frame):
    JIT.preempted = True
    print("detc-runtime: signal %d: writing a just-in-time checkpoint at the "
          "next minibatch boundary" % signum, file=sys.stderr)


class _Unchanged:
    """A tensor kept by reference with its version counter: it still holds
    the boundary's value if nothing wrote to it in place since (a batch the
    loop fetched); copying every batch would cost more than the step."""

    __slots__ = ("tensor", "version")

    def __init__(self, tensor):
        self.tensor, self.version = tensor, tensor._version


class ChangedInPlace(Exception):
    pass


def _kept_copy(owner, slot, tensor):
    """A copy of `tensor`, owner's `slot` (a module's buffer, a parameter's
    gradient), in storage reused from boundary to boundary: a copy into it
    costs a third of a fresh clone, and only the current boundary's copies
    are ever read. Keyed by the owner, which lives as long as the model,
    not by the tensor, which the script may replace every minibatch."""
    key = (id(owner), slot)
    pair = JIT.kept.get(key)
    if pair is None or pair[0] is not owner or \
            pair[1].shape != tensor.shape or pair[1].dtype != tensor.dtype:
        pair = JIT.kept[key] = (owner, tensor.detach().clone())
    else:
        pair[1].copy_(tensor.detach())  # no autograd: never a leaf's copy
    return pair[1]


def _walk(module, params=None):
    """(module, name) of every buffer slot under `module`: a walk of
    `_modules` without the names and generators of Module.modules(). With
    a list `params`, its parameters are appended to it."""
    seen, stack, out = set(), [module], []
    while stack:
        m = stack.pop()
        if id(m) in seen:
            continue
        seen.add(id(m))
        out.extend((m, name) for name in m._buffers)
        if params is not None:
            params.extend(p for p in m._parameters.values()
                          if p is not None)
        stack.extend(c for c in m._modules.values() if c is not None)
    return out


# A module's buffer slots are walked again every this many boundaries (and
# checked at a failure: _check_slots); in between the cached list is read.
_REWALK = 64


def _slots(module):
    """[module, buffer slots, boundaries since the walk, parameters]."""
    entry = JIT.slots.get(id(module))
    if entry is None or entry[0] is not module or entry[2] >= _REWALK:
        params = []
        entry = [module, _walk(module, params), 0, params]
        JIT.slots[id(module)] = entry
    entry[2] += 1
    return entry


def _check_slots(module):
    """At a failure: the module has the buffer slots the boundary kept (a
    buffer registered since, by a lazy module, was not kept)."""
    entry = JIT.slots.get(id(module))
    if entry is not None and entry[0] is module and \
            set(map(_slot_key, _walk(module))) != set(map(_slot_key,
                                                           entry[1])):
        raise ChangedInPlace("the buffers of a module (a buffer was "
                             "registered since the boundary)")


def _slot_key(slot):
    return id(slot[0]), slot[1]


class _ModuleKept:
    """What the boundary kept of a module: its buffers' copies (the forward
    updates BatchNorm statistics in place), and its parameters with their
    version counters — a step changes them in place, and one detc did not
    see (an optimizer of a library it cannot read, a step called through
    code it cannot see) must not be taken for a failure before the step."""

    __slots__ = ("buffers", "params", "versions")

    def __init__(self, buffers, params, versions):
        self.buffers, self.params, self.versions = buffers, params, versions


def _capture_module(module):
    entry = _slots(module)
    kept = []
    for m, name in entry[1]:
        b = m._buffers.get(name)
        if b is not None:
            kept.append((b, _kept_copy(m, name, b)))
    params = entry[3]
    kept = _ModuleKept(kept, params, [p._version for p in params])
    JIT.modules_kept.append(kept)
    return kept


# The kept modules' parameters may change in place only in the steps detc
# wraps (jit.step): each records whether they changed since the boundary
# or the last such step (a step detc did not see), and takes their
# versions after it as the new expectation; guard-step's undo does too.

def _changed_unseen():
    """Whether a kept module's parameters changed in place since the
    boundary or the last step detc saw (remembered in JIT.unseen)."""
    if not JIT.unseen:
        JIT.unseen = any(p._version != v for kept in JIT.modules_kept
                         for p, v in zip(kept.params, kept.versions))
    return JIT.unseen


def _expect_versions():
    for kept in JIT.modules_kept:
        kept.versions = [p._version for p in kept.params]


def _check_params(name, kept):
    """At a failure: the module's parameters are the boundary's but for the
    steps detc saw (their version counters). A step detc did not see
    changed them: the checkpoint would hold the updated parameters as the
    minibatch start, and the restart would take the step twice."""
    if _changed_unseen():
        raise ChangedInPlace(
            "the parameters of %r (outside an optimizer step detc wraps: "
            "an in-place update the script makes itself — SAM's "
            "first_step, a `p.add_()` under no_grad —, an optimizer of a "
            "library detc does not read, or a step called through code it "
            "cannot see)" % name)


def _capture_tensor(tensor):
    return _Unchanged(tensor)


def _capture_container(value):
    return copy.copy(value)  # appended to, assigned into


def _capture_nothing(value):
    return None  # optimizer, scheduler, loader: changed by the step only


def _capture_value(value):
    return value


def _capture_object(value):
    # A user object the minibatch may update before its step (a meter's
    # running sum): a copy when it is plain data, so a restart does not
    # count the failed minibatch twice. The copies of one boundary share a
    # memo: a progress printer and the meters it shows stay one graph.
    if _values.plain(value):
        return copy.deepcopy(value, JIT.memo)
    # One holding more (minGPT's Trainer: its model, optimizer, dataset,
    # callbacks and step counter): each field kept as a value of its own
    # kind is (its counter copied, its model's buffers kept), read back
    # field by field at a failure (_resolve).
    fields = getattr(value, "__dict__", None)
    if type(fields) is not dict:
        return value
    key = ("fields", id(value))
    if key in JIT.memo:
        return JIT.memo[key]
    kept = JIT.memo[key] = _FieldsKept(value, {})
    for name, field in list(fields.items()):
        kept.fields[name] = _capture(field)
    return kept


class _FieldsKept:
    """What _capture_object kept of an object's fields at the boundary."""

    def __init__(self, obj, fields):
        self.obj, self.fields = obj, fields


def _resolve(name, live, kept):
    """The value a failure's checkpoint saves for `live`, given what the
    boundary kept of it (_capture)."""
    if isinstance(live, torch.nn.Module):
        _check_slots(live)
        _check_params(name, kept)
        return _AtBoundary(live, kept.buffers)
    if isinstance(kept, _Unchanged):
        if kept.tensor._version != kept.version:
            raise ChangedInPlace("tensor %r" % name)
        return kept.tensor
    if isinstance(kept, _FieldsKept):
        return _values.FieldsView(kept.obj, {
            field: _resolve("%s.%s" % (name, field),
                            kept.obj.__dict__.get(field), inner)
            for field, inner in kept.fields.items()})
    return live if kept is None else kept


def _capture_position(value):
    # An iterator over a keyed loader: where it stands now (the minibatch
    # takes its batch after the boundary). One that cannot be saved so is
    # kept as it is: the failure's checkpoint says why.
    try:
        return value._detc_position()
    except _values.UnsavableValue:
        return value


def _capture_generator(value):
    # A generator that repeats a keyed loader: where the loader stands now.
    # One of another shape is kept as it is: the failure's checkpoint says
    # why it cannot be saved.
    try:
        return _values.generator_at(value)
    except _values.UnsavableValue:
        return value


def _capture_kind(kind):
    if getattr(kind, "_detc_position", None) is not None:
        return _capture_position
    if issubclass(kind, types.GeneratorType):
        return _capture_generator
    if sinks.is_sink_type(kind):
        return _capture_nothing  # output only: restored as the live one
    if issubclass(kind, torch.nn.Module):
        return _capture_module
    if issubclass(kind, torch.Tensor):
        return _capture_tensor
    if hasattr(kind, "state_dict") and hasattr(kind, "load_state_dict"):
        return _capture_nothing
    if issubclass(kind, (list, dict, set)):
        return _capture_container
    if not hasattr(kind, "__dict__") or \
            kind.__module__.split(".")[0] in ("torch", "numpy", "builtins"):
        return _capture_value
    return _capture_object


_CAPTURE = {}  # type -> how a value of it is kept (decided once per type)


def _capture(value):
    """What `value` was at the boundary, for what the minibatch may change
    before its step; None for objects read live at the failure."""
    kind = type(value)
    capture = _CAPTURE.get(kind)
    if capture is None:
        capture = _CAPTURE[kind] = _capture_kind(kind)
    return capture(value)


class _AtBoundary:
    """A module whose state_dict is the live one with the buffers the
    boundary kept (what the forward changed since is not saved)."""

    def __init__(self, module, buffers):
        self.module, self.buffers = module, buffers

    def state_dict(self):
        kept = {live.data_ptr(): copy for live, copy in self.buffers}
        state = self.module.state_dict()
        for name, tensor in state.items():
            copy = kept.get(tensor.data_ptr())
            if copy is not None and copy.shape == tensor.shape:
                state[name] = copy
        return state

    def load_state_dict(self, state):
        self.module.load_state_dict(state)


def boundary(site, values, outer=None, name=None, live=()):
    """The start of a minibatch at JIT site `site`: `values` maps names to
    thunks reading what a checkpoint here saves (as hints.hint's); `live`:
    those of them the minibatch leaves as they are (generator states only
    keyed draws use: detc's analysis), read at a failure, not here; `name`:
    the hint's callee in the script as detc placed it, which is not called:
    the work is done here (it runs every minibatch: no frame or closure is
    made unless names of calling frames are saved) and the result is a
    callable that does nothing."""
    if outer:
        values = dict(values, **hints._outer_thunks(sys._getframe(1), outer))
    if hints.HINT.entering == site:
        # Restarting: the restore code follows; the minibatch starts when
        # it is done (_restored).
        hints._arrived(site)
        JIT.pending = (site, values)
        hints.expect(values, sys._getframe(1))
        return _nothing
    now = time.monotonic()
    with JIT.lock:
        if JIT.boundary_time is not None and JIT.site == site:
            JIT.durations.append(now - JIT.boundary_time)
            if len(JIT.durations) > 128:
                del JIT.durations[:-64]
        count = hints.HINT.arrivals.get(site, 0) + 1
        hints.HINT.arrivals[site] = count
        _keep(site, count, values, now, live=live, frame=sys._getframe(1))
        if JIT.preempted:
            _write(site, count, _boundary_thunks(), "preemption")
            sys.exit(EXIT_PREEMPTED)
    return _nothing


def _nothing(*args, **kwargs):
    return None


def _keep(site, count, thunks, now, clean=None, live=(), frame=None):
    JIT.clean = clean if clean is not None else (
        JIT.phase in (None, AFTER_STEP))
    snapshot = {}
    grads = {}
    covered = None if JIT.clean else set()  # parameters kept (a DDP
    # wrapper and its module share them)
    JIT.memo = {}  # _capture_object's copies of this boundary
    JIT.modules_kept = []  # _capture_module's, for _changed_unseen
    JIT.unseen = False
    for name, thunk in thunks.items():
        if name in live:
            snapshot[name] = None  # read at the failure (_boundary_thunks)
            continue
        try:
            value = thunk()
        except NameError:
            continue
        snapshot[name] = _capture(value)
        if covered is not None and isinstance(value, torch.nn.Module):
            # Gradients may be accumulating over minibatches (the one
            # before did not step): the checkpoint must hold them as they
            # are now, before this minibatch's backward adds to them. Only
            # such minibatches pay for this copy.
            params = list(value.parameters())
            if all(id(p) in covered for p in params):
                continue
            covered.update(id(p) for p in params)
            grads[name] = [None if p.grad is None else
                           _kept_copy(p, "grad", p.grad) for p in params]
    JIT.grads = grads
    JIT.site, JIT.count, JIT.values = site, count, thunks
    JIT.snapshot = snapshot
    # The generators as the minibatch starts (a restart continues from
    # them; the fingerprint's check compares them after the restore).
    JIT.moment = fingerprint.Moment(frame, boundary=True, drawn=tuple(
        lib for lib in ("numpy", "random")
        if "gen:" + lib in thunks and "gen:" + lib not in live))
    JIT.guarded = []
    JIT.phase = BEFORE_STEP
    JIT.boundary_time = now


def _restored(site):
    """A restarted run has its state back at JIT site `site`: the minibatch
    it restarted at begins now."""
    pending, JIT.pending = JIT.pending, None
    if pending is None or pending[0] != site:
        return
    accumulated = _restore_grads(pending[1])
    with JIT.lock:
        _keep(site, hints.HINT.arrivals.get(site, 0), pending[1],
              time.monotonic(), clean=not accumulated)


def _restore_grads(thunks):
    """Gives the restored modules the gradients the checkpoint saved (those
    accumulated before its minibatch); whether there were any."""
    saved = hints.HINT.target["values"]
    accumulated = False
    for name, thunk in thunks.items():
        encoded = saved.get(GRADS + name)
        if encoded is None:
            continue
        grads = hints._decode(encoded)
        params = list(thunk().parameters())
        if len(grads) != len(params):
            hints._fail("%s: error: the checkpoint holds gradients of %d "
                        "parameters for %r, which has %d" % (
                            hints.HINT.checkpoint, len(grads), name,
                            len(params)))
        for p, g in zip(params, grads):
            p.grad = g
        accumulated = True
    return accumulated


hints.RESUME_HOOKS.append(_restored)


def step(fn):
    """The optimizer step `fn(...)`: marks the minibatch's phase; with
    guard-step, keeps a copy of what the step changes first."""

    def call(*args, **kwargs):
        _changed_unseen()
        if JIT.guard_step:
            _guard(getattr(fn, "__self__", None))
        JIT.phase = IN_STEP
        try:
            result = fn(*args, **kwargs)
        finally:
            _expect_versions()  # what it changed, also if it failed
        JIT.phase = AFTER_STEP
        return result

    return call


class _StepGuard:
    """An optimizer's parameters and state as they were before its step,
    in buffers reused from step to step (guard-step mode)."""

    def __init__(self, optimizer):
        self.optimizer = optimizer
        self.params = []   # (parameter, copy)
        self.state = {}    # id(parameter) -> (parameter, {key: copy}|None)
        self.groups = []   # each group's options, without its parameters

    def take(self):
        opt = self.optimizer
        params = [p for g in opt.param_groups for p in g["params"]]
        if len(params) != len(self.params) or any(
                p is not q for p, (q, _) in zip(params, self.params)):
            self.params = [(p, torch.empty_like(p)) for p in params]
        with torch.no_grad():
            for p, kept in self.params:
                kept.copy_(p)
        state = {}
        for p in params:
            live = opt.state.get(p)
            old = self.state.get(id(p), (None, None))[1] or {}
            kept = None
            if live is not None:
                kept = {}
                for key, value in live.items():
                    if isinstance(value, torch.Tensor):
                        buf = old.get(key)
                        if not isinstance(buf, torch.Tensor) or \
                                buf.shape != value.shape or \
                                buf.dtype != value.dtype:
                            buf = torch.empty_like(value)
                        buf.copy_(value)
                        kept[key] = buf
                    else:
                        kept[key] = copy.copy(value)
            state[id(p)] = (p, kept)
        self.state = state
        self.groups = [{k: v for k, v in g.items() if k != "params"}
                       for g in opt.param_groups]

    def put_back(self):
        opt = self.optimizer
        with torch.no_grad():
            for p, kept in self.params:
                p.copy_(kept)
        for p, kept in self.state.values():
            if kept is None:
                opt.state.pop(p, None)
                continue
            opt.state[p] = {key: value.clone() if isinstance(
                value, torch.Tensor) else value for key, value in kept.items()}
        for group, options in zip(opt.param_groups, self.groups):
            group.update(options)


def _guard(optimizer):
    if optimizer is None or not hasattr(optimizer, "param_groups"):
        warn_once(("jit-guard",), "--jit-checkpoint=guard-step: a step "
                  "that is not an optimizer's method is not guarded")
        return
    guard = JIT.guards_by_optimizer.get(id(optimizer))
    if guard is None or guard.optimizer is not optimizer:
        guard = JIT.guards_by_optimizer[id(optimizer)] = _StepGuard(optimizer)
    guard.take()
    JIT.guarded.append(guard)


def _undo_steps():
    """Puts back what the minibatch's steps changed (guard-step); whether
    the state is the boundary's again."""
    if not JIT.guard_step or not JIT.guarded:
        return False
    _changed_unseen()
    for guard in reversed(JIT.guarded):
        guard.put_back()
    _expect_versions()
    JIT.guarded = []
    JIT.phase = BEFORE_STEP
    return True


GRADS = "detc:grads:"  # the saved gradients of module NAME: GRADS + NAME


def _boundary_thunks():
    """The values of the last boundary: kept copies, or the live objects
    (parameters and optimizer state, unchanged before the step), and the
    gradients accumulated before it."""
    thunks = {GRADS + name: (lambda grads=grads: grads)
              for name, grads in JIT.grads.items()}
    for name, thunk in JIT.values.items():
        if name not in JIT.snapshot:
            continue
        kept = JIT.snapshot[name]

        def read(thunk=thunk, kept=kept, name=name):
            return _resolve(name, thunk(), kept)
        thunks[name] = read
    return thunks


def _write(site, count, thunks, why):
    path = hints.HINT.path or hints.default_path(sys.argv[0])
    start = time.monotonic()
    rank, world = hints.job_shape()
    jit_replicas.remove_marker(path)
    hints.write(site, count, thunks, jit={"rank": rank, "world_size": world},
                moment=JIT.moment)
    jit_replicas.write_marker(path, site, count, rank, world)
    JIT.written = True
    print("detc-runtime: %s: just-in-time checkpoint written to %s in %.3f s "
          "(as of the start of minibatch %d at site %d); continue with "
          "--detc-restart" % (why, path, time.monotonic() - start, count,
                              site), file=sys.stderr)


def _on_failure(why, undo=True):
    """`undo`: the failing thread is the training thread (not the
    watchdog's, which must not touch state a hung step may still change)."""
    from .replay import restore_in_progress
    with JIT.lock:
        if JIT.site is None or JIT.written:
            return
        if restore_in_progress():
            # A restore that failed half way: this state is neither the
            # checkpoint's nor a minibatch start; the good checkpoint stays.
            return
        if JIT.phase != BEFORE_STEP and undo and _undo_steps():
            print("detc-runtime: %s: the parameters and optimizer state are "
                  "put back as they were before the step (guard-step)" % why,
                  file=sys.stderr)
        if JIT.phase != BEFORE_STEP:
            print("detc-runtime: %s (%s): this process's parameters no "
                  "longer describe a minibatch start; no just-in-time "
                  "checkpoint — %s" % (why, JIT.phase, _fallback()),
                  file=sys.stderr)
            return
        try:
            _write(JIT.site, JIT.count, _boundary_thunks(), why)
        except ChangedInPlace as e:
            print("detc-runtime: %s: %s changed in place since the "
                  "minibatch began; no just-in-time checkpoint — restart from "
                  "the newest periodic or user checkpoint" % (why, str(e)),
                  file=sys.stderr)
        except Exception as e:  # the failure itself may have broken state
            print("detc-runtime: cannot write the just-in-time checkpoint: "
                  "%s" % e, file=sys.stderr)


def _fallback():
    if hints.job_shape()[0] is not None:
        return ("--detc-restart takes the healthy replicas' checkpoint of "
                "the next minibatch")
    return "restart from the newest periodic or user checkpoint"


def hang_timeout():
    """10 x the median minibatch time, at least the floor."""
    if len(JIT.durations) < 3:
        return JIT.floor
    return max(JIT.floor, 10 * statistics.median(JIT.durations))


def _watchdog():
    while True:
        time.sleep(min(max(JIT.floor / 8, 0.05), 1.0))
        started = JIT.boundary_time
        if started is None or STATE.failed:
            continue
        waited = time.monotonic() - started
        if waited <= hang_timeout() or JIT.boundary_time != started:
            continue
        _on_failure("hang: minibatch %d has run %.1f s (timeout %.1f s)" %
                    (JIT.count, waited, hang_timeout()), undo=False)
        sys.stderr.flush()
        holders.release()  # os._exit skips atexit; waits for the tail
        os._exit(EXIT_HANG)

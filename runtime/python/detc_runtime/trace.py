"""Training traces for TrainCheck (SPEC §9, docs/traincheck.md).

`detc transform --trace[=DIR]` wraps the calls the IR classifies — a
model's forward, a backward, an optimizer step, zero_grad, train()/eval(),
gradient clipping — in `api(site, kind, name, fn)` and marks the start of
each training step with `step(site, epoch)`. Records are JSON lines, one
file per process (`DIR/trace.rank<R>.jsonl`), written by a background
thread that drains a bounded deque every 5 ms (the training thread waits
only when the writer falls 10,000 records behind); a file that reaches
DETC_TRACE_ROTATE_MB (256) is renamed to `.N.jsonl` atomically and a new
one begun. A forked DataLoader worker writes its records itself, at once,
to `trace.rank<R>.worker<PID>.jsonl`.

Record format, version 1:
  {"v": 1, "kind": "meta", "rank": R, "world": W, "pid": P, "script": S}
  {"kind": "step", "epoch": E, "step": K, "rank": R}
  {"kind": "enter"|"exit", "api": NAME, "call": KIND, "site": N, "epoch",
   "step", "rank", "training": bool|null, "grad_enabled": bool,
   "args": [SUMMARY...], "result": SUMMARY (exit), "error": TYPE (exit)}
  {"kind": "state", "epoch", "step", "rank", "params": [{"id", "name", "data",
   "grad", "update_expected", "requires_grad", "group", "in_optimizer"}],
   "lrs": [each param group's learning rate]}
   after each
   optimizer step: its parameters and those of the models traced forwards
   ran (in_optimizer false when it does not hold them)
where SUMMARY is {"type", "shape", "dtype", "device", "hash", "finite"} for
a tensor (hash: the first 64 bits of the SHA-1 of the whole tensor's
bytes; finite: every element is, for floating tensors only) and {"type"}
otherwise; a result's SUMMARY also has "min" and "max", its least and
greatest elements, when it is a non-empty floating tensor whose elements
are all finite (APIOutput bounds).
"""
import atexit
import collections
import hashlib
import json
import math
import os
import sys
import threading
import time
import weakref

from . import _core

VERSION = 1


class _Writer(threading.Thread):
    """Writes the records (path None: only checks them) and hands them to
    the online verifier, off the training thread. Records wait in a deque
    the thread drains every few milliseconds: one wake-up per batch of
    records, not per record (each wake-up takes the GIL from training)."""

    LIMIT = 10000  # records waiting before the training thread waits
    PERIOD = 0.005  # seconds between drains

    def __init__(self, path, rotate_bytes, checker=None, deferred=False):
        super().__init__(name="detc-trace-writer", daemon=True)
        self.path, self.rotate_bytes = path, rotate_bytes
        self.pending = collections.deque()
        self.stopping = threading.Event()
        from . import output
        # Deferred: the rank is not known yet (a process started by
        # torch.multiprocessing.spawn learns it from init_process_group);
        # records wait here until _Resolve names the file.
        self.held = [] if deferred else None
        self.file = output.open_stream(path, "trace") \
            if path and not deferred else None
        self.checker = checker
        self.written = 0
        self.rotations = 0

    def put(self, record):
        while len(self.pending) >= self.LIMIT and self.is_alive():
            time.sleep(self.PERIOD)
        self.pending.append(record)

    def run(self):
        while True:
            stop = self.stopping.wait(self.PERIOD)
            self._drain()
            if stop:
                break
        if self.file:
            self.file.flush()
        if self.checker:
            self.checker.close()

    def flush(self, timeout=60):
        """Returns once every record put so far is written and checked."""
        if not self.is_alive():
            return
        done = threading.Event()
        self.pending.append(done)
        done.wait(timeout)

    def _drain(self):
        pending = self.pending
        while pending:
            record = pending.popleft()
            if isinstance(record, threading.Event):  # flush()'s marker
                record.set()
                continue
            if isinstance(record, _Resolve):
                self._resolved(record)
                continue
            if self.checker:
                self.checker.observe(record)
            if self.held is not None:
                self.held.append(record)
                continue
            self._write(record)

    def _resolved(self, r):
        """The rank is known: the file is opened and the records held so
        far are written to it with their rank (and the world) set."""
        held, self.held = self.held or [], None
        self.path = r.path
        if r.path is None:
            return  # nothing this process did is a trace
        from . import output
        self.file = output.open_stream(r.path, "trace")
        for h in held:
            if "rank" in h:
                h["rank"] = r.rank
            if h.get("kind") == "meta":
                h["world"] = r.world
            self._write(h)

    def _write(self, record):
        if self.file is None:
            return
        line = json.dumps(record, separators=(",", ":")) + "\n"
        self.file.write(line)
        self.written += len(line)
        if self.written >= self.rotate_bytes:
            self._rotate()

    def _rotate(self):
        self.file.close()
        self.rotations += 1
        stem = self.path[:-len(".jsonl")]
        os.replace(self.path, "%s.%d.jsonl" % (stem, self.rotations))
        from . import output
        self.file = output.open_stream(self.path, "trace")
        self.written = 0

    def close(self):
        if TRACE.deferred:
            # The process ended without learning a rank: its own, unless
            # it only started others (mp.spawn's parent writes nothing).
            _resolve(None, None, at_exit=True)
        self.stopping.set()
        self.join(timeout=30)
        if self.file:
            self.file.close()


class _Resolve:
    """A marker in the writer's queue: the rank is known from here on."""

    def __init__(self, path, rank, world):
        self.path, self.rank, self.world = path, rank, world


class _Trace:
    def __init__(self):
        self.writer = None
        self.directory = None
        # The rank is not in the environment (RANK): learned from the
        # process group once initialised, else taken as the environment's
        # at the first fetch or step (_resolve).
        self.deferred = False
        self.held = 0  # records emitted while deferred
        self.epoch = None
        self.step = -1
        self.rank = 0
        self.models = {}  # id(model) -> model, seen in forwards
        # Every optimizer the script made (_register_optimizers): a model
        # another optimizer steps is that one's, not this one's.
        self.optimizers = weakref.WeakSet()
        self.model_of = {}  # id(param) -> id(model), with model_params
        self.other_models = {}  # _models_of_other_optimizers' cache
        self.modules = {}  # id(module) -> (module, "m<N>") (TrainBeforeEval)
        self.pid = os.getpid()
        self.child = None  # (pid, file) in a forked worker
        self.active = 0  # traced calls running
        self.step_apis = set()  # APIs called at top level in this step
        self.needs = None  # _Needs when checking without a trace
        self.direct = None  # the Checker then, called from here
        self.off = False  # in a forked worker of a checking-only run
        self.ran = set()  # layer classes run in the current top forward
        # site -> (the call's callee as the script writes it, its line):
        # the script's own name for what a descriptor names, for reports
        self.calls = {}
        self.at = None  # the site a check without records is about
        self.names = {}  # id(param) -> "model.fc1.weight"
        self.model_params, self.params_key = [], None  # _model_params
        self.last_data = {}  # parameter id -> its hash at the last step
        # parameter id -> its version counter at the last step (checking)
        self.last_version = {}
        # id(optimizer) -> (stamp, _state_plan's list) (checking)
        self.state_plans = {}


TRACE = _Trace()


def enable(directory, check=None, names=None):
    """Called by the transformed script's header: traces to `directory`
    (None: none written) and/or checks the invariants file `check` online
    (invariant_check.py). `names`: site -> (the callee as written, its
    line), which records and reports carry as `name` and `source_line`."""
    TRACE.calls = names or {}
    directory = os.environ.get("DETC_TRACE_DIR") or directory
    from . import env
    TRACE.rank = env.rank()
    world = env.world_size()
    TRACE.directory = directory
    # Without RANK in the environment (a single process, or one of the
    # processes torch.multiprocessing.spawn starts, which learn their rank
    # only from init_process_group) the file is named once the rank is
    # known: each rank its own file, never two writing one.
    TRACE.deferred = os.environ.get("RANK") is None and _distributed()
    path = None
    if directory:
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, "trace.rank%d.jsonl" % TRACE.rank)
    checker = None
    check = os.environ.get("DETC_CHECK_INVARIANTS") or check
    if check:
        from .invariant_check import Checker
        try:
            checker = Checker(check, directory,
                              None if TRACE.deferred else TRACE.rank)
        except (OSError, ValueError, KeyError, TypeError) as e:
            from .replay import fail
            fail("error: --check: %s" % e)
    if TRACE.deferred:
        _resolve_at_init_process_group()
    _register_optimizers()
    TRACE.pid = os.getpid()
    if checker is not None and not directory:
        # Checking only: no records, no writer thread. Each traced call
        # checks what the invariants read about it, where it runs (issue
        # 21: queueing records for a thread cost ~11% of a training step,
        # half of it the thread taking the GIL).
        TRACE.needs = _Needs(checker.invariants, checker)
        checker.here = _here
        TRACE.direct = checker
        os.register_at_fork(after_in_child=_stop_checking_in_child)
        atexit.register(checker.close)
        return
    rotate = env.trace_rotate_bytes()
    TRACE.writer = _Writer(path, rotate, checker, deferred=TRACE.deferred)
    TRACE.writer.start()
    if checker is not None:
        _flush_before_destroying_the_group()
    _emit({"v": VERSION, "kind": "meta", "rank": TRACE.rank, "world": world,
           "pid": os.getpid(), "script": os.path.basename(sys.argv[0])})
    atexit.register(TRACE.writer.close)


def _here():
    """Where a check without records is: the epoch and step, and the call
    being checked as the script writes it (`net` at line 168)."""
    here = {"epoch": TRACE.epoch, "step": TRACE.step}
    at = TRACE.calls.get(TRACE.at)
    if at is not None:
        here["name"], here["source_line"] = at
    return here


def _named(record, site):
    """`record` with the script's name and line for the call at `site`."""
    at = TRACE.calls.get(site)
    if at is not None:
        record["name"], record["source_line"] = at
    return record


def _distributed():
    """Whether torch.distributed can start a process group here."""
    try:
        import torch.distributed as dist
    except ImportError:
        return False
    return dist.is_available()


def _resolve(rank, world, at_exit=False):
    """The rank is known (None: take the environment's): the trace file
    and the checker's reports are named after it from here on."""
    if not TRACE.deferred:
        return
    TRACE.deferred = False
    from . import env
    if rank is None:
        rank, world = env.rank(), env.world_size()
    TRACE.rank = rank
    # Ending without a training step (mp.spawn's parent, which only
    # started the ranks): nothing is written, no rank's file replaced.
    idle = at_exit and TRACE.step < 0
    checker = TRACE.direct or (TRACE.writer.checker if TRACE.writer else None)
    if checker is not None:
        checker.set_rank(rank, report=not idle)
    if TRACE.writer is not None:
        path = os.path.join(TRACE.directory, "trace.rank%d.jsonl" % rank) \
            if TRACE.directory and not idle else None
        TRACE.writer.pending.append(_Resolve(path, rank, world))


def _resolve_from_group():
    """At the first fetch or step: the process group's rank if one is up,
    else the environment's."""
    try:
        import torch.distributed as dist
        if dist.is_available() and dist.is_initialized():
            return _resolve(dist.get_rank(), dist.get_world_size())
    except (ImportError, RuntimeError, ValueError):
        pass
    _resolve(None, None)


def _wrap_once(owner, name, marker, make):
    """Replaces `owner.name` by `make(original)`, once: the wrapper carries
    `marker`, so a second call (the header run again) keeps it."""
    original = getattr(owner, name, None)
    if original is None or getattr(original, marker, False):
        return
    wrapper = make(original)
    setattr(wrapper, marker, True)
    wrapper.__wrapped__ = original
    setattr(owner, name, wrapper)


def _resolve_at_init_process_group():
    import torch.distributed as dist

    def make(original):
        def init_process_group(*args, **kwargs):
            result = original(*args, **kwargs)
            _resolve(dist.get_rank(), dist.get_world_size())
            return result
        return init_process_group

    _wrap_once(dist, "init_process_group", "_detc_names_trace", make)


def _flush_before_destroying_the_group():
    """The writer thread checks consistency across ranks through the
    process group's c10d store: the script's destroy_process_group() first
    waits for it to finish the records put so far, so the thread never
    uses the group's store while (or after) the main thread tears it down
    — a race that once ended a run with "terminate called without an
    active exception"."""
    try:
        import torch.distributed as dist
    except ImportError:
        return

    def make(original):
        def destroy_process_group(*args, **kwargs):
            if TRACE.writer is not None:
                TRACE.writer.flush()
            return original(*args, **kwargs)
        return destroy_process_group

    _wrap_once(dist, "destroy_process_group", "_detc_flushes", make)


def _stop_checking_in_child():
    # A forked DataLoader worker: its calls are not the training step's.
    TRACE.needs = TRACE.direct = None
    TRACE.off = True


def _emit(record):
    if TRACE.deferred:
        # Records wait for the rank in memory: a script whose loop detc
        # does not see as one (no fetch, no step) takes the environment's
        # rank after a bounded number of them.
        TRACE.held += 1
        if TRACE.held > _Writer.LIMIT:
            _resolve_from_group()
    if TRACE.direct is not None:
        TRACE.direct.observe(record)
        return
    if TRACE.writer is None:
        return
    if os.getpid() != TRACE.pid:
        _emit_in_child(record)
        return
    TRACE.writer.put(record)


def _emit_in_child(record):
    """In a forked process (a DataLoader worker) the writer thread does not
    exist: the records go, written at once (workers end with os._exit),
    to a file of the process's own."""
    if TRACE.child is None or TRACE.child[0] != os.getpid():
        path = os.path.join(TRACE.directory, "trace.rank%d.jsonl" %
                            TRACE.rank) if TRACE.directory else None
        if path is None:
            TRACE.child = (os.getpid(), None)
        else:
            stem = path[:-len(".jsonl")]
            from . import output
            TRACE.child = (os.getpid(), output.open_stream(
                "%s.worker%d.jsonl" % (stem, os.getpid()), "trace"))
    f = TRACE.child[1]
    if f is not None:
        f.write(json.dumps(record, separators=(",", ":")) + "\n")
        f.flush()


def tensor_hash(t):
    data = t.detach()
    if data.device.type != "cpu":
        data = data.cpu()
    data = data.contiguous()
    try:
        raw = data.numpy()  # hashed in place, through the buffer protocol
    except TypeError:  # bfloat16 and friends: hash the raw storage
        raw = data.view(-1).view(__import__("torch").uint8).numpy()
    # SHA-1 (OpenSSL's, accelerated) is 2-3x faster than BLAKE2b here;
    # its first 64 bits identify a tensor's bytes well enough.
    return hashlib.sha1(raw.reshape(-1).view("uint8")).hexdigest()[:16]


def summary(value, result=False):
    """A value's SUMMARY; `result`: a call's result, with its range."""
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(value, torch.Tensor):
        s = {"type": "Tensor", "shape": list(value.shape),
             "dtype": str(value.dtype).replace("torch.", ""),
             "device": str(value.device), "hash": tensor_hash(value)}
        if result:
            r = _memory_range(value)
            if r is not None:
                s["finite"] = r[0]
                if r[1] is not None:
                    s["min"], s["max"] = r[1], r[2]
        else:
            finite = _finite(value)
            if finite is not None:
                s["finite"] = finite
        return s
    return {"type": type(value).__name__}


def _finite(value):
    """Whether every element of a floating tensor is finite (APIOutput);
    None for other values."""
    torch = sys.modules.get("torch")
    if torch is None or not isinstance(value, torch.Tensor) or \
            not value.is_floating_point():
        return None
    # A NaN or an infinity makes the sum one; a float64 sum of finite
    # float32 (or float16) values cannot overflow. Half the time of
    # isfinite().all().
    return math.isfinite(float(value.detach().sum(dtype=torch.float64)))


def _meta(record):
    torch = sys.modules.get("torch")
    record["epoch"] = TRACE.epoch
    record["step"] = TRACE.step
    record["rank"] = TRACE.rank
    record["grad_enabled"] = bool(torch.is_grad_enabled()) if torch else None
    # The other context manager that changes what a call computes:
    # autocast (CUDA's or the CPU's) — mixed precision.
    record["autocast"] = bool(torch.is_autocast_enabled() or
                              torch.is_autocast_cpu_enabled()) \
        if torch else None
    return record


# Calls traced as context only: records around what they do, which the
# relations do not read (`"context": true`), and which do not nest the
# calls inside them (a forward in the script's own `pgd_attack(...)` is
# still a top-level forward). Checking, they are not traced at all.
_CONTEXT_KINDS = frozenset(("function", "fetch"))


def _context_call(site, kind, name, fn, args, kwargs):
    if TRACE.needs is not None or TRACE.off:
        return fn(*args, **kwargs)
    _emit(_meta({"kind": "enter", "api": name, "call": kind, "site": site,
                 "context": True}))
    try:
        result = fn(*args, **kwargs)
    except BaseException as e:
        _emit(_meta({"kind": "exit", "api": name, "call": kind,
                     "site": site, "context": True,
                     "error": type(e).__name__}))
        raise
    leave = _meta({"kind": "exit", "api": name, "call": kind, "site": site,
                   "context": True})
    if isinstance(result, (list, tuple)):  # a batch: its parts
        leave["result"] = {"type": type(result).__name__,
                           "items": [summary(x) for x in result]}
    else:
        leave["result"] = summary(result, result=True)
    _emit(leave)
    return result


def batches(site, iterable):
    """The iterable of a training loop (`for x, y in loader:`): each batch's
    fetch is traced as a context record ("dataloader.next", its result the
    batch's summaries). Checking only, with tracing off, or over a range or
    a sequence (nothing is fetched), the iterable itself."""
    if TRACE.needs is not None or TRACE.off or \
            (TRACE.writer is None and TRACE.direct is None) or \
            isinstance(iterable, (range, list, tuple)):
        return iterable
    return Fetches(site, iterable)


class Fetches:
    """A loader whose iteration traces each fetch. Everything else is the
    loader's: its attributes are read and set through (the replay and hint
    runtimes read a keyed loader's sampler and generator, and set the
    loop's arity on it); `iterable` is the loader."""

    __slots__ = ("site", "iterable")

    def __init__(self, site, iterable):
        self.site, self.iterable = site, iterable

    def __iter__(self):
        return _fetches(self.site, self.iterable)

    def __len__(self):
        return len(self.iterable)

    def __getattr__(self, name):
        if name in Fetches.__slots__:  # not set yet (a copy being made)
            raise AttributeError(name)
        return getattr(self.iterable, name)

    def __setattr__(self, name, value):
        if name in Fetches.__slots__:
            object.__setattr__(self, name, value)
        else:
            setattr(self.iterable, name, value)


def _fetches(site, iterable):
    if TRACE.deferred:
        _resolve_from_group()
    it = iter(iterable)
    fetch = it.__next__
    while True:
        try:
            batch = _context_call(site, "fetch", "dataloader.next", fetch,
                                  (), {})
        except StopIteration:
            return
        yield batch


def step(site, epoch):
    """A training step begins (the first statement of a loop over
    batches)."""
    if TRACE.deferred:
        _resolve_from_group()
    if epoch != TRACE.epoch:
        TRACE.epoch = epoch
    TRACE.step += 1
    TRACE.step_apis = set()
    if TRACE.direct is not None:
        TRACE.direct.step_begins({"epoch": epoch, "step": TRACE.step})
        return
    _emit({"kind": "step", "epoch": _plain(epoch), "step": TRACE.step,
           "rank": TRACE.rank, "site": site})


def _module_index(module):
    """The module's number in this process, in the order first seen (the
    object is kept, so its id is never reused), and the sorted classes of
    its leaf layers (computed once)."""
    entry = TRACE.modules.get(id(module))
    if entry is None:
        entry = TRACE.modules[id(module)] = (
            module, "m%d" % len(TRACE.modules), _leaf_layers(module))
    return entry[1], entry[2]


def _leaf_layers(module):
    """The classes of the leaf layers that modules of the script's own
    classes hold directly (`self.drop = nn.Dropout(...)`): the layers whose
    calls the transform traced, since they are written in the script. A
    layer inside a library container or model (`nn.Sequential`, a
    torchvision ResNet) is called by library code, untraced, and is left
    out: EventContain would take it for a layer never run."""
    modules = getattr(module, "modules", None)
    if modules is None:
        return []
    held = set()
    for m in modules():
        if type(m).__module__ != "__main__":
            continue
        for child in m.children():
            if next(iter(child.children()), None) is None:
                held.add(_layer_class(child))
    return sorted(held)


def _layer_class(module):
    """The class name of a layer as the script wrote it: a keyed dropout
    (draws.KeyedDropout, a subclass the transform substitutes) is its
    library class, so traces of transformed and other scripts agree."""
    for kind in type(module).__mro__:
        if not kind.__module__.startswith("detc_runtime"):
            return kind.__name__
    return type(module).__name__


def _plain(value):
    return value if isinstance(value, (int, float, str, type(None))) \
        else repr(value)


def _part_api(module):
    """`forward:layer.CLASS` for a part a model's method calls (cached per
    type: a nested call's name is looked up at every call); a function
    called as one (`nn.parallel.data_parallel(self.main, x)`) by its own
    name."""
    name = _PART_APIS.get(type(module))
    if name is None:
        torch = sys.modules.get("torch")
        if torch is None or not isinstance(module, torch.nn.Module):
            return "forward:layer." + getattr(module, "__name__",
                                              type(module).__name__)
        name = _PART_APIS[type(module)] = \
            "forward:layer." + _layer_class(module)
    return name


_PART_APIS = {}  # type -> _part_api of its instances


def api(site, kind, name, fn, receiver=None, feeds=None):
    """`fn` with its entry and exit traced; `receiver`: the object whose
    method `fn` is, when detc could name it; `feeds`: the loss a model's
    result goes into (`nll`), which scopes bounds on it. A forward named
    `forward:layer` (a module a model class's method calls) is named by
    the class of `fn` inside another forward, and is the model itself when
    called from the training code (`model.predict(x)` calling
    `self.net(x)`); `forward:any` (a call of code detc could not read) is
    traced as a forward only if `fn` is a module."""
    if name == "forward:any":
        # A call of code detc could not read: a model's forward if `fn` is
        # a module, else no traced call at all.
        torch = sys.modules.get("torch")
        if torch is None or not isinstance(fn, torch.nn.Module):
            return fn
        name = "forward:layer"
    if name == "forward:layer":
        name = _part_api(fn) if TRACE.active else "forward:model"
    if kind in _CONTEXT_KINDS:
        return lambda *args, **kwargs: _context_call(site, kind, name, fn,
                                                     args, kwargs)

    def call(*args, **kwargs):
        needs = TRACE.needs
        if needs is not None:
            if TRACE.active and kind != "step":
                # A nested call (a layer inside the model), checked here,
                # without a function call more (twelve per PGD step). Only
                # APIAttr invariants and EventContain read nested calls:
                # the call's attributes are checked, and a layer class
                # EventContain names is noted for the enclosing forward's
                # exit (`ran`).
                if kind == "forward" and needs.layers:
                    layer = _LAYER_CLASSES.get(type(fn))
                    if layer is None:
                        layer = _LAYER_CLASSES[type(fn)] = _layer_class(fn)
                    if layer in needs.layers:
                        TRACE.ran.add(layer)
                if name in needs.attrs:
                    owner = fn if kind == "forward" else (
                        receiver if receiver is not None else
                        getattr(fn, "__self__", None))
                    key = (name, getattr(owner, "training", None),
                           needs.grad_enabled())
                    if key not in needs.checker.attrs_pass:
                        TRACE.at = site
                        needs.checker.call_attrs(*key)
                        TRACE.at = None
                return fn(*args, **kwargs)
            return _top_checked(site, needs, kind, name, fn, receiver,
                                args, kwargs, feeds)
        if TRACE.off:
            return fn(*args, **kwargs)
        owner = receiver if receiver is not None else \
            getattr(fn, "__self__", None)
        if kind == "forward":
            owner = fn
            if hasattr(fn, "named_parameters") and \
                    not isinstance(fn, type):
                TRACE.models.setdefault(id(fn), fn)
        training = getattr(owner, "training", None)
        enter = _named(_meta({"kind": "enter", "api": name, "call": kind,
                              "site": site, "training": training}), site)
        if feeds is not None:
            enter["feeds"] = feeds
        if kind == "forward" and not TRACE.active:
            # Which module object (the same through a DDP wrapper's name
            # and an evaluation helper's parameter): TrainBeforeEval; the
            # classes of its leaf layers: EventContain.
            enter["module"], layers = _module_index(fn)
            if layers:
                enter["layers"] = layers
            TRACE.ran = set()
        elif kind == "forward":
            enter["layer"] = _layer_class(fn)
        enter["args"] = [summary(a) for a in args]
        if not TRACE.active:
            TRACE.step_apis.add(name)
        _emit(enter)
        TRACE.active += 1
        try:
            result = fn(*args, **kwargs)
        except BaseException as e:
            _emit(_meta({"kind": "exit", "api": name, "call": kind,
                         "site": site, "error": type(e).__name__}))
            raise
        finally:
            TRACE.active -= 1
        leave = _named(_meta({"kind": "exit", "api": name, "call": kind,
                              "site": site,
                              "training": getattr(owner, "training", None)}),
                       site)
        if feeds is not None:
            leave["feeds"] = feeds
        leave["result"] = summary(result, result=True)
        _emit(leave)
        if kind == "step" and owner is not None:
            _state(owner)
        return result
    return call


# torch.is_grad_enabled and torch.Tensor once torch is loaded (the runtime
# imports it; the lookups through sys.modules were per call).
_IS_GRAD_ENABLED = _TENSOR = None


def _grad_enabled():
    global _IS_GRAD_ENABLED
    if _IS_GRAD_ENABLED is None:
        torch = sys.modules.get("torch")
        if torch is None:
            return None
        _IS_GRAD_ENABLED = torch.is_grad_enabled
    return _IS_GRAD_ENABLED()


def _tensor_class():
    global _TENSOR
    if _TENSOR is None:
        torch = sys.modules.get("torch")
        if torch is None:
            return ()
        _TENSOR = torch.Tensor
    return _TENSOR


def _top_checked(site, needs, kind, name, fn, receiver, args, kwargs,
                 feeds):
    """A call at the top level when checking without a trace file: the
    checker gets what its invariants read about it — the call's training
    and grad_enabled, the module and its layers (a forward), the first
    argument's hash (APIArg distinct, a step's first call), dtype and shape
    (APIArg consistent), whether the result is finite (APIOutput), the
    layers it ran (EventContain) — and nothing else."""
    checker = needs.checker
    plan = needs.plans.get(name)
    if plan is None:
        plan = needs.plan(name)
    contains, first_arg_hash, inputs, bounds_read, finite_read = plan
    owner = receiver if receiver is not None else \
        getattr(fn, "__self__", None)
    module = layers = None
    if kind == "forward":
        owner = fn
        if id(fn) not in TRACE.models and \
                hasattr(fn, "named_parameters") and not isinstance(fn, type):
            TRACE.models[id(fn)] = fn
        # The module and its layers only for the relations that read them
        # (TrainBeforeEval, EventContain, APIArg consistent: per module).
        if needs.modules or contains or inputs:
            module, layers = _module_index(fn)
            TRACE.ran = set()
    arg_hash = dtype = shape = None
    if (first_arg_hash or inputs) and args and \
            isinstance(args[0], _tensor_class()):
        first = args[0]
        # APIArg (distinct) reads the first argument of a step's first
        # call only; APIArg (consistent) its dtype and shape at every
        # top-level call.
        if first_arg_hash and name not in TRACE.step_apis:
            TRACE.step_apis.add(name)
            arg_hash = _memory_hash(first)
        if inputs:
            # Compared as objects; text only in a report.
            dtype, shape = first.dtype, first.shape
    grad_enabled = needs.grad_enabled
    TRACE.at = site
    checker.top_enter(name, getattr(owner, "training", None),
                      grad_enabled(), module, layers, arg_hash, dtype, shape)
    TRACE.at = None
    TRACE.active += 1
    try:
        result = fn(*args, **kwargs)
    except BaseException:
        TRACE.active -= 1
        TRACE.at = site
        checker.top_exit(name, getattr(owner, "training", None),
                         grad_enabled(), True, None, ())
        TRACE.at = None
        raise
    TRACE.active -= 1
    training, enabled = getattr(owner, "training", None), grad_enabled()
    finite = bounds = None
    if bounds_read:
        r = _memory_range(result)
        if r is not None:
            finite, bounds = r[0], r[1:] if r[1] is not None else None
    elif finite_read:
        finite = _memory_finite(result)
    TRACE.at = site
    checker.top_exit(name, training, enabled, False, finite,
                     TRACE.ran if contains else (), bounds=bounds,
                     feeds=feeds)
    TRACE.at = None
    if kind == "step" and owner is not None:
        if needs.hashes:
            _state(owner)  # the ranks exchange the state record's hashes
        else:
            _state_checked(owner, checker, needs.updates)
    return result


# torch's floating dtypes -> the element kinds of _core.memory_all_finite.
_FLOAT_KINDS = {}


def _contiguous_cpu(t):
    torch = sys.modules["torch"]
    try:
        return t.is_cpu and t.layout is torch.strided and t.is_contiguous()
    except RuntimeError:
        return False


def _memory_kind(value):
    """The element kind of TensorMemory.h for a contiguous CPU tensor of a
    floating dtype it reads; None for any other tensor."""
    if not _FLOAT_KINDS:
        torch = sys.modules["torch"]
        _FLOAT_KINDS.update({torch.float32: 0, torch.float64: 1,
                             torch.float16: 2, torch.bfloat16: 3})
    kind = _FLOAT_KINDS.get(value.dtype)
    return kind if kind is not None and _contiguous_cpu(value) else None


def _memory_finite(value):
    """_finite, read from the tensor's memory when it is a contiguous CPU
    tensor (one C++ call instead of three torch operations; runtime
    TensorMemory.h)."""
    if not isinstance(value, _tensor_class()):
        return None
    kind = _memory_kind(value)
    if kind is None:
        return _finite(value)
    return _core.memory_all_finite(value.data_ptr(), value.numel(), kind)


def _memory_range(value):
    """(finite, least, greatest) of a floating tensor's elements, read from
    its memory when it is a contiguous CPU tensor (TensorMemory.h
    valueRange); least and greatest None when an element is not finite or
    it has none. None for any other value."""
    if not isinstance(value, _tensor_class()) or \
            not value.is_floating_point():
        return None
    kind = _memory_kind(value)
    if kind is not None:
        return _core.memory_range(value.data_ptr(), value.numel(), kind)
    finite = _finite(value)
    if not finite or value.numel() == 0:
        return (finite, None, None)
    # float64 holds every floating dtype's values exactly, and torch has
    # no CPU min/max for float16.
    v = value.detach().to(sys.modules["torch"].float64)
    return (True, float(v.min()), float(v.max()))


def _memory_hash(t):
    """A hash of the tensor's bytes for comparisons within this process
    (APIArg: the same batch again): XXH3-64 of a contiguous CPU tensor's
    memory (of a contiguous CPU copy for any other strided tensor)."""
    if not _contiguous_cpu(t):
        torch = sys.modules["torch"]
        if t.layout is not torch.strided:
            return tensor_hash(t)
        t = t.detach().cpu().contiguous()
    return _core.memory_hash(t.data_ptr(), t.numel() * t.element_size())


def _state_checked(optimizer, checker, updates):
    """_state when checking without a trace file and no invariant compares
    ranks: each parameter's ParamUpdate/ParamAttr facts go to the checker
    directly, without a record (a record per parameter was a sixth of the
    checking's cost per step)."""
    groups = getattr(optimizer, "param_groups", None)
    if groups is None:
        return
    if checker.params:
        passing = checker.flags_pass
        versions = TRACE.last_version
        for p, key, name, g, held in _state_plan(optimizer, groups):
            changed = None
            if updates:
                # _changed's common case inline: an in-place write since
                # the last step (the optimizer's update) is a change.
                version = p._version
                last = versions.get(key)
                if last is not None and last != version:
                    versions[key] = version
                    TRACE.last_data.pop(key, None)
                    changed = True
                else:
                    changed = _changed(p, key, None)
            has_grad = p.grad is not None
            requires_grad = bool(p.requires_grad)
            if (requires_grad, held) in passing and \
                    not (changed is False and has_grad):
                continue  # nothing to check (Checker.param)
            lr = groups[g].get("lr") if held else None
            checker.param(name, changed, has_grad,
                          lambda p=p, lr=lr: _update_expected(p, lr),
                          requires_grad, held)
    checker.lrs(TRACE.epoch, [g.get("lr") for g in groups])


def _state_plan(optimizer, groups):
    """The parameters _state_checked reports, as (parameter, id, name,
    group, held by the optimizer): those the optimizer holds, then those of
    the models that ran forwards; computed once per epoch (as
    _model_params), or when a model or a parameter group is added."""
    stamp = (TRACE.epoch, len(TRACE.models), len(groups))
    cached = TRACE.state_plans.get(id(optimizer))
    if cached is not None and cached[0] == stamp:
        return cached[1]
    model_params = _model_params()  # and TRACE.names
    plan, seen = [], set()
    for g, group in enumerate(groups):
        for i, p in enumerate(group["params"]):
            seen.add(id(p))
            key = "g%d.p%d" % (g, i)
            plan.append((p, key, TRACE.names.get(id(p), key), g, True))
    for name, p in model_params:
        if id(p) not in seen:
            seen.add(id(p))
            key = "model:" + name
            plan.append((p, key, TRACE.names.get(id(p), key), None, False))
    TRACE.state_plans[id(optimizer)] = (stamp, plan)
    return plan


_LAYER_CLASSES = {}  # type -> _layer_class of its instances


class _Needs:
    """What the invariants of an online check read (checking without a
    trace file traces only that): the APIs they name, and whether they
    need parameter hashes and expected updates."""

    def __init__(self, invariants, checker):
        self.checker = checker
        # torch.is_grad_enabled, bound once (the runtime has imported
        # torch): called at every checked call.
        self.grad_enabled = sys.modules["torch"].is_grad_enabled
        self.apis = set()
        self.outputs, self.args = set(), set()  # APIOutput, APIArg
        self.bounds = set()  # APIOutput bounds: their results' ranges
        self.inputs = set()  # APIArg consistent: dtype and shape
        self.layers = set()  # EventContain: nested forwards of these
        self.contains = set()  # EventContain: forwards that hold them
        self.attrs = set()  # APIs with APIAttr invariants
        for inv in invariants:
            if inv["relation"] == "EventContain":
                self.layers.add(inv["b"])
                self.contains.add(inv["a"])
            if inv["relation"] == "APIAttr":
                self.attrs.add(inv["a"])
            if inv["relation"] in ("APISequence", "APIAttr", "APIOutput",
                                   "APIArg"):
                self.apis.update(x for x in (inv.get("a"), inv.get("b"))
                                 if x)
            if inv["relation"] == "APIOutput":
                self.outputs.add(inv["a"])
                if inv.get("attr") == "range":
                    self.bounds.add(inv["a"])
            if inv["relation"] == "APIArg":
                (self.inputs if inv.get("attr") else self.args).add(inv["a"])
        self.first_args = self.args | self.inputs
        self.plans = {}  # API -> plan()
        relations = {inv["relation"] for inv in invariants}
        # Consistent compares the ranks' parameter hashes; ParamUpdate alone
        # hashes a parameter only when no in-place write touched it since
        # the previous step (_changed).
        self.hashes = "Consistent" in relations
        self.updates = "ParamUpdate" in relations
        self.modules = "TrainBeforeEval" in relations


    def plan(self, name):
        """What a top-level call of API `name` must read, as (EventContain:
        its module's layers and the layers it runs, APIArg distinct: its
        first argument's hash, APIArg consistent: the argument's dtype and
        shape, APIOutput bounds: its result's range, APIOutput: whether
        its result is finite): looked up once per API, not per call."""
        plan = self.plans[name] = (
            name in self.contains, name in self.args, name in self.inputs,
            name in self.bounds, name in self.outputs)
        return plan


def _model_params():
    """Every model's (name, parameter) pairs, and TRACE.names, computed
    once per epoch (and when a model is first seen): walking the module
    tree at every step (named_parameters twice) cost more than the rest of
    the state record. A parameter a model gains within an epoch (a lazy
    module) is recorded from the next one on."""
    key = (TRACE.epoch, len(TRACE.models))
    if TRACE.params_key == key:
        return TRACE.model_params
    TRACE.params_key = key
    TRACE.model_params = []
    TRACE.model_of = {}
    for model in TRACE.models.values():
        named = getattr(model, "named_parameters", None)
        if named is None:
            continue
        for n, p in named():
            TRACE.model_params.append((n, p))
            TRACE.model_of.setdefault(id(p), id(model))
            # The most qualified name wins (the model's, not a layer's).
            if len(n) > len(TRACE.names.get(id(p), "")):
                TRACE.names[id(p)] = n
    return TRACE.model_params


def _models_of_other_optimizers(optimizer):
    """The models (ids) one of whose parameters an optimizer other than
    `optimizer` holds; computed once per epoch and optimizer (like
    _model_params: a walk over every parameter at every step costs)."""
    key = (TRACE.params_key, id(optimizer), len(TRACE.optimizers))
    cached = TRACE.other_models.get(id(optimizer))
    if cached is not None and cached[0] == key:
        return cached[1]
    out = set()
    for other in list(TRACE.optimizers):
        if other is optimizer:
            continue
        for group in getattr(other, "param_groups", ()):
            for p in group["params"]:
                model = TRACE.model_of.get(id(p))
                if model is not None:
                    out.add(model)
    TRACE.other_models[id(optimizer)] = (key, out)
    return out


def _register_optimizers():
    """Every optimizer made from here on is known to the trace (wraps
    torch.optim.Optimizer.__init__, which every optimizer's runs)."""
    try:
        import torch.optim
    except ImportError:
        return

    def make(original):
        def __init__(self, *args, **kwargs):
            original(self, *args, **kwargs)
            TRACE.optimizers.add(self)
        return __init__

    _wrap_once(torch.optim.Optimizer, "__init__", "_detc_registers", make)


def _update_expected(p, lr):
    """Whether a step with this gradient visibly changes the parameter:
    lr * max|grad| above the float32 resolution of max|p| (a bias before a
    BatchNorm gets gradients of 1e-10: its SGD update underflows). Without
    a learning rate (no optimizer holds it): any nonzero gradient."""
    if p.grad is None:
        return False
    g = float(p.grad.detach().abs().max())
    if lr is None:
        return g > 0
    return float(lr) * g > 2.0 ** -23 * float(p.detach().abs().max())


def _changed(p, key, data):
    """Whether parameter `p` changed since the previous optimizer step
    (None: not known yet). With its hash `data` (tracing, or Consistent
    invariants), by hash. Otherwise, when checking ParamUpdate alone, by
    its version counter first: an in-place write since the last step (every
    torch optimizer's update) counts as a change without hashing 280 KB of
    parameters at every step; only a parameter no in-place write touched
    is hashed — a `p.data.add_()` update does not bump the counter, so
    such optimizers are still judged by hash (from their second step)."""
    if data is None:
        version = p._version
        last = TRACE.last_version.get(key)
        TRACE.last_version[key] = version
        if last is not None and last != version:
            TRACE.last_data.pop(key, None)  # the hash is stale now
            return True
        data = tensor_hash(p)
    last = TRACE.last_data.get(key)
    TRACE.last_data[key] = data
    return None if last is None else last != data


def _state(optimizer):
    """After an optimizer step: every parameter it holds, and every
    parameter of the models the trace saw run a forward (those no
    optimizer holds have in_optimizer false)."""
    groups = getattr(optimizer, "param_groups", None)
    if groups is None:
        return
    model_params = _model_params()
    params, seen = [], set()

    needs = TRACE.needs
    hashes = needs is None or needs.hashes
    updates = needs is None or needs.updates

    def record(p, g, fallback, held, lr):
        seen.add(id(p))
        entry = {
            # Identity: the place in the optimizer (the same on every rank
            # and run), else the name in the model.
            "id": fallback,
            "name": TRACE.names.get(id(p), fallback),
            "data": tensor_hash(p) if hashes else ""}
        changed = None
        if updates:
            changed = _changed(p, fallback, entry["data"] if hashes else None)
            if needs is not None:
                entry["changed"] = changed
        entry.update({
            # No relation reads the gradient's hash: not computed when
            # checking.
            "grad": (tensor_hash(p.grad) if needs is None else "")
            if p.grad is not None else None,
            # When checking, update_expected matters only for a parameter
            # that did not change (ParamUpdate): its two reductions run
            # only then.
            "update_expected": _update_expected(p, lr)
            if needs is None or changed is False else True,
            "requires_grad": bool(p.requires_grad), "group": g,
            "in_optimizer": held})
        params.append(entry)

    for g, group in enumerate(groups):
        for i, p in enumerate(group["params"]):
            record(p, g, "g%d.p%d" % (g, i), True, group.get("lr"))
    # A model none of whose parameters this optimizer holds, stepped by
    # another optimizer (a GAN's generator, seen from the discriminator's
    # optimizer), is not this one's: its parameters are not listed here
    # (they would all read in_optimizer false). A model no optimizer steps
    # is listed (an optimizer built over another model's parameters).
    mine = {TRACE.model_of.get(i) for i in seen}
    theirs = _models_of_other_optimizers(optimizer)
    for name, p in model_params:
        if id(p) not in seen:
            model = TRACE.model_of.get(id(p))
            if model not in mine and model in theirs:
                continue
            record(p, None, "model:" + name, False, None)
    _emit(_meta({"kind": "state", "params": params,
                 "lrs": [g.get("lr") for g in groups]}))

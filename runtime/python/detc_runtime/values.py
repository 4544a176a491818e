"""The values detc saves beside a checkpoint, as JSON (no pickle).

A transformed script saves the variables fast-forward cannot re-derive
(a running loss, a best accuracy, a noise buffer) and, when skipped work
advanced them, generator states. Each value becomes one JSON object:

  {"py": v}                      None, bool, int, str
  {"float": "0x1.8p+1"}          float, exactly (float.hex)
  {"list": [...], "tuple": b}    list or tuple of encodable values
  {"dict": [[k, v], ...]}        dict with encodable keys and values
  {"tensor": B64, "dtype", "shape", "requires_grad"}   CPU copy of a tensor
  {"ndarray": B64, "dtype", "shape"}                   numpy array or scalar
  {"state_dict": v, "training"?} an object with state_dict/load_state_dict
                                 (optimizer, scheduler, module): its state,
                                 loaded back into the script's own object
                                 (a module's train/eval modes too)
  {"sampler_epoch": e}           a DistributedSampler: the epoch set_epoch()
                                 gave it, set again on the script's own one
  {"object": "MODULE:QUALNAME", "id": n, "fields": {"dict": ...}}
                                 an object of the script's own class that
                                 holds plain data only (plain(): a meter's
                                 sums, a progress printer over meters): its
                                 fields, put back into the script's own
                                 object (and the objects it holds) in place
  {"loader_iterator": {"site", "epoch", "step", "samples", "start",
                       "shape"}}
                                 an iterator over a keyed DataLoader kept
                                 across the loops (`next(it)` per step):
                                 its position and its loader's generator
                                 state when it was made, its dataset length
                                 and batch size; the restart makes the
                                 script's iterator again there (exit 3 if
                                 the loader's shape differs now)
  {"sink": "MODULE.QUALNAME"}     an output-only object (sinks.py: a
                                 progress bar, a TensorBoard writer, a
                                 logger): not saved; the restore keeps
                                 the one fast-forward built
  {"parameter": [variable, name]}  a parameter of a module a variable of
                                 the checkpoint's frame holds (a dict keyed
                                 by them: awd-lstm-lm's `tmp[prm] =
                                 prm.data.clone()`): the restore takes the
                                 run's own parameter there, never a copy
                                 (Parameters)
  {"tensor_ref": i, "requires_grad", "grad"?}   with a tensor list: the
                                 tensor is element i of the list (hint
                                 checkpoints keep tensors in a torch file
                                 beside the JSON; a leaf's grad goes along)

Anything else (a file, a model object) raises UnsavableValue naming it.
"""
import base64
import collections
import inspect
import random
import sys
import types
import weakref

import numpy as np
import torch
import torch.utils.data.distributed

from . import sinks


class UnsavableValue(Exception):
    pass


class Mismatch(UnsavableValue):
    """A saved value that does not fit the restarted run (a loader with
    another batch size): the run cannot continue as it was (exit 3)."""


def _b64(array):
    return base64.b64encode(np.ascontiguousarray(array).tobytes()).decode(
        "ascii")


def _array(encoded):
    raw = base64.b64decode(encoded["ndarray" if "ndarray" in encoded
                                   else "tensor"])
    dtype = np.dtype(encoded["dtype"])
    return np.frombuffer(raw, dtype=dtype).reshape(encoded["shape"]).copy()


_PLAIN = (int, float, complex, str, bytes, bool, type(None))
_LIBRARIES = ("torch", "numpy", "builtins")


def _own_class(kind):
    return kind.__module__.split(".")[0] not in _LIBRARIES


def plain(value, depth=4):
    """Whether `value` holds only plain data — numbers, strings, and
    lists, tuples, dicts and objects of the script's classes holding such
    (a meter's sums and counts, a progress printer over meters) — small
    enough to copy at every JIT boundary: no tensor, module or other
    object whose copy could be costly or wrong."""
    if isinstance(value, _PLAIN):
        return True
    if depth == 0:
        return False
    if isinstance(value, (list, tuple, set, frozenset, collections.deque)):
        return len(value) <= 64 and all(plain(v, depth - 1) for v in value)
    if isinstance(value, dict):
        return len(value) <= 64 and all(
            plain(k, depth - 1) and plain(v, depth - 1)
            for k, v in value.items())
    fields = getattr(value, "__dict__", None)
    if type(fields) is not dict or len(fields) > 64 or \
            not _own_class(type(value)):
        return False
    return all(plain(v, depth - 1) for v in fields.values())


# The fields torch's Optimizer keeps its own state in, which its
# state_dict() covers (`defaults`: the configuration its constructor got).
_BASE_FIELDS = frozenset(("defaults", "state", "param_groups"))


def state_beyond(value):
    """[(field, value)] of an object of the script's classes that its
    state_dict(), inherited from a library class, does not hold: what the
    script's subclass added — another optimizer it wraps (SAM's
    `base_optimizer`, whose momentum buffers SAM's state_dict leaves out),
    tensors (alone, or in a list, tuple or dict), a counter. Saved and restored with the state_dict, and
    digested with it (fingerprint.py): a class that writes its own
    state_dict() is taken at its word. Only an optimizer's: a module's
    other fields are mostly the configuration its constructor got (a
    resume with more epochs must not get the old count back), and a
    scheduler's state_dict() holds all its fields but the optimizer (which
    would be saved twice)."""
    kind = type(value)
    if not _own_class(kind) or not isinstance(value, torch.optim.Optimizer):
        return []
    for base in kind.__mro__:
        if "state_dict" in base.__dict__:
            if _own_class(base):
                return []
            break
    else:
        return []  # no state_dict() at all
    fields = getattr(value, "__dict__", None)
    if type(fields) is not dict:
        return []
    out = []
    for key, field in fields.items():
        if key.startswith("_") or key in _BASE_FIELDS:
            continue
        if isinstance(field, torch.Tensor) or plain(field) or \
                _tensors_in(field) or (
                callable(getattr(field, "state_dict", None)) and
                callable(getattr(field, "load_state_dict", None)) and
                not isinstance(field, torch.nn.Module)):
            out.append((key, field))
    return out


def _tensors_in(value):
    """Whether `value` is a list, tuple or dict of tensors (a Lookahead's
    slow weights kept as `self.slow = [p.clone() for p in ...]`)."""
    if isinstance(value, (list, tuple)):
        items = value
    elif isinstance(value, dict):
        items = value.values()
    else:
        return False
    return len(value) > 0 and all(isinstance(v, torch.Tensor) for v in items)


def own_object(value):
    """Whether `value` may hold state beyond its state_dict() (a cheap
    test before state_beyond()): an optimizer of the script's classes."""
    return isinstance(value, torch.optim.Optimizer) and \
        _own_class(type(value))


def encode_beyond(value, what="value", tensors=None):
    """What state_beyond() finds in `value`, as JSON, with what those
    fields share with `value` (SAM and the base optimizer it wraps share
    `param_groups`); None when there is nothing. The sharing is read here,
    where it is intact: each load_state_dict() gives its optimizer a copy
    of its own, and a restore sets it up again (restore_beyond)."""
    beyond = state_beyond(value)
    if not beyond:
        return None
    own = {id(v): k for k, v in value.__dict__.items()
           if not isinstance(v, _PLAIN)}
    shared = []
    for name, field in beyond:
        inner = getattr(field, "__dict__", None)
        if type(inner) is dict:
            shared += [[name, k, own[id(v)]] for k, v in inner.items()
                       if id(v) in own]
    return {"beyond": [[k, encode(v, "%s.%s" % (what, k), tensors)]
                       for k, v in beyond],
            "shared": shared}


def restore_beyond(obj, encoded, tensors=None):
    """Restores what encode_beyond() saved into `obj` (after its
    state_dict): each field into the object `obj` has, then what they
    shared with `obj` shared again."""
    for name, field in encoded["beyond"]:
        old = obj.__dict__.get(name)
        new = decode(field, lambda: obj.__dict__.get(name), tensors)
        obj.__dict__[name] = _into(old, new)
    for name, attr, outer in encoded.get("shared") or ():
        inner = getattr(obj.__dict__.get(name), "__dict__", None)
        if type(inner) is dict and outer in obj.__dict__:
            inner[attr] = obj.__dict__[outer]


def _class_name(kind):
    return "%s:%s" % (kind.__module__, kind.__qualname__)


class Parameters:
    """While the values of a checkpoint are encoded, or decoded at its
    restore: the parameters of the modules the variables of the frame
    where it happens hold (its locals, then its globals), by variable and
    parameter name. A saved value holding one refers to it by those: a
    copy would be another tensor, and a dict keyed by parameters (looked
    up by identity) would miss every key after the restore."""

    active = None

    def __init__(self, frame):
        self.frame = frame
        self._by_ref = None

    def by_ref(self):
        if self._by_ref is None:
            self._by_ref = {}
            scopes = () if self.frame is None else (self.frame.f_locals,
                                                    self.frame.f_globals)
            seen = set()
            for scope in scopes:
                for var, value in list(scope.items()):
                    if var in seen:
                        continue
                    seen.add(var)
                    if isinstance(value, torch.nn.Module):
                        for name, p in value.named_parameters():
                            self._by_ref.setdefault((var, name), p)
            self._by_id = {}
            for ref, p in self._by_ref.items():
                self._by_id.setdefault(id(p), list(ref))
        return self._by_ref

    def ref_of(self, p):
        self.by_ref()
        return self._by_id.get(id(p))

    def __enter__(self):
        Parameters.active = self
        return self

    def __exit__(self, *exc):
        Parameters.active = None


def encode(value, what="value", tensors=None):
    """`value` as JSON. With a list `tensors`, tensors are appended to it
    (any dtype, exact) and referred to by index."""
    if isinstance(value, torch.nn.Parameter) and \
            Parameters.active is not None:
        ref = Parameters.active.ref_of(value)
        if ref is not None:
            return {"parameter": ref}
    if tensors is not None and isinstance(value, torch.Tensor):
        encoded = {"tensor_ref": len(tensors),
                   "requires_grad": bool(value.requires_grad)}
        tensors.append(value.detach().cpu())
        if value.is_leaf and value.grad is not None:
            encoded["grad"] = encode(value.grad, what + ".grad", tensors)
        return encoded
    if value is None or isinstance(value, (bool, int, str)):
        return {"py": value}
    if isinstance(value, float):
        return {"float": value.hex()}
    if isinstance(value, (list, tuple)):
        return {"list": [encode(v, what, tensors) for v in value],
                "tuple": isinstance(value, tuple)}
    if isinstance(value, collections.deque):
        # DeiT's, DETR's and MAE's SmoothedValue keep their window so.
        return {"deque": [encode(v, what, tensors) for v in value],
                "maxlen": value.maxlen}
    if isinstance(value, dict):
        return {"dict": [[encode(k, what, tensors), encode(v, what, tensors)]
                         for k, v in value.items()]}
    if isinstance(value, torch.Tensor):
        t = value.detach().cpu().contiguous()
        if t.dtype == torch.bfloat16:  # numpy has no bfloat16
            raise UnsavableValue("%s is a bfloat16 tensor" % what)
        array = t.numpy()
        return {"tensor": _b64(array), "dtype": array.dtype.str,
                "shape": list(t.shape),
                "requires_grad": bool(value.requires_grad)}
    if isinstance(value, torch.device):
        # Where a loader or a module puts its tensors (timm's
        # PrefetchLoader keeps its `device`): a name that makes it again.
        return {"torch_device": str(value)}
    if isinstance(value, torch.dtype):
        return {"torch_dtype": str(value)}
    if isinstance(value, (np.ndarray, np.generic)):
        array = np.asarray(value)
        if array.dtype.hasobject:
            raise UnsavableValue("%s is a numpy array of objects" % what)
        return {"ndarray": _b64(array), "dtype": array.dtype.str,
                "shape": list(array.shape), "scalar": np.isscalar(value)}
    if isinstance(value, _GENERATORS):
        # A generator object a variable holds (one the analysis saw change
        # through code it does not read): its state, restored into the one
        # the setup made again.
        return {"generator_state": encode(generator_state(value), what,
                                          tensors)}
    if callable(getattr(value, "state_dict", None)) and callable(
            getattr(value, "load_state_dict", None)):
        encoded = {"state_dict": encode(value.state_dict(), what, tensors)}
        if isinstance(value, torch.nn.Module):
            # train()/eval() modes are not in the state_dict.
            encoded["training"] = [m.training for m in value.modules()]
        encoded.update(encode_beyond(value, what, tensors) or {})
        return encoded
    if isinstance(value, torch.utils.data.distributed.DistributedSampler):
        # Its state between epochs is the epoch set_epoch() gave it (the
        # shard and the seed come from the setup that builds it again).
        return {"sampler_epoch": int(value.epoch)}
    if getattr(type(value), "_detc_position", None) is not None:
        # An iterator over a keyed loader the script keeps across its loops
        # (`next(it)` per step): where it stands (data.LoaderPosition).
        return {"loader_iterator": _encode_position(value._detc_position(),
                                                    what, tensors)}
    if isinstance(value, types.GeneratorType):
        value = generator_at(value, what)
    if isinstance(value, GeneratorAt):
        return {"loader_generator": {
            "function": value.gen.gi_code.co_name,
            "position": None if value.position is None else
            _encode_position(value.position, what, tensors)}}
    if sinks.is_sink(value):
        # Output only (a progress bar, a TensorBoard writer, a logger): the
        # one fast-forward builds again is the one a resumed run uses.
        return {"sink": sinks.name_of(value)}
    if not isinstance(value, (set, frozenset)) and \
            type(getattr(value, "__dict__", None)) is dict and plain(value):
        return {"object": _class_name(type(value)), "id": id(value),
                "fields": encode(dict(value.__dict__), what, tensors)}
    if isinstance(value, FieldsView):
        return _encode_fields(value.obj, what, tensors, value.fields)
    if not isinstance(value, (set, frozenset)) and \
            type(getattr(value, "__dict__", None)) is dict and \
            _own_class(type(value)):
        return _encode_fields(value, what, tensors)
    raise UnsavableValue("%s (a %s) cannot be saved" %
                         (what, type(value).__name__))


def _encode_position(pos, what, tensors):
    saved = {
        "site": pos.site, "epoch": int(pos.epoch), "step": int(pos.step),
        "samples": int(pos.samples),
        "start": encode(pos.start, what, tensors),
        "shape": dict(pos.shape)}
    if getattr(pos, "origin", None) is not None:
        saved["origin"] = encode(pos.origin, what, tensors)
    return saved


# ---- Generators that repeat a loader ----------------------------------------

class GeneratorAt:
    """A generator that repeats a keyed loader (`def sample_data(loader):
    while True: for batch in loader: yield batch`) as some moment saw it:
    where its loader's iteration stood (None: not started). Its frame holds
    nothing else, so that position is its whole state: a restart makes the
    generator again (the setup does) and starts the loader's iteration
    there (KeyedDataLoader._detc_armed)."""

    def __init__(self, gen, position):
        self.gen, self.position = gen, position

    @property
    def _detc_view_of(self):
        # fingerprint.py digests the generator it stands for.
        return self.gen


def _repeated_loader(gen, what="value"):
    """The keyed loader generator `gen` repeats; UnsavableValue when it is
    not of that shape (its one argument a keyed loader, no other state
    than the item it yields)."""
    code = gen.gi_code
    if code.co_argcount != 1 or code.co_nlocals > 2 or code.co_flags & (
            inspect.CO_VARARGS | inspect.CO_VARKEYWORDS) or code.co_freevars:
        raise UnsavableValue(
            "%s (a generator of %s) cannot be saved: only a generator that "
            "repeats one loader (`while True: for batch in loader: yield "
            "batch`) can" % (what, code.co_name))
    frame = gen.gi_frame
    loader = None if frame is None else frame.f_locals.get(code.co_varnames[0])
    if not callable(getattr(loader, "_detc_iter_at", None)):
        raise UnsavableValue(
            "%s (a generator of %s) %s" % (what, code.co_name,
                                           "has finished" if frame is None
                                           else "does not repeat a "
                                           "DataLoader detc keyed"))
    return loader


def generator_at(gen, what="value"):
    """`gen` (of the repeating shape) with where its loader stands now."""
    loader = _repeated_loader(gen, what)
    if inspect.getgeneratorstate(gen) == inspect.GEN_CREATED:
        return GeneratorAt(gen, None)
    latest = getattr(loader, "_detc_latest", None)
    it = latest() if latest is not None else None
    if it is None:
        raise UnsavableValue("%s (a generator of %s): its loader has no "
                             "iteration to save" % (what, gen.gi_code.co_name))
    return GeneratorAt(gen, it._detc_position())


def armed_at(gen):
    """A repeating generator a restart made again and armed
    (_decode_generator) that has not started: as generator_at would see
    it once started, its loader where the restart put it; None for any
    other value."""
    if not isinstance(gen, types.GeneratorType) or \
            inspect.getgeneratorstate(gen) != inspect.GEN_CREATED:
        return None
    try:
        loader = _repeated_loader(gen)
    except UnsavableValue:
        return None
    armed = loader.__dict__.get("_detc_armed")
    if armed is None:
        return None
    return GeneratorAt(gen, types.SimpleNamespace(**dict(
        armed, site=getattr(loader, "_detc_site", None),
        shape=armed.get("shape") or {})))


def _decode_generator(saved, current, tensors):
    gen = current() if current is not None else None
    if not isinstance(gen, types.GeneratorType) or \
            gen.gi_code.co_name != saved["function"]:
        raise UnsavableValue(
            "the checkpointed run's generator of %s is made by the setup, "
            "which made %s here" % (saved["function"], "none" if gen is None
                                    else "a %s" % type(gen).__name__))
    if inspect.getgeneratorstate(gen) != inspect.GEN_CREATED:
        raise Mismatch("the generator of %s has started already where the "
                       "restart restores it" % saved["function"])
    loader = _repeated_loader(gen)
    pos = saved["position"]
    if pos is not None:
        if getattr(loader, "_detc_site", None) != pos["site"]:
            raise Mismatch("the generator of %s repeats the DataLoader at "
                           "site %s, in the checkpointed run the one at site "
                           "%s" % (saved["function"],
                                   getattr(loader, "_detc_site", "?"),
                                   pos["site"]))
        origin = pos.get("origin")
        loader._detc_armed = dict(
            epoch=int(pos["epoch"]), step=int(pos["step"]),
            samples=int(pos["samples"]),
            start=decode(pos["start"], None, tensors), shape=pos.get("shape"),
            origin=None if origin is None else decode(origin, None, tensors))
    return gen


class FieldsView:
    """An object's fields as some moment saw them (a JIT boundary: jit.py),
    saved as the object's (_encode_fields)."""

    def __init__(self, obj, fields):
        self.obj, self.fields = obj, fields

    @property
    def _detc_view_of(self):
        # fingerprint.py digests the object it stands for (by its type).
        return self.obj


def _encode_fields(value, what, tensors, fields=None):
    """An object of the script's classes holding more than plain data
    (minGPT's Trainer: its model, optimizer, dataset, step counter and the
    callbacks the script registered on it), field by field. A field that
    cannot be saved but is the setup's — code (functions, methods,
    classes, the callbacks registered), a dataset or a loader, or
    containers of those — is kept as the restarted run's setup makes it
    again, and checked to be the same (_setup_shape) when restored: a
    difference is exit 3, never a silent continuation."""
    encoded = []
    for key, field in (value.__dict__ if fields is None else fields).items():
        name = "%s.%s" % (what, key)
        try:
            encoded.append([key, encode(field, name, tensors)])
        except Mismatch:
            raise
        except UnsavableValue:
            shape = _setup_shape(field)
            if shape is None:
                raise
            encoded.append([key, {"kept": shape}])
    return {"object": _class_name(type(value)), "id": id(value),
            "by_field": encoded}


def _setup_shape(value, depth=4):
    """What a value the setup makes (code, a dataset, a loader, or
    containers of those) is, as JSON, for the check that the restarted
    run's setup made the same; None for any other value."""
    import types
    import functools
    if isinstance(value, (types.FunctionType, types.BuiltinFunctionType,
                          type, types.ModuleType)):
        return "%s:%s" % (getattr(value, "__module__", "?"),
                          getattr(value, "__qualname__",
                                  getattr(value, "__name__", "?")))
    if isinstance(value, types.MethodType):
        return "method " + _setup_shape(value.__func__, depth)
    if isinstance(value, functools.partial):
        inner = _setup_shape(value.func, depth)
        return None if inner is None else "partial " + inner
    if isinstance(value, (torch.utils.data.Dataset,
                          torch.utils.data.DataLoader)):
        size = None
        try:
            size = len(value)
        except Exception:
            pass
        return "%s len %s" % (_class_name(type(value)), size)
    if depth == 0:
        return None
    if isinstance(value, (list, tuple)):
        items = [_setup_shape(v, depth - 1) for v in value]
        return None if None in items else [type(value).__name__] + items
    if isinstance(value, dict):
        items = [[str(k), _setup_shape(v, depth - 1)]
                 for k, v in value.items()]
        if any(v is None for _, v in items):
            return None
        return [type(value).__name__] + sorted(items)
    return None


def _shape_of(t):
    return list(t.shape) if isinstance(t, torch.Tensor) else None


def tensor_mismatch(saved, current):
    """Why a saved tensor cannot replace the one this run built (shape or
    dtype differ: a size flag changed), or None. A restored tensor of the
    old size only failed later, as a shape error in the script's code."""
    if isinstance(saved, torch.Tensor) and isinstance(current, torch.Tensor):
        if saved.shape != current.shape:
            return "a tensor of shape %s in the checkpoint, %s in this run" % (
                tuple(saved.shape), tuple(current.shape))
        if saved.dtype != current.dtype:
            return "a tensor of dtype %s in the checkpoint, %s in this run" % (
                saved.dtype, current.dtype)
    return None


def _check_shapes(obj, state):
    """Refuses a saved state that does not fit `obj` before loading it, so
    that a changed model size is a message, not a shape error later inside
    the script (an optimizer's momentum of the old size fails at step())."""
    if isinstance(obj, torch.nn.Module) and isinstance(state, dict):
        now = obj.state_dict()
        for key in sorted(set(now) | set(state)):
            if key not in state or key not in now:
                raise UnsavableValue(
                    "the model does not match the checkpoint: %r is %s" % (
                        key, "not in the checkpoint" if key not in state
                        else "in the checkpoint but not in the model now"))
            a, b = _shape_of(now[key]), _shape_of(state[key])
            if a != b:
                raise UnsavableValue(
                    "the model does not match the checkpoint: %r has shape "
                    "%s now, %s in the checkpoint (did a size flag change?)"
                    % (key, a, b))
    elif isinstance(obj, torch.optim.Optimizer) and isinstance(state, dict):
        params = [p for g in obj.param_groups for p in g["params"]]
        for index, per_param in (state.get("state") or {}).items():
            if not isinstance(index, int) or not 0 <= index < len(params):
                continue
            for name, value in (per_param or {}).items():
                if isinstance(value, torch.Tensor) and value.dim() and \
                        value.shape != params[index].shape:
                    raise UnsavableValue(
                        "the optimizer does not match the checkpoint: its "
                        "%r for parameter %d has shape %s in the checkpoint, "
                        "the parameter %s now (did a size flag change?)" % (
                            name, index, list(value.shape),
                            list(params[index].shape)))


def decode(encoded, current=None, tensors=None):
    """The value `encoded` holds. A saved state_dict is loaded into the
    object `current()` returns (the script's own, rebuilt by
    fast-forward), which is returned. `tensors`: the list tensor_refs
    index."""
    if "sink" in encoded:
        obj = current() if current is not None else None
        if obj is None:
            raise UnsavableValue("the %s the checkpointed run had is made "
                                 "by the setup, which did not make one "
                                 "here" % encoded["sink"])
        return obj
    if "state_dict" in encoded:
        obj = current() if current is not None else None
        if obj is None:
            raise UnsavableValue("no object to load the saved state into")
        state = decode(encoded["state_dict"], None, tensors)
        _check_shapes(obj, state)
        obj.load_state_dict(state)
        modes = encoded.get("training")
        if modes is not None and isinstance(obj, torch.nn.Module):
            modules = list(obj.modules())
            if len(modules) == len(modes):
                for m, training in zip(modules, modes):
                    m.training = bool(training)
        if encoded.get("beyond"):
            restore_beyond(obj, encoded, tensors)
        return obj
    if "generator_state" in encoded:
        obj = current() if current is not None else None
        if not isinstance(obj, _GENERATORS):
            raise UnsavableValue("no generator to restore the saved state "
                                 "into")
        set_generator_state(obj, decode(encoded["generator_state"], None,
                                        tensors))
        return obj
    if "loader_iterator" in encoded:
        pos = encoded["loader_iterator"]
        obj = current() if current is not None else None
        loader = getattr(obj, "loader", None)
        if getattr(loader, "_detc_site", None) != pos["site"]:
            # The statement that made it was skipped on the way in (it is
            # in a function below the loops' outermost one): the loader
            # made last at its site.
            loader = LOADERS.get(pos["site"])
        if not callable(getattr(loader, "_detc_iter_at", None)):
            raise UnsavableValue(
                "the checkpointed run iterated the DataLoader at site %s "
                "with next(); the restarted run has made no such loader, "
                "and no iterator over it where the restore runs (%s)" % (
                    pos["site"], "none" if obj is None else
                    "a %s" % type(obj).__name__))
        start = decode(pos["start"], None, tensors)
        origin = pos.get("origin")
        return loader._detc_iter_at(int(pos["epoch"]), int(pos["step"]),
                                    int(pos["samples"]), start,
                                    shape=pos.get("shape"),
                                    origin=None if origin is None else
                                    decode(origin, None, tensors))
    if "loader_generator" in encoded:
        return _decode_generator(encoded["loader_generator"], current,
                                 tensors)
    if "sampler_epoch" in encoded:
        obj = current() if current is not None else None
        if not isinstance(obj, torch.utils.data.distributed.DistributedSampler):
            raise UnsavableValue("no DistributedSampler to set the saved "
                                 "epoch on")
        obj.set_epoch(int(encoded["sampler_epoch"]))
        return obj
    if "by_field" in encoded:
        return _decode_fields(encoded, current, tensors)
    if "object" in encoded:
        fields = decode(encoded["fields"], None, tensors)
        # One object saved under two names (a meter, and the progress
        # printer holding it) is one object again: by its id at the save,
        # per checkpoint (its tensor list).
        key = (id(tensors), encoded.get("id"))
        obj = _DECODED.get(key) if key[1] is not None else None
        if obj is None and current is not None:
            obj = current()
        if obj is not None and _class_name(type(obj)) == encoded["object"]:
            _assign(obj, fields)  # others holding it see the saved state
            _DECODED[key] = obj
            return obj
        module, _, qualname = str(encoded["object"]).partition(":")
        kind = sys.modules.get(module)
        for part in qualname.split("."):
            kind = getattr(kind, part, None)
        if not isinstance(kind, type):
            raise UnsavableValue("the saved object's class %s is not in "
                                 "the script" % encoded["object"])
        obj = kind.__new__(kind)
        obj.__dict__.update(fields)
        _DECODED[key] = obj
        return obj
    if "parameter" in encoded:
        ref = tuple(encoded["parameter"])
        p = Parameters.active.by_ref().get(ref) \
            if Parameters.active is not None else None
        if p is None:
            raise UnsavableValue(
                "it holds parameter %r of the module %r, which the run "
                "does not hold where the restore is" % (ref[1], ref[0]))
        return p
    if "tensor_ref" in encoded:
        t = tensors[encoded["tensor_ref"]]
        if not isinstance(t, torch.Tensor):
            raise ValueError("tensor_ref %r is not a tensor" %
                             encoded["tensor_ref"])
        t = t.detach()
        t.requires_grad_(bool(encoded["requires_grad"]))
        if "grad" in encoded:
            t.grad = decode(encoded["grad"], None, tensors)
        return t
    if "py" in encoded:
        return encoded["py"]
    if "torch_device" in encoded:
        return torch.device(str(encoded["torch_device"]))
    if "torch_dtype" in encoded:
        name = str(encoded["torch_dtype"])
        dtype = getattr(torch, name[len("torch."):], None) \
            if name.startswith("torch.") else None
        if not isinstance(dtype, torch.dtype):
            raise ValueError("%r is not a torch dtype" % name)
        return dtype
    if "float" in encoded:
        return float.fromhex(encoded["float"])
    if "list" in encoded:
        items = [decode(v, None, tensors) for v in encoded["list"]]
        return tuple(items) if encoded["tuple"] else items
    if "deque" in encoded:
        maxlen = encoded.get("maxlen")
        return collections.deque(
            [decode(v, None, tensors) for v in encoded["deque"]],
            None if maxlen is None else int(maxlen))
    if "dict" in encoded:
        return {decode(k, None, tensors): decode(v, None, tensors)
                for k, v in encoded["dict"]}
    if "tensor" in encoded:
        t = torch.from_numpy(_array(encoded))
        return t.requires_grad_(encoded["requires_grad"])
    array = _array(encoded)
    return array[()] if encoded.get("scalar") else array


_DECODED = {}  # (id(tensor list), saved id) -> the object decoded


def _decode_fields(encoded, current, tensors):
    """An object _encode_fields saved, restored into the restarted run's
    own (the setup made it again): each field decoded into the one it has
    (a model's state into its model), the setup's fields checked."""
    key = (id(tensors), encoded.get("id"))
    obj = _DECODED.get(key)
    if obj is None and current is not None:
        obj = current()
    if obj is None or _class_name(type(obj)) != encoded["object"]:
        raise UnsavableValue(
            "the checkpointed run's %s is made by the setup, which did not "
            "make one here" % encoded["object"])
    _DECODED[key] = obj
    for name, field in encoded["by_field"]:
        old = obj.__dict__.get(name)
        if "kept" in field:
            shape = _setup_shape(old)
            if _json_shape(shape) != _json_shape(field["kept"]):
                raise Mismatch(
                    "%s.%s is not what the checkpointed run's setup made "
                    "(%s there, %s here)" % (type(obj).__name__, name,
                                             field["kept"], shape))
            continue
        new = decode(field, lambda: obj.__dict__.get(name), tensors)
        obj.__dict__[name] = _into(old, new)
    return obj


def _json_shape(shape):
    # Shapes go through JSON (tuples become lists).
    import json
    return json.dumps(shape, sort_keys=True)

# The keyed loader made last at each site (data.py registers them): where
# a saved iterator over one is made again.
LOADERS = weakref.WeakValueDictionary()


def _assign(obj, fields):
    for key, new in fields.items():
        obj.__dict__[key] = _into(obj.__dict__.get(key), new)


def _into(old, new):
    """`new` (a decoded field) put into `old` when both are objects of the
    same class of the script (or lists of such), so that whoever else holds
    `old` — a progress printer holding the meters — sees the saved state.
    A field decoded into the object it holds (a loader whose state_dict
    was loaded into it: timm's PrefetchLoader's `loader`) is that object:
    nothing to put in (walking it into itself recursed through its
    references without end)."""
    if old is new:
        return old
    if old is not None and type(old) is type(new) and \
            type(getattr(old, "__dict__", None)) is dict and \
            _own_class(type(old)):
        _assign(old, new.__dict__)
        return old
    if isinstance(old, list) and isinstance(new, list) and \
            len(old) == len(new):
        old[:] = [_into(o, n) for o, n in zip(old, new)]
        return old
    if isinstance(old, dict) and type(new) is dict:
        # The setup's own dict, refilled: a defaultdict keeps its factory
        # (DeiT's `MetricLogger.meters = defaultdict(SmoothedValue)`: a plain
        # dict in its place raised KeyError on the next new meter).
        items = {k: _into(old.get(k), v) for k, v in new.items()}
        old.clear()
        old.update(items)
        return old
    return new


# ---- Generator states -------------------------------------------------------

_GENERATORS = (torch.Generator, np.random.RandomState, np.random.Generator,
               random.Random)


def generator_state(gen):
    """The state of `gen`: a library name ("torch", "numpy", "random") for
    its global generator, or a generator object."""
    if gen == "torch":
        return torch.get_rng_state()
    if gen == "numpy":
        return np.random.get_state()
    if gen == "random":
        return random.getstate()
    if isinstance(gen, torch.Generator):
        return gen.get_state()
    if isinstance(gen, np.random.RandomState):
        return gen.get_state()
    if isinstance(gen, np.random.Generator):
        return gen.bit_generator.state
    if isinstance(gen, random.Random):
        return gen.getstate()
    raise UnsavableValue("the state of a %s cannot be saved" %
                         type(gen).__name__)


def set_generator_state(gen, state):
    if gen == "torch":
        torch.set_rng_state(state)
    elif gen == "numpy":
        np.random.set_state(state)
    elif gen == "random":
        random.setstate(state)
    elif isinstance(gen, torch.Generator):
        gen.set_state(state)
    elif isinstance(gen, np.random.RandomState):
        gen.set_state(state)
    elif isinstance(gen, np.random.Generator):
        gen.bit_generator.state = state
    elif isinstance(gen, random.Random):
        gen.setstate(state)
    else:
        raise UnsavableValue("the state of a %s cannot be restored" %
                             type(gen).__name__)

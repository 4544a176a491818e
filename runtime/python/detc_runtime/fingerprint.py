"""What a bit-identical continuation depends on, recorded with every
checkpoint detc writes or annotates, restored, and checked after the
restore (docs/replay.md, "Self-verifying restores").

detc's analysis decides what a checkpoint must save; when the analysis
misses something (a library layer that draws from torch's global
generator, a generator object a dynamic call uses), a resume would
continue with different random numbers and exit 0. The fingerprint is the
safety net that turns such a gap into either an exact continuation or a
refusal naming what differs:

  * every global generator's state is saved in full (torch's CPU
    generator, each initialized CUDA device's, numpy's, random's) and set
    back at the restore, whatever the analysis chose: a few KB;
  * the offsets of detc's own sequential streams (keyed draws made outside
    any batch) are saved and set back;
  * the generator objects bound to variables of the checkpointing
    function and of its module (and one attribute level below them: a
    dataset's `self.rng`) are digested; after the restore the same
    variables must digest alike — a generator the analysis did not
    restore, advanced by skipped work, is exit 3 naming it;
  * the saved state (the object a user checkpoint writes, or the values a
    hint or just-in-time checkpoint saves) is digested; after the restore
    the script's state must digest alike, or exit 3 names the part. A
    user checkpoint's digests are taken at the resume, of the checkpoint
    as it loads ("state_from": "checkpoint"; replay.py): the file is the
    state as saved, and its save pays nothing per tensor.

Tensors are digested from a sample (core.memory_sample_hash: up to 64
windows of 256 bytes, the whole tensor when smaller) plus dtype and shape,
so the cost grows with the number of tensors, not their size (a GPU's
tensors have their windows gathered on the device and copied together:
_device_digests). The walk over containers, scalars and CPU tensors, and
the scan for named generators, run in the core (StateDigest.cpp,
FrameGenerators.cpp). Costs: bench/fingerprint_cost.py. DETC_VERIFY=full
digests every byte instead; DETC_VERIFY=off records nothing and checks
nothing (the restore still sets the global generators it has).
"""
import hashlib
import os
import random
import types

import numpy as np
import torch

from . import _core, global_generators, values as _values

_SAMPLE_WINDOWS = 64
_SAMPLE_BYTES = 256


class Mismatch(Exception):
    pass


_MODE = []


def mode():
    """DETC_VERIFY, read once: a fingerprint is taken as a checkpoint is
    written, where reading the environment costs ~20 µs (cold) of the
    ~35 µs a 1.6 MB checkpoint's 1% allows."""
    if not _MODE:
        m = os.environ.get("DETC_VERIFY", "sample")
        _MODE.append(m if m in ("sample", "full", "off") else "sample")
    return _MODE[0]


# ---- Digests ---------------------------------------------------------------

_DTYPE_NAMES = {}


def _tensor_digest(t, full):
    # No detach(): data_ptr() reads a tensor that requires grad as it is,
    # and a new tensor object per digest is a third of the cost.
    if t.is_sparse or t.device.type != "cpu" or not t.is_contiguous():
        t = t.detach()
        if t.is_sparse:
            t = t.to_dense()
        t = t.cpu().contiguous()
    size = t.numel() * t.element_size()
    if size == 0:
        h = 0
    elif full:
        h = _core.memory_hash(t.data_ptr(), size)
    else:
        h = _core.memory_sample_hash(t.data_ptr(), size, _SAMPLE_WINDOWS,
                                     _SAMPLE_BYTES)
    return "%s%s:%016x" % (_dtype_name(t.dtype), tuple(t.shape), h)


def _dtype_name(dtype):
    name = _DTYPE_NAMES.get(dtype)
    if name is None:
        name = _DTYPE_NAMES[dtype] = str(dtype)[6:]
    return name


class _Parts(list):
    """A digest's parts. A tensor on a GPU (any device but the CPU) waits
    in `pending` as (index, tensor) with None at its index, so that one
    digest reads all of them from the device in one copy
    (_device_digests) instead of copying each tensor whole."""

    __slots__ = ("pending",)

    def __init__(self):
        super().__init__()
        self.pending = []


def _add_tensor(parts, t, full):
    if full or t.device.type == "cpu" or t.is_sparse:
        parts.append(_tensor_digest(t, full))
    else:
        parts.pending.append((len(parts), t))
        parts.append(None)


# (device, size in bytes) -> the byte offsets of a tensor's windows, made
# on the device: a model's tensors come in few sizes (a parameter and its
# optimizer moments share one), so a digest launches one gather per tensor
# rather than the five operations that compute the offsets. Bounded: 64
# entries of 128 KB.
_WINDOW_OFFSETS = {}


def _window_offsets(device, size):
    key = (device, size)
    found = _WINDOW_OFFSETS.get(key)
    if found is None:
        if len(_WINDOW_OFFSETS) >= 64:
            _WINDOW_OFFSETS.clear()
        span = size - _SAMPLE_BYTES
        # The core's i * span / (windows - 1), in int64: exact below 2^57
        # bytes.
        starts = torch.arange(_SAMPLE_WINDOWS, dtype=torch.int64) * span \
            // (_SAMPLE_WINDOWS - 1)
        offsets = (starts[:, None] + torch.arange(
            _SAMPLE_BYTES, dtype=torch.int64)).reshape(-1)
        found = _WINDOW_OFFSETS[key] = offsets.to(device)
    return found


def _sample_bytes(t):
    """The bytes memory_sample_hash reads of `t` (its windows, or all of
    it), gathered on t's device, and t's size in bytes; None where torch
    cannot view t as bytes."""
    try:
        flat = t.detach().contiguous().reshape(-1).view(torch.uint8)
    except RuntimeError:
        return None
    size = flat.numel()
    if size <= _SAMPLE_WINDOWS * _SAMPLE_BYTES:
        return flat, size
    return flat.index_select(0, _window_offsets(flat.device, size)), size


def _device_digests(tensors):
    """_tensor_digest's text of each tensor (sampled, not full), its
    windows gathered on its device and copied to the host together: one
    copy per device and digest, of at most 16 KB per tensor, where
    copying each tensor whole cost a transfer per tensor (a third of the
    transformed GPU example's overhead). The same digests as
    _tensor_digest's of the tensors' CPU copies (XXH3 streamed over the
    windows equals XXH3 of them gathered, seeded with the size)."""
    out = [None] * len(tensors)
    by_device = {}
    for i, t in enumerate(tensors):
        by_device.setdefault(t.device, []).append(i)
    for indices in by_device.values():
        gathered, pieces = [], []
        for i in indices:
            sample = _sample_bytes(tensors[i])
            if sample is None:
                out[i] = _tensor_digest(tensors[i], False)
            else:
                gathered.append(sample[0])
                pieces.append((i, sample[0].numel(), sample[1]))
        if not pieces:
            continue
        host = torch.cat(gathered).cpu() if len(gathered) > 1 \
            else gathered[0].cpu().contiguous()
        at = host.data_ptr()
        for i, count, size in pieces:
            t = tensors[i]
            h = _core.memory_hash_seeded(at, count, size) if size else 0
            at += count
            out[i] = "%s%s:%016x" % (_dtype_name(t.dtype), tuple(t.shape), h)
    return out


def _generator_bytes(gen):
    if isinstance(gen, torch.Generator):
        return gen.get_state().numpy().tobytes()
    if isinstance(gen, np.random.RandomState):
        return repr(gen.get_state(legacy=False)).encode()
    if isinstance(gen, np.random.Generator):
        return repr(gen.bit_generator.state).encode()
    if isinstance(gen, random.Random):
        return repr(gen.getstate()).encode()
    return None


def _hash(data):
    return hashlib.blake2b(data, digest_size=8).hexdigest()


def digest(value, full=False):
    """A short text that changes when `value`'s state does (as far as
    detc can see: an object it does not know is its type only)."""
    parts = _Parts()
    _walk(value, full, parts, 0, set())
    if parts.pending:
        done = _device_digests([t for _, t in parts.pending])
        for (index, _), text in zip(parts.pending, done):
            parts[index] = text
    if len(parts) == 1 and len(parts[0]) <= 64:
        return parts[0]
    return _hash("\x1f".join(parts).encode("utf-8", "surrogatepass"))


def _array_digest(value, full):
    array = np.ascontiguousarray(value)
    try:
        return _tensor_digest(torch.from_numpy(array), full)
    except TypeError:
        # A dtype this torch has no tensors of (uint32 under torch 1.x: a
        # numpy generator's key): its bytes, with what they were.
        return "%s%s:%s" % (array.dtype.str, array.shape, _tensor_digest(
            torch.from_numpy(array.reshape(-1).view(np.uint8)), full))


def _walk(value, full, parts, depth, seen):
    """Appends the texts of `value`'s digest to `parts`: scalars as their
    repr, containers as "{" key entry ... "}" and "[" entry ... "]" (those
    nested deeper than 8, or in themselves, as "..."), CPU tensors as
    _tensor_digest's text; the core walks those (StateDigest.cpp) and
    hands everything else to _walk_other."""
    _core.digest_walk(value, parts, depth, seen, full)


def _walk_other(value, full, parts, depth, seen):
    """_walk of a value that is no scalar, container or contiguous CPU
    tensor (called by the core, the depth and cycle checks done)."""
    kind = type(value)
    if isinstance(value, torch.Tensor):
        _add_tensor(parts, value, full)
        return
    if isinstance(value, np.ndarray):
        parts.append(_array_digest(value, full) if value.dtype.kind in "biufc"
                     else repr(value.tolist()))
        return
    if getattr(kind, "_detc_position", None) is not None:
        # An iterator over a keyed loader (or the position a JIT boundary
        # kept of one): where it stands, whichever of the two it is.
        try:
            pos = value._detc_position()
        except Exception:  # one that cannot say (values.UnsavableValue)
            parts.append(kind.__name__)
            return
        parts.append("loader%s@%d:%d:%d:%s" % (
            pos.site, pos.epoch, pos.step, pos.samples,
            _tensor_digest(pos.start, full)))
        return
    g = _generator_bytes(value)
    if g is not None:
        parts.append("gen:" + _hash(g))
        return
    if isinstance(value, (torch.nn.Module, torch.optim.Optimizer)) or (
            hasattr(value, "state_dict") and hasattr(value,
                                                     "load_state_dict")):
        try:
            state = value.state_dict()
        except Exception:  # a scheduler of a wrapped optimizer, ...
            parts.append(type(value).__name__)
            return
        seen.add(id(value))
        _walk(state, full, parts, depth + 1, seen)
        for key, field in _values.state_beyond(value):
            parts.append(key)
            _walk(field, full, parts, depth + 1, seen)
        seen.discard(id(value))
        return
    # An object's fields as a JIT boundary kept them (values.FieldsView):
    # the object's digest, as the restored object's is.
    view_of = getattr(value, "_detc_view_of", None)
    parts.append(type(value if view_of is None else view_of).__name__)


_core.digest_setup(torch.Tensor, torch.nn.Parameter, torch.strided,
                   _DTYPE_NAMES, _dtype_name, _walk_other, digest,
                   _SAMPLE_WINDOWS, _SAMPLE_BYTES)


def digests(named, full=False):
    """{name: digest} of thunks that read values; unbound names are left
    out."""
    out = {}
    for name, thunk in named.items():
        try:
            value = thunk()
        except NameError:
            continue
        out[name] = digest(value, full)
    return out


# ---- Named generators ------------------------------------------------------

# Values that are no generator and hold none (the most common variables of
# a script: a check per variable is the walk's cost).
_NO_GENERATORS_HELD = frozenset((
    bool, int, float, complex, str, bytes, type(None), dict, list, tuple,
    set, frozenset, types.ModuleType, type, types.FunctionType,
    types.BuiltinFunctionType, torch.Tensor, torch.nn.Parameter))


_GENERATOR_TYPES = (torch.Generator, np.random.RandomState,
                    np.random.Generator, random.Random)


def _generator_digest(gen, version):
    """A named generator's digest: XXH3 of its state (fingerprints of
    version 4); blake2b before (a torch generator's 5 KB took 5 µs)."""
    if version < 4:
        return "gen:" + _hash(_generator_bytes(gen))
    if isinstance(gen, torch.Generator):
        state = gen.get_state()
        return "gen4:%016x" % _core.memory_hash(state.data_ptr(),
                                                state.numel())
    data = _generator_bytes(gen)
    return "gen4:%016x" % _core.buffer_hash(data)


def is_generator(value):
    return isinstance(value, _GENERATOR_TYPES)


def named_generators(frame, version=4):
    """{variable path: digest} of the generator objects bound to the
    variables of `frame`'s function and module, and to their attributes
    one level down (the core finds them: FrameGenerators.cpp); digests as
    fingerprints of `version` have them (_generator_digest)."""
    if frame is None:
        return {}
    scopes = [frame.f_globals]
    variables = frame.f_locals
    if variables is not frame.f_globals:
        # (A proxy from Python 3.13 on: the core reads dicts.)
        scopes.insert(0, variables if isinstance(variables, dict)
                      else dict(variables))
    return {path: _generator_digest(gen, version) for path, gen in
            _core.frame_generators(scopes, _GENERATOR_TYPES,
                                   _NO_GENERATORS_HELD,
                                   (torch.Tensor, torch.nn.Module)).items()}


# ---- Capture, restore, verify ----------------------------------------------

class Moment:
    """What capture() records, kept raw until a checkpoint is written.

    `boundary=True` (a just-in-time checkpoint's minibatch start, taken
    every minibatch) records only what is cheap there — torch's generators
    and detc's stream offsets, a few µs — and the rest (numpy's and
    random's generators, the named generators of `frame`) when the
    checkpoint is written: as of the failure. Those differ from the
    minibatch start only if the failed minibatch drew from them outside
    detc's keyed draws, which detc replaces in the script itself."""

    __slots__ = ("mode", "raw", "sequential", "named", "frame")

    def __init__(self, frame, boundary=False, drawn=()):
        from ._state import STATE
        self.mode = mode()
        self.sequential = dict(STATE.sequential)
        if boundary:
            self.raw = global_generators.raw_torch_states()
            # `drawn`: numpy or random, which the minibatch draws from
            # outside detc's keyed draws (detc saves their states at the
            # boundary): as of now too, or the restart's restore would set
            # them as of the failure, after the failed minibatch's draws
            # (NeRF's np.random.choice: restarts were not bit-identical).
            if drawn:
                other = global_generators.raw_other_states()
                self.raw.update((k, other[k]) for k in drawn if k in other)
            self.named = None
            self.frame = frame
        else:
            self.raw = global_generators.raw_states()
            self.named = named_generators(frame) \
                if self.mode != "off" else {}
            self.frame = None

    def encode(self):
        """The fingerprint as JSON: global generator states (in full, with
        digests), detc's sequential stream offsets, the named generators'
        digests. The saved state's digests go under "state" (the
        caller's)."""
        if self.named is None:  # a boundary's: the rest as of now
            for name, raw in global_generators.raw_other_states().items():
                self.raw.setdefault(name, raw)
            self.named = named_generators(self.frame) \
                if self.mode != "off" else {}
            self.frame = None
        states, generator_digests = {}, {}
        for name, raw in self.raw.items():
            states[name], generator_digests[name] = \
                global_generators.encode(name, raw)
        fp = {"mode": self.mode, "globals": states,
              "sequential": [[list(k) if isinstance(k, tuple) else [k],
                              int(v)] for k, v in self.sequential.items()]}
        if self.mode != "off":
            fp["version"] = 4
            fp["global_digests"] = generator_digests
            fp["named"] = dict(self.named)
        return fp


def capture(frame=None):
    """The fingerprint of this moment, as JSON (Moment.encode)."""
    return Moment(frame).encode()


def valid(fp):
    """Whether a fingerprint read from a sidecar has the expected shape (a
    hostile or damaged one is refused before anything is set from it)."""
    if not isinstance(fp, dict) or not isinstance(fp.get("globals"), dict):
        return False
    if not isinstance(fp.get("sequential"), list):
        return False
    for entry in fp["sequential"]:
        if not (isinstance(entry, list) and len(entry) == 2 and
                isinstance(entry[0], list) and isinstance(entry[1], int)):
            return False
    if fp.get("version", 1) not in (1, 2, 3, 4):
        return False
    if fp.get("state_from", "checkpoint") != "checkpoint":
        return False
    for key in ("global_digests", "named", "state"):
        if key in fp and not (isinstance(fp[key], dict) and all(
                isinstance(v, str) for v in fp[key].values())):
            return False
    return all(isinstance(s, dict) for s in fp["globals"].values())


def restore(fp):
    """Sets the global generators and the sequential stream offsets to the
    fingerprint's; raises Mismatch on a state that does not load."""
    from ._state import STATE
    for name, state in fp["globals"].items():
        try:
            global_generators.set_state(name, state)
        except global_generators.Unloadable as e:
            raise Mismatch(str(e)) from None
        except Exception as e:  # a malformed state: refuse, name it
            raise Mismatch("the %s generator's saved state does not load "
                           "(%s)" % (name, e)) from None
    STATE.sequential = {
        (tuple(k) if len(k) > 1 else k[0]): int(v)
        for k, v in fp["sequential"]}


def state_from_checkpoint(body):
    """Whether sidecar `body`'s fingerprint leaves the saved state's
    digests to be taken of the checkpoint itself, at the resume (a user
    checkpoint's, from this detc on; an earlier one's holds them)."""
    fp = (body or {}).get("fingerprint")
    return isinstance(fp, dict) and fp.get("mode") in ("sample", "full") \
        and fp.get("state_from") == "checkpoint" and "state" not in fp


def state_name(key):
    """The name of a user checkpoint's entry `key` in its digests (None:
    the whole object)."""
    return "<checkpoint>" if key is None else repr(key)


def state_digests(obj, full):
    """Digests of the state a user checkpoint saves: per entry of a dict
    that holds more than tensors (those entries that hold state: tensors,
    state dicts), or the whole object."""
    if isinstance(obj, dict) and not all(
            isinstance(v, torch.Tensor) for v in obj.values()):
        return {state_name(k): digest(v, full) for k, v in obj.items()
                if isinstance(v, (dict, list, tuple, torch.Tensor))}
    return {state_name(None): digest(obj, full)}


def verify(fp, state=None, frame=None, saved_state=None):
    """After a restore: the differences between the checkpointed moment
    and now, as a list of lines (empty when they agree). `state` maps
    names to thunks reading the restored state whose digests the
    fingerprint's "state" holds, or, where it says "state_from":
    "checkpoint", `saved_state(full)` gives (the checkpoint's entries as
    it loads)."""
    if fp.get("mode", "sample") == "off" or mode() == "off":
        return []
    full = fp.get("mode") == "full"
    problems = []
    version = fp.get("version", 1)
    raw = global_generators.raw_states()
    if version >= 3:
        now = {n: global_generators.digest(n, s) for n, s in raw.items()}
    elif version == 2:  # written by an earlier detc
        now = {n: global_generators.digest_v2(n, s) for n, s in raw.items()}
    else:
        now = {n: global_generators.digest_v1(
            global_generators.encode(n, s)[0]) for n, s in raw.items()}
    for name, d in (fp.get("global_digests") or {}).items():
        if name not in now:
            problems.append("the %s generator: saved, absent in this run" %
                            name)
        elif now[name] != d:
            problems.append("the %s generator's state (the saved state is "
                            "not the one the checkpointed run had)" % name)
    named = named_generators(frame, version)
    for name, d in (fp.get("named") or {}).items():
        if name in named and named[name] != d:
            problems.append(
                "generator %r: its state after the restore is not the one "
                "it had when the checkpoint was written (work skipped in "
                "fast-forward drew from it, and detc's analysis did not "
                "save it)" % name)
    if state is not None:
        saved = fp.get("state")
        if saved is None and fp.get("state_from") == "checkpoint" and \
                saved_state is not None and state:
            saved = saved_state(full)
        saved = saved or {}
        # Only the entries the checkpoint held: an entry a script adds
        # under an `if` (`if model_ema is not None: to_save['model_ema'] =
        # ...`) may not be there, and its thunk not readable.
        current = digests({k: v for k, v in state.items() if k in saved},
                          full)
        whole = state.get("<checkpoint>")
        if whole is not None and saved and "<checkpoint>" not in saved:
            # The checkpoint's entries were digested one by one (it holds
            # more than tensors: a model's state dict with an entry of the
            # script's own, Pytorch-UNet's 'mask_values': state_digests);
            # so are those of the restored object that it holds.
            try:
                value = whole()
            except NameError:
                value = None
            if isinstance(value, dict):
                current.update(digests({
                    state_name(k): (lambda v=v: v)
                    for k, v in value.items() if state_name(k) in saved},
                    full))
        for name, d in saved.items():
            if name in current and current[name] != d:
                # A user checkpoint's entries are named by their keys'
                # reprs already ("'model'"), a hint's by variable names.
                problems.append("%s: the restored state differs from the "
                                "state the checkpoint saved" % (
                                    name if name[:1] in "'\"<"
                                    else repr(name)))
    return problems


def changed_after_save(body, checkpoint, state):
    """Differences between `state` ({name: thunk} reading what a restore
    loaded from the checkpoint) and the digests sidecar `body` recorded
    when the helper's call that wrote it returned (call_end.py): the rest
    of that call changed it, and the resume has it as saved."""
    from ._state import fail
    at_return = body.get("state_at_return")
    if at_return is None or not state or mode() == "off":
        return []
    if not isinstance(at_return, dict) or not all(
            isinstance(k, str) and isinstance(v, str)
            for k, v in at_return.items()):
        fail("%s: error: the sidecar's 'state_at_return' is malformed" %
             checkpoint, 2)
    now = digests({k: v for k, v in state.items() if k in at_return},
                  body.get("fingerprint", {}).get("mode") == "full")
    return ["%s: the call that wrote the checkpoint changed it after the "
            "save, and the resume has it as saved" % (
                name if name[:1] in "'\"<" else repr(name))
            for name, d in at_return.items()
            if name in now and now[name] != d]


def settle(body, checkpoint, state, frame, named=True, more=(),
           saved_state=None):
    """Restores and verifies the fingerprint of sidecar `body` (of
    `checkpoint`): exit 3 naming each difference. A sidecar without one
    (written by an earlier detc) is restored as before, unverified, with a
    warning. `named`: also compare the named generators (not when the
    state comes from another rank's checkpoint). `more`: differences the
    caller found (a rank's values that differ from the writer's:
    ranks.value_differences), reported with these. `saved_state`: as
    verify() takes it."""
    from ._state import fail, warn_once
    fp = body.get("fingerprint")
    if fp is None:
        warn_once(("no-fingerprint", checkpoint), "%s was written without a "
                  "fingerprint (an earlier detc): the restore is not "
                  "verified" % checkpoint)
        return
    if not valid(fp):
        fail("%s: error: the sidecar's fingerprint is malformed" %
              checkpoint, 2)
    try:
        restore(fp)
    except Mismatch as e:
        fail("%s: error: cannot resume bit-identically: %s" % (
            checkpoint, e), 3)
    if not named:
        fp = dict(fp, named={})
    problems = verify(fp, state, frame, saved_state) + list(more)
    if problems:
        fail("%s: error: the restored run is not the checkpointed one — "
              "refusing to continue (a bug in detc's analysis, or an edited "
              "checkpoint; please report it with the script):\n  %s" % (
                  checkpoint, "\n  ".join(problems)), 3)


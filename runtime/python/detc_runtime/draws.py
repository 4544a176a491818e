"""Keyed replacements for the random calls detc rewrites in batch regions.

`keyed(site, gen, fn)` returns a callable with `fn`'s signature whose random
values come from per-example Philox streams: row r of the result (the first
dimension follows the batch) is drawn from stream (seed, site, epoch, key of
row r), continuing where that example's previous draws at this site ended.
So an example's noise or dropout mask is the same whatever batch it is in,
whatever the batch size, worker count, thread count or world size.

A draw whose first dimension does not match the examples drawing now (or
made outside any batch) comes from one sequential stream per site: still
deterministic, but tied to the order of such draws; a warning says so.
"""
import copyreg
import random as _random
import sys

import numpy as np
import torch

from . import _core, device_streams
from ._state import NO_EPOCH, NO_EXAMPLE, STATE, warn_once

_FLOATS = (torch.float32, torch.float64)


def _rows_context(site, rows):
    """(epoch, keys, offsets) for a draw of `rows` rows at `site`."""
    ctx = STATE.context()
    if ctx is not None and rows == len(ctx.keys):
        offsets = ctx.offsets_for(site)
        return ctx.epoch, ctx.keys, offsets
    what = "outside any batch" if ctx is None else (
        "with %d rows for a batch of %d examples" % (rows, len(ctx.keys)))
    warn_once(("rows", site), "the random draw at site %d was made %s; it "
              "uses a sequential stream (deterministic, but not per example)"
              % (site, what))
    return None


def fill_(tensor, kind, site, gen, a=0.0, b=1.0):
    """Fill `tensor` in place with keyed values; returns it. On the CPU the
    C++ core writes the values; on any other device they are computed there
    (device_streams: the same values, bit for bit)."""
    if not tensor.numel():
        return tensor
    seed = STATE.seed_of(gen)
    shape = tuple(tensor.shape)
    rows = shape[0] if shape else 1
    # What the values are written into: the tensor itself when it has the
    # layout and dtype the fill writes (floats; integers as int32/int64 on
    # the CPU), otherwise a float32/int64 buffer copied over at the end.
    if (tensor.device.type != "cpu" or _DEVICE_PATH_ON_CPU) and \
            device_streams.supported(tensor.device):
        fill_rows = device_streams.fill_rows
        dtype = tensor.dtype if kind == "integers" or \
            tensor.dtype in _FLOATS else torch.float32
        target = tensor if dtype == tensor.dtype and tensor.is_contiguous() \
            else torch.empty(shape, dtype=dtype, device=tensor.device)
        rows_of = target
    else:
        fill_rows = _core.fill_rows
        direct = (tensor.dtype in _FLOATS or kind == "integers"
                  and tensor.dtype in (torch.int64, torch.int32))
        direct = direct and tensor.is_contiguous() and \
            tensor.device.type == "cpu"
        target = tensor if direct else torch.empty(
            shape, dtype=torch.float32 if kind != "integers" else torch.int64)
        rows_of = target.detach().numpy()
    keyed = _rows_context(site, rows) if shape else None
    if keyed is not None:
        epoch, keys, offsets = keyed
        fill_rows(kind, rows_of.reshape(rows, -1), seed, site, epoch, keys,
                  offsets, a, b)
    else:
        off = np.array([STATE.sequential.get(site, 0)], dtype=np.uint64)
        fill_rows(kind, rows_of.reshape(1, -1), seed, site, NO_EPOCH,
                  _SEQUENTIAL_KEYS, off, a, b)
        STATE.sequential[site] = int(off[0])
    if target is not tensor:
        with torch.no_grad():
            tensor.copy_(target)
    return tensor


_SEQUENTIAL_KEYS = np.array([NO_EXAMPLE], dtype=np.int64)


def run_keyed_draws_as_python():
    """Make compiled graphs break at keyed draws (compile_hook.py calls
    this at the first torch.compile): a keyed draw reads and advances
    host-side stream offsets, which a graph cannot hold, so the compiler
    runs it as Python — a clean graph break, without dynamo's warning
    about an unknown C++ extension."""
    global fill_
    if fill_ is _fill_eager:
        fill_ = torch.compiler.disable(_fill_eager)


_fill_eager = fill_

# Tests set this to run the device path on CPU tensors (DeviceStreamsTest).
_DEVICE_PATH_ON_CPU = False


def dropout(site, gen, x, p=0.5, training=True, inplace=False, channels=False):
    """Inverted dropout with a keyed keep-mask (torch's semantics: zero with
    probability p, scale the rest by 1/(1-p)). `channels`: one mask value
    per (example, channel), as Dropout1d/2d/3d."""
    if not training or p == 0:
        return x
    if not 0 <= p <= 1:
        raise ValueError("dropout probability has to be between 0 and 1, "
                         "but got %r" % (p,))
    if p == 1:
        return x.mul_(0) if inplace else x * 0
    shape = tuple(x.shape[:2]) + (1,) * (x.dim() - 2) if channels else x.shape
    dtype = x.dtype if x.dtype in _FLOATS else torch.float32
    # Drawn where x is (device_streams on a GPU): no copy per step.
    mask = torch.empty(shape, dtype=dtype, device=x.device)
    fill_(mask, "bernoulli", site, gen, 1.0 - p, 1.0 / (1.0 - p))
    mask = mask.to(dtype=x.dtype)
    return x.mul_(mask) if inplace else x * mask


def _shape(size):
    if len(size) == 1 and isinstance(size[0], (tuple, list, torch.Size)):
        return tuple(size[0])
    return tuple(size)


def _new(site, gen, kind, a, b, size, dtype=None, like=None, options=None):
    """A new tensor of keyed values. `options`: the factory's own keyword
    arguments (device, requires_grad, ...), honoured as torch's factory
    would (the values are drawn on that device)."""
    options = options or {}
    device = options.get("device")
    if like is not None:
        out = torch.empty_like(like, dtype=dtype or like.dtype,
                               memory_format=torch.contiguous_format,
                               **({"device": device} if device is not None
                                  else {}))
    else:
        out = torch.empty(size, dtype=dtype, device=device)
    fill_(out, kind, site, gen, a, b)
    if options.get("requires_grad"):
        out.requires_grad_(True)
    return out


def _tensor_method(site, gen, name):
    def uniform_(self, a=0.0, b=1.0, generator=None):
        return fill_(self, "uniform", site, gen, a, b)

    def normal_(self, mean=0.0, std=1.0, generator=None):
        return fill_(self, "normal", site, gen, mean, std)

    def bernoulli_(self, p=0.5, generator=None):
        return fill_(self, "bernoulli", site, gen, float(p), 1.0)

    def random_(self, low=0, high=None, generator=None):
        if high is None:
            low, high = 0, low
        return fill_(self, "integers", site, gen, low, high)

    return {"uniform_": uniform_, "normal_": normal_,
            "bernoulli_": bernoulli_, "random_": random_}.get(name)


def _function(site, gen, name):
    def rand(*size, dtype=None, generator=None, **options):
        return _new(site, gen, "uniform", 0.0, 1.0, _shape(size), dtype,
                    options=options)

    def randn(*size, dtype=None, generator=None, **options):
        return _new(site, gen, "normal", 0.0, 1.0, _shape(size), dtype,
                    options=options)

    def rand_like(x, dtype=None, **options):
        return _new(site, gen, "uniform", 0.0, 1.0, None, dtype, like=x,
                    options=options)

    def randn_like(x, dtype=None, **options):
        return _new(site, gen, "normal", 0.0, 1.0, None, dtype, like=x,
                    options=options)

    def randint(*args, size=None, dtype=None, generator=None, **options):
        args = list(args)
        if size is None:
            size = args.pop()
        low, high = (0, args[0]) if len(args) == 1 else (args[0], args[1])
        return _new(site, gen, "integers", low, high, _shape((size,)),
                    dtype or torch.int64, options=options)

    def randint_like(x, *args, dtype=None, **options):
        low, high = (0, args[0]) if len(args) == 1 else (args[0], args[1])
        return _new(site, gen, "integers", low, high, None,
                    dtype or x.dtype, like=x, options=options)

    def bernoulli(x, p=None, generator=None, **_):
        if p is not None:
            return _new(site, gen, "bernoulli", float(p), 1.0, None, like=x)
        # Per-element probabilities: compare keyed uniforms against them.
        u = _new(site, gen, "uniform", 0.0, 1.0, None,
                 x.dtype if x.dtype in _FLOATS else torch.float32, like=x)
        return (u < x).to(x.dtype)

    def normal(mean, std=1.0, size=None, generator=None, **options):
        if isinstance(mean, torch.Tensor) or isinstance(std, torch.Tensor):
            ref = mean if isinstance(mean, torch.Tensor) else std
            z = _new(site, gen, "normal", 0.0, 1.0, None, like=ref)
            return mean + std * z
        return _new(site, gen, "normal", mean, std, _shape((size,)),
                    options=options)

    def drop(x, p=0.5, training=True, inplace=False):
        return dropout(site, gen, x, p, training, inplace)

    def drop_channels(x, p=0.5, training=True, inplace=False):
        return dropout(site, gen, x, p, training, inplace, channels=True)

    return {"rand": rand, "randn": randn, "rand_like": rand_like,
            "randn_like": randn_like, "randint": randint,
            "randint_like": randint_like, "bernoulli": bernoulli,
            "normal": normal, "dropout": drop, "dropout1d": drop_channels,
            "dropout2d": drop_channels, "dropout3d": drop_channels,
            "feature_dropout": drop_channels}.get(name)


def keyed(site, gen, fn):
    """The keyed version of random function or tensor method `fn`."""
    owner = getattr(fn, "__self__", None)
    name = getattr(fn, "__name__", "")
    if isinstance(owner, torch.Tensor):
        method = _tensor_method(site, gen, name)
        if method is not None:
            return lambda *args, **kwargs: method(owner, *args, **kwargs)
    else:
        replacement = _function(site, gen, name)
        if replacement is not None:
            return replacement
    raise TypeError("detc-runtime: no keyed version of %r (site %d); "
                    "detc transform should have reported this call"
                    % (fn, site))


class _KeyedDropoutMixin:
    """forward() of the keyed dropout modules (site and generator are
    instance attributes, so pickled models keep them).

    A model saved whole (`torch.save(model, f)`: word_language_model)
    pickles its keyed layers as the layer they replace: the file loads
    without detc (an inference script elsewhere), and a script's own
    `torch.serialization.safe_globals([torch.nn.Dropout, ...])` allows it
    under torch >= 2.6 (pickled as KeyedDropout, the transformed
    word_language_model failed its own final load). Loaded back in a
    transformed run, the layer is keyed again (_rekey_on_load)."""

    _detc_channels = False

    def forward(self, x):
        return dropout(self._detc_site, self._detc_gen, x, self.p,
                       self.training, self.inplace, self._detc_channels)

    def __reduce_ex__(self, protocol):
        reduced = super().__reduce_ex__(protocol)
        original = self._detc_replaces
        # The class now at the original's name (key_imported_layers may
        # have put its keyed subclass there): pickle writes that name.
        named = getattr(sys.modules.get(original.__module__),
                        original.__name__, None)
        if isinstance(reduced, tuple) and len(reduced) >= 3 and \
                reduced[0] is copyreg.__newobj__ and \
                reduced[1] == (type(self),) and \
                not any(x is not None for x in reduced[3:]) and \
                isinstance(named, type) and issubclass(named, original):
            # Made by calling the class (pickle's __newobj__ insists on
            # the object's own class), then given the layer's state.
            reduced = (named, (), reduced[2])
        return reduced


class KeyedDropout(_KeyedDropoutMixin, torch.nn.Dropout):
    _detc_replaces = torch.nn.Dropout


class KeyedDropout2d(_KeyedDropoutMixin, torch.nn.Dropout2d):
    _detc_channels = True
    _detc_replaces = torch.nn.Dropout2d


class KeyedDropout3d(_KeyedDropoutMixin, torch.nn.Dropout3d):
    _detc_channels = True
    _detc_replaces = torch.nn.Dropout3d


_KEYED_CLASSES = {torch.nn.Dropout: KeyedDropout,
                  torch.nn.Dropout2d: KeyedDropout2d,
                  torch.nn.Dropout3d: KeyedDropout3d}
if hasattr(torch.nn, "Dropout1d"):
    class KeyedDropout1d(_KeyedDropoutMixin, torch.nn.Dropout1d):
        _detc_channels = True
        _detc_replaces = torch.nn.Dropout1d

    _KEYED_CLASSES[torch.nn.Dropout1d] = KeyedDropout1d


def _rekey_on_load():
    """A dropout layer unpickled with a keyed site (saved by a transformed
    run as the layer it replaces) becomes keyed again: a script resuming
    from its own whole-model checkpoint draws as the run that saved it.
    Layers saved without detc carry no site and stay as they are."""
    for original, keyed_class in _KEYED_CLASSES.items():
        inherited = original.__setstate__
        if getattr(inherited, "_detc_rekeys", False):
            continue  # (the runtime imported again)

        def __setstate__(self, state, _inherited=inherited,
                         _original=original, _keyed=keyed_class):
            _inherited(self, state)
            if type(self) is _original and "_detc_site" in self.__dict__:
                self.__class__ = _keyed

        __setstate__._detc_rekeys = True
        original.__setstate__ = __setstate__


_rekey_on_load()


def keyed_module(site, gen, cls):
    """A constructor for `cls` (nn.Dropout, Dropout1d/2d/3d) whose instances
    draw their masks from keyed streams. The instances are of a subclass of
    `cls` (isinstance holds; state_dict is unchanged)."""
    cls = getattr(cls, "_detc_original", cls)  # key_imported_layers ran
    sub = _KEYED_CLASSES.get(cls)
    if sub is None:
        raise TypeError("detc-runtime: no keyed version of module %r" % cls)

    def make(*args, **kwargs):
        module = cls(*args, **kwargs)
        module.__class__ = sub
        module._detc_site = site
        module._detc_gen = gen
        return module

    return make


def key_imported_layers(site, gen, names):
    """Dropout layers built in modules the script imports (which detc does
    not edit): `names` are their qualified classes (`torch.nn.Dropout2d`).
    Each becomes, where it is looked up (`nn.Dropout2d(...)`, `from
    torch.nn import Dropout2d` after this call), a subclass whose instances
    draw keyed masks (site, generator `gen`) — isinstance of the original
    holds, state_dict is unchanged. Called by the transformed script's
    header, before the script imports its modules."""
    import importlib

    for name in names:
        module_name, attr = name.rsplit(".", 1)
        module = importlib.import_module(module_name)
        original = getattr(module, attr)
        original = getattr(original, "_detc_original", original)
        sub = _KEYED_CLASSES.get(original)
        if sub is None:
            raise TypeError("detc-runtime: no keyed version of module %r"
                            % name)

        # Only where the analysis saw it looked up: the class's own module
        # keeps the original, which torch's modules built with it
        # (TransformerEncoderLayer's dropout, not keyed) pickle as; with
        # the keyed class in its place, a model holding both could not be
        # saved whole ("not the same object as
        # torch.nn.modules.dropout.Dropout": word_language_model's
        # Transformer failed its first save).
        setattr(module, attr, _imported_layer_class(original, sub, site, gen))


def _imported_layer_class(original, sub, site, gen):
    # Its instances stay of this class, named as the original; they pickle
    # as the original (_KeyedDropoutMixin.__reduce_ex__), which a script's
    # `torch.serialization.safe_globals([nn.Dropout])` allows.
    def __init__(self, *args, **kwargs):
        super(sub, self).__init__(*args, **kwargs)
        self._detc_site, self._detc_gen = site, gen

    keyed = type(original.__name__, (sub,), {
        "__init__": __init__, "_detc_original": original,
        "__module__": original.__module__,
        "__qualname__": original.__qualname__})
    return keyed


def _batch_words(site, gen):
    """Two stream words for the next per-batch draw at `site`: keyed by
    (epoch, the batch's first example key, call number at this site in
    this batch), or sequential per site outside any batch."""
    seed = STATE.seed_of(gen)
    ctx = STATE.batch
    if ctx is not None and len(ctx.keys):
        calls = ctx.offsets.setdefault(("batch", site), [0])
        n = calls[0]
        calls[0] += 1
        return _core.stream_words(seed, site, ctx.epoch, int(ctx.keys[0]),
                                  2 * n, 2)
    n = STATE.sequential.get(("batch", site), 0)
    STATE.sequential[("batch", site)] = n + 1
    return _core.stream_words(seed, site, NO_EPOCH, NO_EXAMPLE, 2 * n, 2)


def _unwrapped(fn):
    """The function another layer wrapped with functools.wraps (`detc
    audit` records the global generators' draws so): the one it wraps
    says whose generator it draws from."""
    while getattr(fn, "__wrapped__", None) is not None and \
            getattr(fn, "__self__", None) is None:
        fn = fn.__wrapped__
    return fn


def batch_keyed(site, gen, fn):
    """The per-batch keyed version of a random function that has no
    per-example form: a mixup/cutmix λ (`np.random.beta(a, a)`),
    `np.random.uniform/rand/randint/permutation/choice`, `random.random()`,
    `torch.randperm(batch_size)`. Each call draws from a fresh generator
    seeded from the batch's stream (_batch_words): the value depends on the
    batch (its epoch and examples), not on the worker count, the thread
    count or a resume."""
    # A function another layer wrapped (`detc audit` records the global
    # generators' draws through functools.wraps wrappers): the one it wraps
    # says whose generator it draws from.
    fn = _unwrapped(fn)
    owner = getattr(fn, "__self__", None)
    name = getattr(fn, "__name__", "")
    if owner is np.random.mtrand._rand:
        def draw(*args, **kwargs):
            w = _batch_words(site, gen)
            rs = np.random.RandomState(np.array(w, dtype=np.uint32))
            return getattr(rs, name)(*args, **kwargs)
        return draw
    if owner is _random._inst:
        def draw(*args, **kwargs):
            w = _batch_words(site, gen)
            return getattr(_random.Random(w[0] | w[1] << 32), name)(
                *args, **kwargs)
        return draw
    if name in _TORCH_GENERATOR_FUNCTIONS and \
            _unwrapped(getattr(torch, name, None)) is fn:
        def draw(*args, **kwargs):
            w = _batch_words(site, gen)
            g = torch.Generator().manual_seed(w[0] | w[1] << 32)
            kwargs["generator"] = g
            return fn(*args, **kwargs)
        return draw
    raise TypeError("detc-runtime: no per-batch keyed version of %r (site "
                    "%d); detc transform should have reported this call"
                    % (fn, site))


# torch functions drawing from the generator they are given.
_TORCH_GENERATOR_FUNCTIONS = frozenset((
    "randperm", "multinomial", "poisson", "rand", "randn", "randint",
    "bernoulli", "normal"))

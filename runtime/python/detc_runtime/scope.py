"""The example scope: `__getitem__` and the transforms it calls draw from
the example's own streams.

`@example_scope(site, gens)` on a dataset's `__getitem__`: while it runs,
each listed library-global generator (numpy's, `random`'s, torch's) is
reseeded from stream (seed of that generator, site, epoch, example), so
every `np.random.*`, `random.*`, `torch.*` and torchvision random transform
called inside, directly or through helpers, gets values that depend only on
the example and its epoch, not on which worker loads it or in what order.
In the main process the global states are saved and restored around the
scope — once per batch when the keyed loader fetches it (`fetch_guard`),
else around each call — so code outside the scopes sees its generators
untouched (in a worker process there is nothing outside to protect, and
numpy's state copy costs ~60 us). Keyed draws (`keyed(...)`) made
inside the scope also use the example's key.
"""
import functools
import random as _random
import _random as _random_core

import numpy as np
import torch

from . import _core
from ._state import NO_EPOCH, STATE, KeyContext, warn_once

# Values of the scope stream each library's reseed takes.
_WORDS = 2

# The module-level generator behind random.random() & co., reseeded through
# the C method (random.seed's Python wrapper costs ~1 us more).
_random_seed = functools.partial(_random_core.Random.seed, _random._inst)


# numpy's and random's reseeds take a 32-bit seed: their 128-bit (array)
# seeding costs 12 and 8 us against 3.4 and 5.5 us, and the scope must stay
# cheap per example (bench/rng_throughput.py). Two examples of a run may
# then share a numpy or random stream (~n^2 / 2^33 pairs among n example
# fetches); each is still a function of (seed, site, epoch, example) only.
def _reseed_numpy(words):
    np.random.seed(words[0])


def _reseed_random(words):
    _random_seed(words[0])


def _reseed_torch(words):
    # The CPU generator only: torch.manual_seed also reseeds every CUDA
    # device (20x slower), and per-example draws here are CPU draws.
    torch.default_generator.manual_seed(words[0] | words[1] << 32)


_torch_seed = torch.default_generator.manual_seed
_stream_u64 = _core.stream_u64
_torch_state = torch.default_generator.get_state

# library -> (save, restore, reseed)
_LIBRARIES = {
    "numpy": (np.random.get_state, np.random.set_state, _reseed_numpy),
    "random": (_random.getstate, _random.setstate, _reseed_random),
    "torch": (torch.default_generator.get_state,
              torch.default_generator.set_state, _reseed_torch),
}


def reseed_library(library, words):
    """Reseeds `library`'s global generator from two stream words."""
    _LIBRARIES[library][2](words)


class _Plan:
    """What a scope does for its (generator id, library) pairs, resolved
    once per decorated `__getitem__`."""

    __slots__ = ("site", "gens", "steps", "libraries", "torch_only")

    def __init__(self, site, gens):
        self.site, self.gens = site, gens
        self.steps = tuple((gen, slot * _WORDS, _LIBRARIES[library][2])
                           for slot, (gen, library) in enumerate(gens))
        self.libraries = tuple(library for _, library in gens)
        # The common case (torch's generator only, what a torchvision
        # pipeline draws from): one call for its seed, no loop — a third of
        # the scope's cost per example.
        self.torch_only = gens[0][0] if self.libraries == ("torch",) \
            else None

    def enter(self, epoch, index, seeds=None):
        """Reseeds (from `seeds`, one per generator of `gens`, else the
        run's current ones); returns the states to restore on exit (or
        None)."""
        saved = None
        if STATE.in_worker:
            # A DataLoader worker's global generators are its own; nothing
            # outside the scopes may depend on them.
            pass
        elif STATE.fetch_guard is not None:
            # The keyed loader fetches a whole batch in this process: the
            # states are saved once for the batch and restored after it.
            guard = STATE.fetch_guard
            for library in self.libraries:
                if library not in guard:
                    guard[library] = _LIBRARIES[library][0]()
        else:
            saved = [(library, _LIBRARIES[library][0]())
                     for library in self.libraries]
        if seeds is None:
            seeds = tuple(STATE.seed_of(gen) for gen, _, _ in self.steps)
        if self.torch_only is not None:
            _torch_seed(_core.stream_u64(seeds[0], self.site, epoch, index))
            return saved
        for seed, (_, offset, reseed) in zip(seeds, self.steps):
            reseed(_core.stream_words(seed, self.site, epoch, index, offset,
                                      _WORDS))
        return saved


def restore_states(saved):
    """Restores the (library, state) pairs saved by a scope or fetch guard
    (and the (("object", id), (generator, state)) pairs of held ones)."""
    for library, state in reversed(list(saved)):
        if isinstance(library, tuple):
            _set_object_state(*state)
        else:
            _LIBRARIES[library][1](state)


class ScopedDataset:
    """The dataset as a keyed loader's iterators see it: every example is
    fetched inside its example scope, whatever the dataset's class (a
    torchvision dataset and its transforms, Subset, ConcatDataset, a
    dataset of the script or of a module it imports), in the worker
    processes and in the main process alike. `gens`: the (generator id,
    library) pairs whose streams reseed torch's, numpy's and Python's
    global generators."""

    # DataLoader's fetcher takes __getitems__ when a dataset has one; this
    # one fetches example by example, each in its scope.
    __getitems__ = None

    def __init__(self, dataset, site, gens, attrs=(), seeds=None):
        self.dataset = dataset
        self.plan = _Plan(site, tuple(gens))
        # The seeds as the epoch's iterator starts, as its workers get them
        # (STATE.snapshot()): the examples fetched in this process use the
        # same ones, whatever the script reseeds meanwhile.
        self.seeds = tuple(seeds) if seeds is not None else tuple(
            STATE.seed_of(gen) for gen, _ in self.plan.gens)
        # Generator objects the dataset holds (`self.rng`): (attribute path,
        # generator id); each reseeded per example from its own stream.
        self.attrs = tuple(attrs)
        objects = []
        for slot, (path, gen) in enumerate(self.attrs):
            obj = _held_generator(dataset, path)
            if obj is None:
                warn_once(("held", site, path), "the dataset (site %d) holds "
                          "no generator at attribute %r: draws detc found "
                          "there are not keyed" % (site, path))
                continue
            objects.append((obj, gen, slot))
        self.objects = tuple(objects)
        # The common case, a torchvision pipeline: torch's generator only
        # and no held ones, reseeded inline (a third of the scope's cost
        # per example is Python calls).
        self.torch_seed = self.seeds[0] if (
            self.plan.torch_only is not None and not self.objects) else None
        self.site = site

    def __len__(self):
        return len(self.dataset)

    def __getattr__(self, name):
        return getattr(self.__dict__["dataset"], name)

    def __getitem__(self, key):
        epoch = getattr(key, "epoch", NO_EPOCH)
        index = int(key)
        state = STATE
        if self.torch_seed is not None:
            saved = None
            if state.in_worker:
                pass
            elif state.fetch_guard is not None:
                if "torch" not in state.fetch_guard:
                    state.fetch_guard["torch"] = _torch_state()
            else:
                saved = (("torch", _torch_state()),)
            _torch_seed(_stream_u64(self.torch_seed, self.site, epoch, index))
        else:
            saved = self.plan.enter(epoch, index, self.seeds)
            if self.objects:
                saved = _reseed_objects(self.objects, self.plan.site, epoch,
                                        index, saved)
        outer = state.scope
        state.scope = KeyContext(epoch, [index])
        try:
            return self.dataset[key]
        finally:
            state.scope = outer
            if saved:
                restore_states(saved)

    def __getstate__(self):
        return {"dataset": self.dataset, "site": self.plan.site,
                "gens": self.plan.gens, "attrs": self.attrs,
                "seeds": self.seeds}

    def __setstate__(self, state):
        self.__init__(state["dataset"], state["site"], state["gens"],
                      state["attrs"], state["seeds"])


def _held_generator(dataset, path):
    """The generator at attribute `path` of the dataset, or of a dataset it
    wraps (`Subset.dataset`, ...); None when there is none."""
    for _ in range(8):
        obj = dataset
        for part in path.split("."):
            obj = getattr(obj, part, None)
        if _generator_kind(obj) is not None:
            return obj
        dataset = getattr(dataset, "dataset", None)
        if dataset is None:
            return None
    return None


def _generator_kind(obj):
    if isinstance(obj, np.random.RandomState):
        return "RandomState"
    if isinstance(obj, np.random.Generator):
        return "Generator"
    if isinstance(obj, _random.Random):
        return "Random"
    if isinstance(obj, torch.Generator):
        return "torch"
    return None


def _object_state(obj):
    kind = _generator_kind(obj)
    if kind == "RandomState":
        return obj.get_state()
    if kind == "Generator":
        return obj.bit_generator.state
    return obj.getstate() if kind == "Random" else obj.get_state()


def _set_object_state(obj, state):
    kind = _generator_kind(obj)
    if kind == "RandomState":
        obj.set_state(state)
    elif kind == "Generator":
        obj.bit_generator.state = state
    elif kind == "Random":
        obj.setstate(state)
    else:
        obj.set_state(state)


def _reseed_objects(objects, site, epoch, example, saved):
    """Reseeds each held generator from stream (seed of its id, site,
    epoch, example); returns `saved` extended with what to restore (none
    in a worker; once per batch under the keyed loader's fetch guard)."""
    for obj, gen, slot in objects:
        if STATE.in_worker:
            pass
        elif STATE.fetch_guard is not None:
            STATE.fetch_guard.setdefault(("object", id(obj)),
                                         (obj, _object_state(obj)))
        else:
            saved = list(saved or ()) + [(("object", id(obj)),
                                          (obj, _object_state(obj)))]
        w = _core.stream_words(STATE.seed_of(gen), site, epoch, example,
                               (len(_LIBRARIES) + slot) * _WORDS, _WORDS)
        kind = _generator_kind(obj)
        if kind == "RandomState":
            obj.seed(w[0])
        elif kind == "Generator":
            obj.bit_generator.state = type(obj.bit_generator)(
                w[0] | w[1] << 32).state
        elif kind == "Random":
            obj.seed(w[0] | w[1] << 32)
        else:
            obj.manual_seed(w[0] | w[1] << 32)
    return saved


class ExampleScope:
    """Context manager form: `with ExampleScope(site, gens, epoch, index):`."""

    def __init__(self, site, gens, epoch, index):
        self.plan = _Plan(site, tuple(gens))
        self.epoch, self.index = epoch, index

    def __enter__(self):
        self.saved = self.plan.enter(self.epoch, self.index)
        self.outer = STATE.scope
        STATE.scope = KeyContext(self.epoch, [self.index])
        return self

    def __exit__(self, *exc):
        STATE.scope = self.outer
        if self.saved:
            restore_states(self.saved)
        return False


def example_scope(site, gens):
    """Decorator for `__getitem__(self, index, ...)`; gens: the (generator
    id, library) pairs to serve from the example's stream."""
    plan = _Plan(site, tuple(gens))

    def decorate(getitem):
        @functools.wraps(getitem)
        def wrapper(self, index, *args, **kwargs):
            try:
                example = int(index)
            except TypeError:
                example = None
            if example is None or not 0 <= example <= 0xFFFFFFFD:
                warn_once(("scope", site), "__getitem__ (site %d) got index "
                          "%r, which is not an example number; its random "
                          "draws are not keyed" % (site, index))
                return getitem(self, index, *args, **kwargs)
            epoch = getattr(index, "epoch", NO_EPOCH)
            saved = plan.enter(epoch, example)
            outer = STATE.scope
            STATE.scope = KeyContext(epoch, [example])
            try:
                return getitem(self, index, *args, **kwargs)
            finally:
                STATE.scope = outer
                if saved:
                    restore_states(saved)

        return wrapper

    return decorate

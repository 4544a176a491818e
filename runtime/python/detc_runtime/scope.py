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

import numpy as np
import torch

from . import _core
from ._state import NO_EPOCH, STATE, KeyContext, warn_once

# Values of the scope stream each library's reseed takes.
_WORDS = 4


def _reseed_numpy(words):
    np.random.seed(np.array(words, dtype=np.uint32))  # init_by_array


def _reseed_random(words):
    _random.seed(words[0] | words[1] << 32 | words[2] << 64 | words[3] << 96)


def _reseed_torch(words):
    # The CPU generator only: torch.manual_seed also reseeds every CUDA
    # device (20x slower), and per-example draws here are CPU draws.
    torch.default_generator.manual_seed(words[0] | words[1] << 32)


# library -> (save, restore, reseed)
_LIBRARIES = {
    "numpy": (np.random.get_state, np.random.set_state, _reseed_numpy),
    "random": (_random.getstate, _random.setstate, _reseed_random),
    "torch": (torch.default_generator.get_state,
              torch.default_generator.set_state, _reseed_torch),
}


class _Plan:
    """What a scope does for its (generator id, library) pairs, resolved
    once per decorated `__getitem__`."""

    __slots__ = ("site", "steps", "libraries")

    def __init__(self, site, gens):
        self.site = site
        self.steps = tuple((gen, slot * _WORDS, _LIBRARIES[library][2])
                           for slot, (gen, library) in enumerate(gens))
        self.libraries = tuple(library for _, library in gens)

    def enter(self, epoch, index):
        """Reseeds; returns the states to restore on exit (or None)."""
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
        for gen, offset, reseed in self.steps:
            reseed(_core.stream_words(STATE.seed_of(gen), self.site, epoch,
                                      index, offset, _WORDS))
        return saved


def restore_states(saved):
    """Restores the (library, state) pairs saved by a scope or fetch guard."""
    for library, state in reversed(list(saved)):
        _LIBRARIES[library][1](state)


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

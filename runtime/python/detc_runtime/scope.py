"""The example scope: `__getitem__` and the transforms it calls draw from
the example's own streams.

`@example_scope(site, gens)` on a dataset's `__getitem__`: while it runs,
each listed library-global generator (numpy's, `random`'s, torch's) is
reseeded from stream (seed of that generator, site, epoch, example), so
every `np.random.*`, `random.*`, `torch.*` and torchvision random transform
called inside, directly or through helpers, gets values that depend only on
the example and its epoch, not on which worker loads it or in what order.
In the main process the global states are saved on entry and restored on
exit, so code outside the scope sees its generators untouched (in a worker
process there is nothing outside to protect, and numpy's state copy costs
~60 us). Keyed draws (`keyed(...)`) made
inside the scope also use the example's key.
"""
import functools
import random as _random

import numpy as np

from . import _core
from ._state import NO_EPOCH, STATE, KeyContext, warn_once

# Values of the scope stream each library's reseed takes.
_WORDS = 4


def _save(library):
    if library == "numpy":
        return np.random.get_state()
    if library == "random":
        return _random.getstate()
    import torch

    return torch.default_generator.get_state()


def _restore(library, state):
    if library == "numpy":
        np.random.set_state(state)
    elif library == "random":
        _random.setstate(state)
    else:
        import torch

        torch.default_generator.set_state(state)


def _reseed(library, words):
    if library == "numpy":
        np.random.seed(np.array(words, dtype=np.uint32))  # init_by_array
    elif library == "random":
        _random.seed(words[0] | words[1] << 32 | words[2] << 64 |
                     words[3] << 96)
    else:
        import torch

        # The CPU generator only: torch.manual_seed also reseeds every CUDA
        # device (20x slower), and per-example draws here are CPU draws.
        torch.default_generator.manual_seed(words[0] | words[1] << 32)


class ExampleScope:
    """Context manager form: `with ExampleScope(site, gens, epoch, index):`."""

    def __init__(self, site, gens, epoch, index):
        self.site, self.gens = site, gens
        self.epoch, self.index = epoch, index

    def __enter__(self):
        # A DataLoader worker's global generators are its own and nothing
        # outside the scopes may depend on them; in the main process
        # (num_workers=0) the script's own draws continue after the scope,
        # so their state is saved and restored.
        self.saved = [] if STATE.in_worker else [
            (library, _save(library)) for _, library in self.gens]
        for slot, (gen, library) in enumerate(self.gens):
            words = _core.stream_values(STATE.seed_of(gen), self.site,
                                        self.epoch, self.index,
                                        slot * _WORDS, _WORDS).tolist()
            _reseed(library, words)
        self.outer = STATE.scope
        STATE.scope = KeyContext(self.epoch, [self.index])
        return self

    def __exit__(self, *exc):
        STATE.scope = self.outer
        for library, state in reversed(self.saved):
            _restore(library, state)
        return False


def example_scope(site, gens):
    """Decorator for `__getitem__(self, index, ...)`; gens: the (generator
    id, library) pairs to serve from the example's stream."""
    gens = tuple(gens)

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
            with ExampleScope(site, gens, epoch, example):
                return getitem(self, index, *args, **kwargs)

        return wrapper

    return decorate

"""Generator objects a script makes without a seed, which take one from the
operating system's entropy (`np.random.default_rng()`, `random.Random()`,
`np.random.RandomState()`) or draw from it always (`random.SystemRandom()`):
a different sequence every run, whatever seeds the script sets. The
transform wraps their construction (`entropy_seeded(site, ctor)()`): the
generator is seeded from the run's seed (DETC_SEED or --seed, 0 by
default) and where it is made — the site, how many were made there before
in this process, and the example (or the DataLoader worker) making it —
so two runs make the same generators, a resumed run the ones the
checkpointed run would have made next, and generators made per example or
per worker still differ from one another. A SystemRandom, which no seed
can steer, becomes a `random.Random` seeded so.
"""
import random as _random

import numpy as np

from . import _core
from ._state import MASK64, STATE, warn_once

# Outside examples, the generators made at a site so far count in
# STATE.sequential[("entropy", site)], which checkpoints save and restores
# set (fingerprint.py): a resumed run, whose fast-forward makes none of
# the generators the loop made before the checkpoint, goes on counting
# where the checkpointed run stood.
# site -> (the example context, generators made there in it so far): an
# example's count starts at 0 in whichever process loads it.
_MADE_IN = {}
# The epochs of the streams: made outside any example, in the main process
# or in DataLoader worker w (EPOCH_WORKER + w).
_EPOCH_MAIN = 0xFFFFFFFF
_EPOCH_WORKER = 0xFFFF0000


def _seed(site):
    ctx = STATE.context()
    if ctx is not None and len(ctx.keys):
        last, made = _MADE_IN.get(site, (None, 0))
        made = made if last is ctx else 0
        _MADE_IN[site] = (ctx, made + 1)
        epoch, index = ctx.epoch, (int(ctx.keys[0]) << 20) + made
    else:
        made = STATE.sequential.get(("entropy", site), 0)
        STATE.sequential[("entropy", site)] = made + 1
        import torch.utils.data
        info = torch.utils.data.get_worker_info()
        epoch = _EPOCH_MAIN if info is None else _EPOCH_WORKER + info.id
        index = made
    return int(_core.stream_u64(STATE.seed_of(0), site, epoch,
                                index & 0x7FFFFFFFFFFFFFFF)) & MASK64


def _shown(ctor):
    """How the message names the call `ctor` makes."""
    owner = getattr(ctor, "__self__", None)
    name = getattr(ctor, "__name__", None) or repr(ctor)
    if owner is _random._inst:
        return "random.%s()" % name
    if owner is None or isinstance(owner, type(_random)):
        return "%s()" % ".".join(
            p for p in (getattr(ctor, "__module__", None), name)
            if p).replace("numpy.random.mtrand.", "numpy.random.")
    return "%s.%s()" % (type(owner).__name__, name)


_CONSTRUCTORS = (np.random.default_rng, np.random.RandomState,
                 _random.Random, _random.SystemRandom)


def entropy_seeded(site, ctor, seed_param=None):
    """A callable with `ctor`'s signature that, given no seed (or None, as
    its parameter `seed_param`: the first positional argument or that
    keyword), seeds from the run's seed and the site instead of the
    operating system's entropy. `ctor` makes a generator (default_rng,
    RandomState, Random, SystemRandom) or seeds one (random.seed,
    np.random.seed, a Random's or RandomState's seed, Lightning's
    seed_everything: given a 32-bit seed; torch.seed and a torch
    Generator's seed(), which take none: manual_seed instead)."""
    def make(*args, **kwargs):
        if args:
            given = args[0]
        elif seed_param is not None:
            given = kwargs.get(seed_param)
        else:
            given = None
        if given is not None:
            return ctor(*args, **kwargs)
        seed = _seed(site)
        if args or seed_param in kwargs:
            # Given None (`random.seed(args.seed)`, --seed defaulting to
            # None): said once per site, it changes what the script asked
            # for.
            warn_once(("entropy-seed", site), "%s was given the seed None, "
                      "which seeds from the operating system's entropy (a "
                      "different sequence every run); detc seeds it from "
                      "the run's seed (DETC_SEED, --seed; 0 by default) "
                      "instead" % _shown(ctor))
        if ctor in _CONSTRUCTORS and len(args) + len(kwargs) <= 1:
            if ctor is _random.SystemRandom:
                return _random.Random(seed)
            if ctor is np.random.RandomState:
                return ctor([seed & 0xFFFFFFFF, seed >> 32])
            return ctor(seed)
        seed32 = seed & 0xFFFFFFFF
        if seed_param is None:
            # torch.seed(), a torch Generator's seed(): seed and return the
            # seed, as they do.
            owner = getattr(ctor, "__self__", None)
            import torch
            target = owner if isinstance(owner, torch.Generator) else torch
            target.manual_seed(seed)
            return seed
        if args:
            return ctor(seed32, *args[1:], **kwargs)
        return ctor(*args, **dict(kwargs, **{seed_param: seed32}))

    return make

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
from ._state import MASK64, STATE

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


def entropy_seeded(site, ctor):
    """A constructor with `ctor`'s signature that, given no seed, seeds the
    generator it makes from the run's seed and the site."""
    def make(*args, **kwargs):
        if args or kwargs:
            return ctor(*args, **kwargs)
        seed = _seed(site)
        if ctor is _random.SystemRandom:
            return _random.Random(seed)
        if ctor is np.random.RandomState:
            return ctor([seed & 0xFFFFFFFF, seed >> 32])
        return ctor(seed)

    return make

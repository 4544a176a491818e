"""Process-wide state of the runtime: seeds, and which example(s) draw now.

A keyed draw needs four things: the seed of the generator it replaces, its
site, the epoch, and the example key of every row. The seed comes from the
script's own seed call (recorded by `seeding`), or from `--seed`/DETC_SEED.
The example keys come from the innermost active context: an example scope
(inside a dataset's `__getitem__`) or the current batch (set by the keyed
DataLoader each time it hands the training loop a batch).
"""
import os
import sys

import numpy as np

MASK64 = (1 << 64) - 1
# Epoch word for draws made outside any loader epoch (e.g. `dataset[i]`
# called directly): still keyed by example, never mixed with a real epoch.
NO_EPOCH = 0xFFFFFFFF
# Example word for draws that cannot be tied to examples (a draw whose
# shape does not follow the batch): one sequential stream per site.
NO_EXAMPLE = 0xFFFFFFFE


class KeyContext:
    """The examples drawing now: one per row, with per-site stream offsets."""

    __slots__ = ("epoch", "keys", "offsets", "step")

    def __init__(self, epoch, keys, step=0):
        self.epoch = int(epoch) & 0xFFFFFFFF
        self.keys = keys  # a sequence of ints; an int64 array when drawn
        self.offsets = {}
        self.step = step

    def offsets_for(self, site):
        """The stream offsets of site `site`, one per row (advanced in place)."""
        if not isinstance(self.keys, np.ndarray):
            self.keys = np.asarray(self.keys, dtype=np.int64)
        off = self.offsets.get(site)
        if off is None:
            off = np.zeros(len(self.keys), dtype=np.uint64)
            self.offsets[site] = off
        return off


def parse_seed(text, what):
    """A seed in [0, 2^64): decimal or 0x-hex; anything else (empty, junk,
    negative, too large: it used to wrap) ends the run with exit status 2."""
    try:
        value = int(text.strip(), 0)
    except ValueError:
        value = None
    if value is None or not 0 <= value <= MASK64:
        print("detc-runtime: error: %s=%r: expected an integer seed in "
              "[0, 2^64 - 1]" % (what, text), file=sys.stderr)
        raise SystemExit(2)
    return value


class State:
    def __init__(self):
        self.override = None  # --seed at transform time, or DETC_SEED
        self.seeds = {}  # generator id -> the seed its script call used
        self.scope = None  # KeyContext of the active example scope
        self.batch = None  # KeyContext of the current batch
        self.sequential = {}  # site -> offset of its NO_EXAMPLE stream
        self.warned = set()
        # detc's runtime stopped the run with its own error (exit 2 or 3):
        # the end-of-run check adds nothing to it.
        self.failed = False
        self.in_worker = False  # set in DataLoader workers by the keyed loader
        # While the keyed loader fetches a batch in this process: library ->
        # global generator state saved before the batch's first scope.
        self.fetch_guard = None
        env = os.environ.get("DETC_SEED")
        if env is not None:
            self.override = parse_seed(env, "DETC_SEED")

    def seed_of(self, gen):
        """The 64-bit seed keying generator `gen`'s streams."""
        if self.override is not None:
            return self.override
        return int(self.seeds.get(gen, 0)) & MASK64

    def snapshot(self):
        """What a spawned or forked DataLoader worker must start with."""
        return {"override": self.override, "seeds": dict(self.seeds)}

    def install(self, snap):
        self.in_worker = True
        self.override = snap["override"]
        self.seeds = dict(snap["seeds"])

    def context(self):
        """The innermost example context, or None."""
        return self.scope if self.scope is not None else self.batch


STATE = State()


def warn_once(key, message):
    if key in STATE.warned:
        return
    STATE.warned.add(key)
    print("detc-runtime: warning: " + message, file=sys.stderr)


def exit_stream():
    """Where a message printed right before os._exit must go: the process's
    own stderr when sys.stderr is an in-memory stand-in. torch.distributed's
    excepthook (init_process_group) swaps in a StringIO around the hooks it
    wraps, to prefix their lines with the rank; os._exit loses it."""
    stream = sys.stderr
    try:
        stream.fileno()
        return stream
    except (AttributeError, OSError, ValueError):
        return sys.__stderr__ or stream


def fail(message, code=2):
    """Stops the run with detc's own error (exit 2: unusable input; 3: a
    guarantee that does not hold); the end-of-run check adds nothing."""
    STATE.failed = True
    print("detc-runtime: " + message, file=sys.stderr)
    if _in_job():
        # A rank of a job stops at once: its peers, waiting for it in a
        # collective, fail as it exits, and torch.multiprocessing.spawn
        # reports whichever process it sees end first. Exiting through
        # SystemExit (atexit, the process group's teardown) let a peer's
        # "connection closed" end first and hide this exit status.
        sys.stderr.flush()
        sys.stdout.flush()
        os._exit(code)
    raise SystemExit(code)


def _in_job():
    """Whether this process is a rank of a job of two or more processes."""
    dist = sys.modules.get("torch.distributed")
    try:
        return bool(dist and dist.is_available() and dist.is_initialized()
                    and dist.get_world_size() > 1)
    except Exception:  # a process group being torn down
        return False

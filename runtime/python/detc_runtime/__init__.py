"""detc's per-example RNG runtime (SPEC §3), imported by transformed scripts.

The C++ core (`_core`) computes Philox4x32-10 keyed streams and exact
transforms straight into numpy/torch buffers. This package maps the
patterns detc rewrites onto it:

- `seeding(gen, fn)`: a seed call of the script, recorded so that the
  generator's keyed streams follow the script's own seed;
- `keyed(site, gen, fn)` / `keyed_module(site, gen, cls)`: random calls and
  dropout modules of a batch region, drawn per example row;
  `key_imported_layers(site, gen, names)`: the same for the dropout layers
  that modules the script imports build;
- `keyed_loader(site, gens=..., loader_class=DataLoader)`: the DataLoader
  with a keyed sampler whose indices carry their epoch and whose batches set
  the current example keys; every example is fetched in an example scope
  serving the library-global generators from the example's stream;
- `example_scope(site, gens)`: the same scope as a decorator on a
  `__getitem__` (for a dataset read outside a keyed loader);
- `configure(...)`: seed override and deterministic-kernel switches;
- `checkpoint(...)` and friends (replay.py): user checkpoints with sidecars,
  resumed bit-identically; `hints` (hints.py): checkpoints at the hint the
  CheckHint schedule chose, with restart at that hint.

See docs/runtime.md for the stream layout and docs/codegen.md for how
`detc transform` uses these.
"""
import os
import sys

from . import _core


def _check_core():
    """Verify, don't trust: the core's numpy interface is compiled against
    one numpy ABI (Debian's pybind11 2.10 reads numpy 1.x's descriptor
    layout); under numpy 2 it computed every permutation as one repeated
    index and every row fill into one element — silently wrong streams.
    Refuse to run then, loudly, instead of training on them."""
    import numpy
    perm = _core.permutation(16, 1, 1, 0)
    rows = numpy.zeros((2, 4), dtype=numpy.float32)
    try:
        _core.fill_rows("uniform", rows, 1, 1, 0,
                        numpy.array([0, 1], dtype=numpy.int64),
                        numpy.zeros(2, dtype=numpy.uint64))
    except ValueError:  # under numpy 2: "unsupported output dtype"
        rows[:] = 0
    if sorted(int(i) for i in perm) != list(range(16)) or \
            len(set(rows.ravel().tolist())) != 8:
        raise ImportError(
            "detc_runtime: its C++ core does not work with numpy %s here "
            "(its numpy interface was compiled for another numpy ABI: "
            "keyed permutations and draws come out wrong). Use the numpy "
            "it was built with (numpy<2 for Debian's build), or rebuild "
            "detc's runtime against this numpy" % numpy.__version__)


_check_core()
from ._state import MASK64, STATE
from .data import (ExampleKey, KeyedDataLoader, KeyedDistributedSampler,
                   key_imported_loaders,
                   KeyedSampler, keyed_loader)
from .draws import batch_keyed, key_imported_layers, keyed, keyed_module
from .entropy import entropy_seeded
from .replay import (REPLAY, SKIPPED, announce_checkpoint, batches, bound,
                     check_rederived, checkpoint, checkpoint_file, decide,
                     decision, entries_except, fed,
                     from_nest, guard, has_value, load_unwrapped,
                     nest_batches, nest_guard, outer_value, outer_values,
                     real_batches, recorded, restore_generator, restore_object,
                     restore_value,
                     restoring, restoring_outer, resumed, saved_value,
                     skippable, unrestorable, user_checkpoint)
from .values import generator_state
from .call_end import call_returned, returned_recorded
from .scope import ExampleScope, example_scope
from . import hints
from . import jit
from . import overlay
from . import trace
from . import vaccine
from . import compile_hook as _compile_hook
from . import replay as _replay

_compile_hook.install()  # torch.compile: keyed draws run as Python

FORMAT_VERSION = 1


def configure(seed=None, deterministic_kernels=True, script_sha256=None,
              inserted_lines=None, hint_values=None, left_nondeterministic=()):
    """Called once at the top of a transformed script. `seed` (from
    `detc transform --seed`) keys every stream instead of the script's own
    seeds; DETC_SEED in the environment overrides both. `script_sha256`
    (the original script's, from transform time) ties checkpoints to the
    script's profiles; checkpoints are tied to the running script's own
    bytes. Takes --detc-resume/--detc-replay/--detc-until/
    --detc-checkpoint/--detc-restart off the command line and, when
    resuming, checks the checkpoint before the script runs. With --detc-profile FILE (or
    DETC_PROFILE), profiles the run (profile.py) using `inserted_lines` and
    `hint_values`, detc's tables of the script's hints.
    `left_nondeterministic`: `file:line` of the random calls detc transform
    could not make deterministic (and left as they are); a run says so on
    stderr before it starts."""
    from . import env
    env.check_all()  # a malformed RANK or DETC_* stops here, exit 2
    if left_nondeterministic:
        sys.stderr.write(
            "detc-runtime: warning: %d random call(s) were left "
            "nondeterministic by detc transform (%s): this run is "
            "deterministic except for what they draw\n"
            % (len(left_nondeterministic), ", ".join(left_nondeterministic)))
    if seed is not None and os.environ.get("DETC_SEED") is None:
        STATE.override = int(seed) & MASK64
    seed_globals(STATE.override if STATE.override is not None else 0)
    profile_path = _replay._take_flag(sys.argv, "--detc-profile") or \
        os.environ.get("DETC_PROFILE")
    # Checkpoints are tied to the code that runs: an edit of the emitted
    # script (a hyperparameter changed in train.det.py) is another script.
    _replay.REPLAY.script_globals = sys._getframe(1).f_globals
    resuming = _replay.start(_running_script_sha256(sys._getframe(1)) or
                             script_sha256)
    _say_what_detc_added(resuming, profile_path)
    if deterministic_kernels:
        os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
        os.environ.setdefault("TF_DETERMINISTIC_OPS", "1")
        try:
            import torch
        except ImportError:
            torch = None
        if torch is not None:
            _compile_hook.deterministic_kernels()
            torch.backends.cudnn.deterministic = True
            torch.backends.cudnn.benchmark = False
    if profile_path:
        if hint_values is None:
            _replay.fail("error: --detc-profile measures scripts with "
                         "checkpoint hints; this one has none")
        from . import profile
        profile.start(profile_path, script_sha256, inserted_lines,
                      hint_values)


def _say_what_detc_added(resuming, profile_path):
    """One line on stderr as the run starts, from the main process of rank
    0 only (not from DataLoader workers, which re-import the script under
    spawn): what detc does to this run and how to resume it."""
    import multiprocessing

    from . import env
    if env.quiet() or env.rank() != 0 or \
            multiprocessing.current_process().name != "MainProcess":
        return
    if STATE.override is not None:
        seeds = "seed %d, from --seed or DETC_SEED" % STATE.override
    else:
        seeds = "keyed by the script's own seeds; DETC_SEED=N overrides them"
    if resuming is not None:
        what = "resuming from %s: bit-identical to the uninterrupted run, " \
               "or it stops with exit 2 or 3" % resuming
    else:
        what = "checkpoints this script saves get a sidecar; after a " \
               "crash, rerun with --detc-resume CHECKPOINT"
    sys.stderr.write(
        "detc: deterministic run (%s)%s; %s. DETC_QUIET=1 hides this "
        "line.\n" % (seeds, "; profiling into " + profile_path
                      if profile_path else "", what))


def seed_globals(seed):
    """Seeds torch's (every device's), numpy's and random's global
    generators from `seed` before the script's first statement: a script
    that never seeds one is deterministic from its first line, and
    --seed / DETC_SEED choose its run. A script's own seed calls come
    later and take over."""
    import random

    import numpy as np
    import torch

    torch.manual_seed(seed)
    np.random.seed([seed & 0xFFFFFFFF, seed >> 32])
    random.seed(seed)


def _running_script_sha256(frame):
    """sha256 of the running script's file (the transformed script), or
    None when it has no file (python -c, stdin). `frame` is the script's
    own (configure's caller): a worker torch.multiprocessing.spawn starts
    runs the script as `__mp_main__` while `__main__` is still its
    bootstrap (no file), and its checkpoints carried the original script's
    hash, which the resuming parent, hashing its file, refused."""
    import __main__
    import hashlib
    path = frame.f_code.co_filename if frame is not None else None
    if not path or not os.path.isfile(path):
        path = getattr(__main__, "__file__", None)
    if not path:
        return None
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def seeding(gen, fn):
    """`fn` (a seed call or seeded constructor) that also records its seed
    argument as the seed of generator `gen` (a tuple: of each, for a call
    that seeds several libraries, as Lightning's seed_everything)."""
    gens = gen if isinstance(gen, tuple) else (gen,)

    def call(*args, **kwargs):
        seed = args[0] if args else kwargs.get("seed")
        if seed is not None and not isinstance(seed, (int,)) and hasattr(
                seed, "__index__"):
            seed = seed.__index__()
        if isinstance(seed, int):
            for g in gens:
                STATE.seeds[g] = seed
        return fn(*args, **kwargs)

    return call


__all__ = ["configure", "seeding", "entropy_seeded", "keyed",
           "keyed_module", "batch_keyed",
           "key_imported_layers", "key_imported_loaders", "keyed_loader",
           "example_scope", "ExampleScope", "ExampleKey", "KeyedSampler",
           "KeyedDistributedSampler", "KeyedDataLoader", "STATE",
           "FORMAT_VERSION", "REPLAY", "SKIPPED", "announce_checkpoint", "batches",
           "check_rederived", "checkpoint", "checkpoint_file", "decide",
           "decision", "fed", "from_nest",
           "load_unwrapped", "nest_batches", "nest_guard", "real_batches",
           "recorded",
           "generator_state", "guard", "has_value", "restore_generator",
           "restoring", "resumed", "saved_value", "skippable",
           "user_checkpoint", "hints", "jit"]

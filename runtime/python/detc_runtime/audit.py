"""`detc audit`: run a training script and record every random draw.

The dynamic oracle of the static analysis (docs/audit.md): the script
runs for real, for a bounded number of loader batches, with torch's,
numpy's and random's drawing functions wrapped. Each draw is recorded
once per (site, library function, context), where

- the site is the innermost frame of the user's code (not the standard
  library, not an installed package, not detc_runtime) on the draw's stack;
- the context is where the draw ran: `per-example` (producing one example:
  in a DataLoader worker, or in the main process while a loader fetches),
  `per-batch` (in the main process between two batches of a loader, the
  training step), or `outside` (set-up, evaluation after the loop).

Draws in the first two are the data-parallel regions' draws: on an
original script they are what `detc analyze` should report, on a
transformed one each is a draw that escaped keying (the keyed runtime's
own draws run inside detc_runtime and are not the user's).

DataLoader workers are forked: each appends what it records to a file in
a folder the main process reads after the run (worker processes end
through os._exit, past any atexit handler).

Not seen: draws through numpy Generator/RandomState objects the script
makes (their methods are C code: only the global numpy functions are
wrapped), and draws inside torch's C++ kernels that no Python function
starts (an LSTM's inter-layer dropout).
"""
import os
import sys

# Run as a file (`python .../detc_runtime/audit.py`), Python puts this
# package's folder first on sys.path, where its modules shadow the standard
# library's: torch 2.x's dynamo imports cProfile, which imported
# detc_runtime/profile.py as `profile` and failed. The script's own folder
# takes that place below.
if sys.path and os.path.abspath(sys.path[0] or ".") == \
        os.path.dirname(os.path.abspath(__file__)):
    del sys.path[0]

import argparse  # noqa: E402
import functools  # noqa: E402
import json  # noqa: E402
import runpy  # noqa: E402
import sysconfig
import tempfile
import threading
import traceback
import weakref

_TORCH_FUNCTIONS = ("rand", "randn", "randint", "randperm", "bernoulli",
                    "normal", "multinomial", "poisson", "rand_like",
                    "randn_like", "randint_like")
_TENSOR_METHODS = ("uniform_", "normal_", "bernoulli_", "random_",
                   "exponential_", "geometric_", "cauchy_", "log_normal_",
                   "bernoulli", "multinomial")
_DROPOUTS = ("dropout", "dropout1d", "dropout2d", "dropout3d",
             "alpha_dropout", "feature_alpha_dropout")
_RANDOM_FUNCTIONS = ("random", "uniform", "randint", "randrange", "choice",
                     "choices", "shuffle", "sample", "gauss",
                     "normalvariate", "lognormvariate", "expovariate",
                     "vonmisesvariate", "gammavariate", "betavariate",
                     "paretovariate", "weibullvariate", "triangular",
                     "getrandbits", "randbytes")


class _Context(threading.local):
    def __init__(self):
        self.depth = 0      # wrapped calls in progress (only the outermost
        self.fetching = 0   # records); loader fetches in progress


class Recorder:
    """What one process saw: {(file, line, api, context): count}."""

    def __init__(self, roots, sink_dir):
        self.roots = [os.path.realpath(r) for r in roots]
        self.sink_dir = sink_dir
        self.counts = {}
        self.ctx = _Context()
        self.in_loop = False
        self.batches = 0
        self.steps = None
        # The loaders' iterators the run took batches from (stop_loaders).
        self.iterators = weakref.WeakSet()
        self.main_pid = os.getpid()
        self._self_file = os.path.abspath(__file__)
        self._runtime_dir = os.path.dirname(self._self_file) + os.sep
        self._library_dirs = {os.path.realpath(p) for p in (
            sysconfig.get_paths().get("stdlib"),
            sysconfig.get_paths().get("purelib"),
            sysconfig.get_paths().get("platlib"),
            os.path.dirname(os.path.abspath(__file__))) if p}

    # -- Where a draw comes from and runs --------------------------------
    def _is_user_file(self, path):
        real = os.path.realpath(path)
        if any(real.startswith(d + os.sep) for d in self._library_dirs):
            return False
        if "site-packages" in real or "dist-packages" in real:
            return False
        return any(real == r or real.startswith(r + os.sep)
                   for r in self.roots)

    def _site(self):
        """The innermost user frame of the draw, or None for a draw detc's
        runtime makes or scopes (a keyed draw, or one inside a keyed
        loader's example scope, which reseeds the generators it uses)."""
        site = None
        frame = sys._getframe(3)
        while frame is not None:
            path = frame.f_code.co_filename
            if path.startswith(self._runtime_dir) and path != self._self_file:
                return None, 0
            if site is None and self._is_user_file(path):
                site = (path, frame.f_lineno)
            frame = frame.f_back
        return site if site else (None, 0)

    def _context(self):
        if self.ctx.fetching or os.getpid() != self.main_pid:
            return "per-example"
        return "per-batch" if self.in_loop else "outside"

    def record(self, api):
        path, line = self._site()
        if path is None:
            return
        key = (path, line, api, self._context())
        first = key not in self.counts
        self.counts[key] = self.counts.get(key, 0) + 1
        if first and os.getpid() != self.main_pid and self.sink_dir:
            # A worker: one line per new key, written at once.
            name = os.path.join(self.sink_dir, "worker-%d.jsonl" % os.getpid())
            with open(name, "a") as f:
                f.write(json.dumps(list(key)) + "\n")

    # -- Wrapping ---------------------------------------------------------
    def wrap(self, owner, name, api, draws=None):
        original = getattr(owner, name, None)
        if original is None or getattr(original, "_detc_audit", False):
            return
        recorder = self

        @functools.wraps(original)
        def wrapper(*args, **kwargs):
            ctx = recorder.ctx
            ctx.depth += 1
            try:
                if ctx.depth == 1 and (draws is None or draws(args, kwargs)):
                    recorder.record(api)
                return original(*args, **kwargs)
            finally:
                ctx.depth -= 1

        wrapper._detc_audit = True
        try:
            setattr(owner, name, wrapper)
        except (AttributeError, TypeError):
            pass

    def install(self):
        import random
        for name in _RANDOM_FUNCTIONS:
            self.wrap(random, name, "random." + name)
            self.wrap(random.Random, name, "random.Random." + name)
        try:
            import numpy.random as npr
        except ImportError:
            npr = None
        if npr is not None:
            for name in dir(npr):
                fn = getattr(npr, name)
                # The global RandomState's bound methods (np.random.rand).
                if callable(fn) and isinstance(getattr(fn, "__self__", None),
                                               npr.RandomState) \
                        and not name.startswith(("seed", "get_state",
                                                 "set_state")):
                    self.wrap(npr, name, "numpy.random." + name)
        try:
            import torch
            import torch.nn.functional as F
        except ImportError:
            return
        for name in _TORCH_FUNCTIONS:
            self.wrap(torch, name, "torch." + name)
        for name in _TENSOR_METHODS:
            self.wrap(torch.Tensor, name, "torch.Tensor." + name)

        def dropping(args, kwargs):
            p = kwargs.get("p", args[1] if len(args) > 1 else 0.5)
            training = kwargs.get("training", args[2] if len(args) > 2
                                  else True)
            return bool(training) and p > 0

        for name in _DROPOUTS:
            self.wrap(F, name, "torch.nn.functional." + name, dropping)
        self.wrap(F, "scaled_dot_product_attention",
                  "torch.nn.functional.scaled_dot_product_attention",
                  lambda a, k: k.get("dropout_p", a[4] if len(a) > 4 else 0)
                  > 0)
        self._install_loader_hooks()

    def _install_loader_hooks(self):
        from torch.utils.data import dataloader
        from torch.utils.data._utils import fetch
        recorder = self

        for fetcher in (fetch._MapDatasetFetcher, fetch._IterableDatasetFetcher):
            original = fetcher.fetch

            def fetch_wrapper(self, index, _original=original):
                recorder.ctx.fetching += 1
                try:
                    return _original(self, index)
                finally:
                    recorder.ctx.fetching -= 1

            fetcher.fetch = fetch_wrapper

        original_next = dataloader._BaseDataLoaderIter.__next__

        def next_wrapper(self):
            if os.getpid() != recorder.main_pid:
                return original_next(self)
            recorder.iterators.add(self)
            recorder.in_loop = False
            if recorder.steps is not None and recorder.batches >= recorder.steps:
                raise AuditStop()
            try:
                batch = original_next(self)
            except StopIteration:
                raise
            recorder.batches += 1
            recorder.in_loop = True
            return batch

        dataloader._BaseDataLoaderIter.__next__ = next_wrapper

    # -- After the run ----------------------------------------------------
    def stop_loaders(self):
        """Shuts down the workers of the loaders' iterators the run left
        alive (the stop at --steps ends it mid-epoch). Left to the garbage
        collector, an iterator a module-level loop keeps in the script's
        globals is finalized inside a reference cycle whose queues may
        already be cleared: its workers never see the request to stop,
        and each join waits out its 5-second timeout."""
        for iterator in list(self.iterators):
            shutdown = getattr(iterator, "_shutdown_workers", None)
            if shutdown is not None:
                try:
                    shutdown()
                except Exception:  # (a script's own iterator subclass)
                    pass

    def merged(self):
        counts = dict(self.counts)
        if self.sink_dir and os.path.isdir(self.sink_dir):
            for name in sorted(os.listdir(self.sink_dir)):
                with open(os.path.join(self.sink_dir, name)) as f:
                    for line in f:
                        try:
                            key = tuple(json.loads(line))
                        except ValueError:
                            continue  # a worker killed mid-line
                        if len(key) == 4:
                            counts[key] = counts.get(key, 0) + 1
        return counts


class AuditStop(BaseException):
    """Raised at the loader's next batch once --steps batches ran (a
    BaseException, so `except Exception` in the script lets it through)."""


def report(counts, batches, fmt, out):
    sites = {}
    for (path, line, api, context), n in counts.items():
        entry = sites.setdefault((path, line, api), {})
        entry[context] = entry.get(context, 0) + n
    ordered = sorted(sites.items(), key=lambda kv: (kv[0][0], kv[0][1],
                                                    kv[0][2]))
    in_regions = [(k, v) for k, v in ordered
                  if "per-example" in v or "per-batch" in v]
    if fmt == "json":
        json.dump({"version": 1, "batches": batches, "draws": [
            {"file": k[0], "line": k[1], "api": k[2], "contexts": v}
            for k, v in ordered]}, out, indent=1, sort_keys=True)
        out.write("\n")
        return
    for (path, line, api), contexts in in_regions:
        where = ", ".join(c for c in ("per-example", "per-batch")
                          if c in contexts)
        out.write("%s:%d: draw '%s' inside a data-parallel region (%s)\n"
                  % (path, line, api, where))
    out.write("%d draw site(s) inside data-parallel regions, %d outside; "
              "%d batch(es) run\n" % (len(in_regions),
                                      len(ordered) - len(in_regions),
                                      batches))


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="detc audit",
        description="Run a training script for a few batches and report "
                    "every random draw made inside a data-parallel region.",
        epilog="The interpreter that runs the script is chosen before "
               "these options: detc audit --python=PATH ... (default: "
               "$DETC_PYTHON, else python3).")
    parser.add_argument("--steps", type=int, default=2,
                        help="loader batches to run before stopping "
                             "(default 2; 0 runs to the end)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("script")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    opts = parser.parse_args(argv)
    script = os.path.abspath(opts.script)
    if not os.path.isfile(script):
        parser.error("cannot read '%s'" % opts.script)
    with tempfile.TemporaryDirectory(prefix="detc-audit-") as sink:
        recorder = Recorder([os.path.dirname(script)], sink)
        recorder.steps = opts.steps if opts.steps > 0 else None
        recorder.install()
        sys.argv = [script] + opts.args
        sys.path.insert(0, os.path.dirname(script))
        status = 0
        try:
            runpy.run_path(script, run_name="__main__")
        except AuditStop:
            pass
        except SystemExit as e:
            status = e.code if isinstance(e.code, int) else (
                0 if e.code is None else 1)
        except Exception:  # the script failed: what it drew still counts
            traceback.print_exc()
            status = 1
        recorder.stop_loaders()
        # Other iterators shut their workers down when collected.
        import gc
        gc.collect()
        # Workers write as they go; the loader's shutdown has joined them
        # (or the stop left them to exit): read what they wrote.
        counts = recorder.merged()
    out = sys.stdout
    out.flush()
    report(counts, recorder.batches, opts.format, out)
    return status


if __name__ == "__main__":
    sys.exit(main())

"""Checkpoints a script writes into a file it opens itself.

pytorch/examples' word_language_model and salesforce/awd-lstm-lm save
their best model with

    with open(args.save, 'wb') as f:
        torch.save(model, f)

The transform wraps that `open` (`checkpoint_file(open)(args.save, 'wb')`,
replay.py) and the save (`checkpoint(site, torch.save, ...)(model, f)`).
The wrapped `open` returns a CheckpointFile, a context manager:

* in fast-forward it opens nothing (an UnopenedFile): the resume must not
  truncate the checkpoint it resumes from, which the `with` it runs to
  reach the restore would otherwise do;
* otherwise it opens, instead of the checkpoint, an empty file in a
  commit's holder (holders.py) and hands the script that file. The save
  writes there; the checkpoint wrapper then commits it with its sidecar
  (sidecar.commit: renamed over the checkpoint, sidecar beside it), and the
  script's file object goes on referring to the committed file. Until
  then the previous checkpoint and its sidecar stay whole: a run killed
  while the script's `open` had truncated its checkpoint, or during the
  save, resumes from the previous one. Should the `with` end with no
  checkpoint committed, the file the script wrote replaces the checkpoint
  as its own `open` would have (without a sidecar), unless the block
  raised (a save that failed is never committed).

A file object the transform did not wrap (opened elsewhere) is written in
place when it is a regular file at its start (sidecar.save_in_place).
"""
import os
import stat
import weakref

from . import holders, sidecar

# The script's file objects opened in a holder: CheckpointFile by file.
_HELD = weakref.WeakKeyDictionary()


def _writes(mode):
    return isinstance(mode, str) and any(c in mode for c in "wax+")


class UnopenedFile:
    """What a checkpoint's `open(path, "wb")` gives in fast-forward:
    nothing is opened; writes are discarded."""

    def __init__(self, name, mode):
        self.name, self.mode, self.closed = name, mode, False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def write(self, data):
        return memoryview(data).nbytes

    def writable(self):
        return True

    def flush(self):
        pass

    def close(self):
        self.closed = True


class CheckpointFile:
    """`open_(file, mode, ...)` around a checkpoint written into the file:
    see the module's docstring."""

    def __init__(self, open_, fast_forward, file, mode="r", *args, **kwargs):
        self.holder = self.real = self.tmp = None
        self.committed = False
        is_path = isinstance(file, (str, bytes, os.PathLike))
        if fast_forward and _writes(mode):
            self.file = UnopenedFile(
                os.fsdecode(file) if is_path else repr(file), mode)
            return
        if is_path and isinstance(mode, str) and "w" in mode and \
                "b" in mode:
            try:
                self.real = sidecar.writable_target(file)
            except OSError:
                self.real = None  # the script's own open says why
        if self.real is None:
            self.file = open_(file, mode, *args, **kwargs)
            return
        self.holder, self.tmp = holders.take(
            self.real, os.path.basename(os.fsdecode(file)))
        try:
            self.file = open_(self.tmp, mode, *args, **kwargs)
        except BaseException:
            self.holder.remove()
            raise
        _HELD[self.file] = self

    def opened(self):
        """The file itself, for `f = open(path, "wb")` outside a `with`
        (`torch.save(model, f)`, then `f.close()`). Should it be dropped
        or the run end with nothing committed, what the script wrote
        replaces the checkpoint, as its own `open` would have."""
        f = self.file
        if self.holder is not None:
            # Neither the table's value (self) nor the finalizer may hold
            # the file: it would never be dropped.
            self.file = weakref.proxy(f)
            weakref.finalize(f, _settle, self)
        return f

    def __enter__(self):
        return self.file.__enter__()

    def __exit__(self, kind, value, traceback):
        try:
            return self.file.__exit__(kind, value, traceback)
        finally:
            _HELD.pop(self.file, None)
            if self.holder is not None and not self.committed:
                if kind is None:
                    os.replace(self.tmp, self.real)
                self.holder.remove()


def _settle(c):
    if not c.committed:
        c.committed = True
        try:
            os.replace(c.tmp, c.real)
        except OSError:
            pass  # the holder's folder went away with the run's files
        c.holder.remove()


def held(f):
    """The CheckpointFile that opened `f` in a holder, if any (not yet
    committed)."""
    try:
        c = _HELD.get(f)
    except TypeError:  # not weakly referenceable: not one of ours
        return None
    return c if c is not None and not c.committed else None


def commit(c, body):
    """Commits what the script's save wrote into `c`'s file as the
    checkpoint at its path, with a sidecar of `body()`. Returns the
    sidecar's size in bytes."""
    c.file.flush()
    c.committed = True
    return sidecar.commit(c.real, c.holder, c.tmp, body())


def in_place_path(f):
    """The path of the regular file `f` is open on for writing from its
    start, or None (io.BytesIO, a file written past its start or opened
    to read, not a regular file)."""
    if isinstance(f, UnopenedFile):
        return f.name
    name = getattr(f, "name", None)
    if not isinstance(name, str) or isinstance(f, (str, bytes, os.PathLike)):
        return None
    try:
        if not f.writable() or f.tell() != 0:
            return None
        here = os.fstat(f.fileno())
        return name if stat.S_ISREG(here.st_mode) and \
            os.path.samestat(here, os.stat(name)) else None
    except (AttributeError, OSError, ValueError):
        return None

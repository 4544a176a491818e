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

A file opened once for a loop's saves (`f = open(path, "wb")` before
`for epoch in ...: torch.save(model, f)`, or a `with` around the loop) is
wrapped too (`checkpoint_file(open, across_saves=True)`): it serves every
save of the loop, so it is opened as written, except in fast-forward when
it is the checkpoint the run resumes from. There the script's `open` would
truncate that checkpoint before the restore reads it; a ContinuedFile
opens nothing until fast-forward is over, then reopens the file where the
checkpointed run had left it, so the saves after the resume follow it as
they did in the uninterrupted run. (Only the loop's first save is written
at the file's start and gets a sidecar; torch.load reads that one back.)

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


class ContinuedFile:
    """What a loop's checkpoint file (`open(path, "wb")` before the loop)
    gives in fast-forward when `path` is the checkpoint being resumed
    from: nothing is opened, and what the script writes while
    fast-forward lasts (already in the file: it was written before the
    checkpoint) is counted, not written. The first use after
    fast-forward opens the file to update it, at its end."""

    def __init__(self, open_, fast_forward, name, mode, args, kwargs):
        self.name, self.mode, self.closed = name, mode, False
        # "wb" -> "r+b": to update the file, not truncate it.
        update = "r+" + "".join(c for c in mode if c not in "rwax+")
        self._open = lambda: open_(name, update, *args, **kwargs)
        self._fast_forward = fast_forward
        self._file = None
        self._skipped = 0  # bytes fast-forward did not write

    def _real(self):
        if self._file is None:
            if self.closed:
                raise ValueError("I/O operation on closed file.")
            self._file = self._open()
            self._file.seek(0, os.SEEK_END)
        return self._file

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def write(self, data):
        if self._file is None and self._fast_forward():
            n = memoryview(data).nbytes
            self._skipped += n
            return n
        return self._real().write(data)

    def tell(self):
        if self._file is None and self._fast_forward():
            return self._skipped
        return self._real().tell()

    def writable(self):
        return True

    def flush(self):
        if self._file is not None:
            self._file.flush()

    def close(self):
        self.closed = True
        if self._file is not None:
            self._file.close()

    def __getattr__(self, name):
        # fileno, seek, read...: the file itself (opened now).
        return getattr(self._real(), name)


class CheckpointFile:
    """`open_(file, mode, ...)` around a checkpoint written into the file:
    see the module's docstring."""

    def __init__(self, open_, fast_forward, file, mode="r", *args, **kwargs):
        self.holder = self.real = self.tmp = None
        self.committed = False
        self.shown = os.fsdecode(file) if isinstance(
            file, (str, bytes, os.PathLike)) else repr(file)
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


def across_saves(open_, fast_forward, resumed_from, file, mode="r",
                 *args, **kwargs):
    """`open_(file, mode, ...)` of a file a loop's saves are written into
    (see the module's docstring): a ContinuedFile in fast-forward when it
    is the checkpoint `resumed_from`, the file itself otherwise."""
    if fast_forward() and _writes(mode) and "w" in mode and \
            isinstance(file, (str, bytes, os.PathLike)) and resumed_from:
        try:
            same = os.path.samefile(file, resumed_from)
        except OSError:
            same = False
        if same:
            return ContinuedFile(open_, fast_forward, os.fsdecode(file),
                                 mode, args, kwargs)
    return open_(file, mode, *args, **kwargs)


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


def shown_name(f):
    """The name to show for the script's file `f`: the checkpoint's path
    for a file opened in a holder (its own name is the holder's)."""
    try:
        c = _HELD.get(f)
    except TypeError:
        c = None
    return c.shown if c is not None else f.name


def commit(c, body):
    """Commits what the script's save wrote into `c`'s file as the
    checkpoint at its path, with a sidecar of `body()`. Returns the
    sidecar's size in bytes."""
    c.file.flush()
    c.committed = True
    return sidecar.commit(c.real, c.holder, c.tmp, body)


def in_place_path(f):
    """The path of the regular file `f` is open on for writing from its
    start, or None (io.BytesIO, a file written past its start or opened
    to read, not a regular file)."""
    if isinstance(f, UnopenedFile):
        return f.name
    if isinstance(f, ContinuedFile) and f._file is None:
        return f.name if f.tell() == 0 else None
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

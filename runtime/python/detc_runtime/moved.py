"""Checkpoints the script moves, links or copies after writing them.

Many training scripts write a checkpoint under a temporary name and then
rename it, or copy it to a second name: timm's CheckpointSaver saves
`tmp.pth.tar`, renames it to `last.pth.tar` (os.replace) and links or
copies that to `checkpoint-<epoch>.pth.tar` and `model_best.pth.tar`;
others `shutil.copyfile(filename, 'model_best.pth.tar')`. detc's sidecar
sat beside the name the checkpoint was written under, so a resume from
the name the user sees (`--detc-resume last.pth.tar`) was refused: the
file had no sidecar.

Once this process has committed a checkpoint with a sidecar (sidecar.py
calls committed()), os.replace, os.rename, os.link and shutil's copyfile,
copy and copy2 (shutil.move renames, or copies with copy2) check their
source: when it is a checkpoint this process committed, the sidecar goes
with it — moved by a rename, copied by a link or a copy (the body holds
the checkpoint's size and hash, not its name; sidecar.commit's pending
tail is done first, so the sidecar is in its place). The new name's
sidecar is written as `.tmp` before the file moves and renamed after, as
a commit does: a kill at any moment leaves each name a sidecar that
matches it. Any other call runs as it was, at the cost of a set lookup.
"""
import os
import shutil
import stat
import threading

_LOCK = threading.Lock()
_COMMITTED = set()  # real paths of the checkpoints this process committed
_NAMES = set()      # their base names: most calls are passed over by name
# real path -> the commit it holds (a serial per commit; a copy or a move
# takes its source's): the names a commit's sidecar is at now (names_of)
_SERIALS = {}
_NEXT_SERIAL = [0]
_ORIGINAL = {}      # (module, name) -> the function before install()
# A wrapped call under way on this thread (shutil.copy2 calls copyfile,
# shutil.move os.rename: the outer call moves the sidecar once).
_INSIDE = threading.local()


def committed(real):
    """Checkpoint `real` (a real path) was committed with its sidecar."""
    install()
    with _LOCK:
        _COMMITTED.add(real)
        _NAMES.add(os.path.basename(real))
        _NEXT_SERIAL[0] += 1
        _SERIALS[real] = _NEXT_SERIAL[0]


def last_serial():
    """The serial of this process's latest commit."""
    with _LOCK:
        return _NEXT_SERIAL[0]


def names_of(serial):
    """The real paths holding commit `serial` now: where it was written,
    and the names the script moved or copied it to since."""
    with _LOCK:
        return sorted(r for r, s in _SERIALS.items() if s == serial)


def amend_commit(serial, site, instance, more, failed):
    """Adds the entries of `more` to the sidecar of commit `serial` (the
    checkpoint of `site`'s run `instance`) under every name it is at now
    (sidecar.amend; a name the script wrote another commit to since is
    left alone). `failed(real, error)` hears of a name that could not be
    amended."""
    from . import sidecar

    def same(body):
        return body.get("site") == site and body.get("instance") == instance

    for real in names_of(serial):
        try:
            sidecar.amend(real, same, more)
        except OSError as e:
            failed(real, e)


def install():
    """Wraps the functions (once): at the first commit, or at a resume."""
    with _LOCK:
        if not _ORIGINAL:
            _install()


def _install():
    # ("into": a copy whose destination may be a folder)
    for module, name, kind in ((os, "replace", "move"),
                               (os, "rename", "move"),
                               (os, "link", "copy"),
                               (shutil, "copyfile", "copy"),
                               (shutil, "copy", "into"),
                               (shutil, "copy2", "into")):
        original = getattr(module, name)
        _ORIGINAL[(module, name)] = original
        setattr(module, name, _wrapped(original, kind))


def unwrapped(fn):
    """`fn` as it was before install(): detc's own links of a checkpoint
    (sidecar._keep_previous) are no copies the sidecar follows."""
    return getattr(fn, "__wrapped__", fn)


def _source(src):
    """The real path of `src` when it is a checkpoint this process
    committed, else None."""
    try:
        src = os.fspath(src)
        if isinstance(src, bytes):
            src = os.fsdecode(src)
        if os.path.basename(src) not in _NAMES and not os.path.islink(src):
            return None  # (no realpath: a path's lstat per component)
        real = os.path.realpath(src)
    except (TypeError, ValueError):  # a file descriptor, bytes of no path
        return None
    with _LOCK:
        return real if real in _COMMITTED else None


def _wrapped(fn, kind):
    def call(src, dst, *args, **kwargs):
        from . import sidecar
        # On the durability thread it is detc's own tail (or code a test
        # hooks into it): waiting for the tail there would never return.
        # Paths relative to folder descriptors name no file detc can
        # place a sidecar beside: such calls run as they are.
        relative = kwargs.get("src_dir_fd") is not None or \
            kwargs.get("dst_dir_fd") is not None
        real = None if getattr(_INSIDE, "on", False) or relative or \
            sidecar.DURABILITY.on_its_thread() else _source(src)
        if real is None:
            if kind == "move" and not relative and \
                    _done_before_the_resume(src, dst):
                return None
            return fn(src, dst, *args, **kwargs)
        sidecar.DURABILITY.wait()  # the commit's sidecar is in its place
        try:
            target = os.fspath(dst)
            if kind == "into" and os.path.isdir(target):
                target = os.path.join(target, os.path.basename(real))
            new = os.path.realpath(target)
            pending = _prepare(real, new)
        except (OSError, TypeError, ValueError) as e:
            _could_not_follow(real, dst, e)
            return fn(src, dst, *args, **kwargs)
        _INSIDE.on = True
        try:
            result = fn(src, dst, *args, **kwargs)
        except BaseException:
            if pending:
                _remove(pending)
            raise
        finally:
            _INSIDE.on = False
        if pending:
            try:
                _settle(real, new, pending, kind)
            except OSError as e:
                _could_not_follow(real, dst, e)
        return result

    call.__wrapped__ = fn
    call.__name__ = getattr(fn, "__name__", "call")
    call.__doc__ = getattr(fn, "__doc__", None)
    return call


def _prepare(real, new):
    """Before checkpoint `real` is moved or copied to `new`: its sidecar's
    bytes written to `new`'s sidecar path + ".tmp", which loading accepts
    when it matches the file there (as a commit leaves it). A kill before
    the file moves leaves the old pair, after it the new one: no moment
    has the new file beside the old sidecar alone. Returns that path
    (None: nothing to do)."""
    from . import output, sidecar
    if new == real:
        return None
    side = sidecar.sidecar_path(real)
    if not os.path.exists(side):  # a tail that failed leaves it so (and
        side += ".tmp"            # loading accepts it)
    with open(side, "rb") as f:
        data = f.read()
        mode = stat.S_IMODE(os.fstat(f.fileno()).st_mode)
    pending = sidecar.sidecar_path(new) + ".tmp"
    output.replace_atomically(pending, data, mode)
    return pending


def _settle(real, new, pending, kind):
    """After the move or copy: `new`'s sidecar in place; a move takes the
    sidecar away from `real`."""
    from . import sidecar
    os.replace(pending, sidecar.sidecar_path(new))
    with _LOCK:
        _COMMITTED.add(new)
        _NAMES.add(os.path.basename(new))
        if real in _SERIALS:
            _SERIALS[new] = _SERIALS[real]
        if kind == "move":
            _COMMITTED.discard(real)
            _SERIALS.pop(real, None)
    if kind == "move":
        _remove(sidecar.sidecar_path(real))


def _remove(path):
    try:
        os.unlink(path)
    except OSError:
        pass


def _could_not_follow(real, dst, e):
    from ._state import warn_once
    warn_once(("moved", real), "%s went to %s, but its detc sidecar could "
              "not follow it (%s: %s); a resume from %s is refused" % (
                  real, os.fspath(dst), type(e).__name__, e,
                  os.fspath(dst)))


def _done_before_the_resume(src, dst):
    """Whether renaming `src` to `dst` is the rename the checkpointed run
    made right after writing the checkpoint this run resumed from: the
    resume continues after the save, where the script renames its
    temporary name to the one resumed from (timm's `tmp.pth.tar` to
    `last.pth.tar`), and the file is there already. The rename is then
    done: without this, the script's FileNotFoundError ended the resume."""
    from .replay import REPLAY
    target = REPLAY.target
    if REPLAY.ff or REPLAY.checkpoint is None or not isinstance(
            target, dict) or not isinstance(target.get("written_as"), str):
        return False
    try:
        src, dst = os.fspath(src), os.fspath(dst)
        return not os.path.lexists(src) and \
            os.path.basename(src) == target["written_as"] and \
            os.path.realpath(dst) == os.path.realpath(REPLAY.checkpoint)
    except (TypeError, ValueError):
        return False

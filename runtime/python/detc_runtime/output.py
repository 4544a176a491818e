"""Every file a transformed script writes goes through here: checkpoints
and their sidecars (sidecar.py), completion markers, profiles, traces and
violation reports, recovery logs and shared fix records.

What a path may be is decided by the same C++ rule as detc's own outputs
(runtime/include/detc/runtime/OutputTarget.h, through `_core`): a regular
file is replaced atomically (a unique temporary beside the real file,
fsync, rename; symlinks written through, permissions kept); a character
device or a pipe with a reader (/dev/null, `/dev/stdout | cat`) is written
through, never replaced; /dev/stdout redirected to a file writes into that
file; a directory, a block device, a socket, a FIFO nobody reads, a
read-only file and the protected files (the running script, the files
registered with protect(): a recovery policy, the invariants checked) are
refused with an OSError that names the file and says why.

A write that comes out short (`ulimit -f`, a full disk) fails the save
and leaves the previous file as it was: CPython ignores SIGXFSZ, so such
writes raise EFBIG, and check_whole() catches the writers that do not
report it (torch.save's zip writer under torch 1.13 does not).
"""
import errno
import os
import resource
import stat
import tempfile

_PROTECTED = []  # (path, what it is), besides the running script


def protect(path, what):
    """Registers a file no output of this run may be (resolved now)."""
    _PROTECTED.append((os.path.realpath(os.fspath(path)), what))


def _protected():
    files = list(_PROTECTED)
    import __main__
    script = getattr(__main__, "__file__", None)
    if script:
        files.append((os.path.realpath(script), "the running script"))
    return files


# The errno a refusal's OSError gets, by its reason: the exception the
# script's own open() would raise where there is one.
_ERRNO = (("it is a directory", errno.EISDIR),
          ("it is read-only", errno.EACCES),
          ("its directory does not exist", errno.ENOENT),
          ("No such file", errno.ENOENT))


class Target:
    """Where and how a file is written: `action` is "create", "replace"
    (atomically, at the resolved `path` with `mode`) or "through" (opened
    and written in place)."""

    __slots__ = ("action", "path", "mode", "via_descriptor")

    def __init__(self, action, path, mode, via_descriptor):
        self.action, self.path = action, path
        self.mode, self.via_descriptor = mode, via_descriptor

    @property
    def regular(self):
        return self.action != "through"


def target(path, what):
    """The Target for writing `what` ("checkpoint", "profile", ...) to
    `path`; an OSError naming the file and the reason when the rule
    refuses it."""
    from . import _core
    path = os.fspath(path)
    action, where, mode, via = _core.output_target(path, _protected())
    if action == "refuse":
        code = next((c for prefix, c in _ERRNO if where.startswith(prefix)),
                    errno.EPERM)
        raise OSError(code, "detc does not write the %s there: %s"
                      % (what, where), path)
    return Target(action, where, mode, via)


def check_target(path, what, flag=None):
    """Validates an output path before the script runs: exit 2 with the
    reason (`flag`: the option that named it)."""
    try:
        return target(path, what)
    except OSError as e:
        from .replay import fail
        fail("error: %s%s: %s" % (flag + ": " if flag else "", path,
                                  e.strerror))


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def temporary_beside(real, mode):
    """(descriptor, path) of a new empty file with `mode` beside `real`."""
    directory = os.path.dirname(real) or "."
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(real)[:100] +
                               ".detc-", suffix=".tmp", dir=directory)
    try:
        os.fchmod(fd, mode)
    except BaseException:
        os.close(fd)
        os.unlink(tmp)
        raise
    return fd, tmp


def write_bytes(path, data, what):
    """Writes `data` to `path` by the rule: atomically for a regular file
    (all or nothing, durable), in place for a device or pipe."""
    t = target(path, what)
    if not t.regular:
        _write_through(t, data)
        return t
    replace_atomically(t.path, data, t.mode)
    return t


def replace_atomically(path, data, mode):
    """`data` (bytes, or a list of buffers written in order) written to a
    new file with `mode` beside `path`, synced, and
    renamed over `path` (whatever is there, a planted symlink too, is
    replaced, never written through), the directory synced: all or
    nothing."""
    fd, tmp = temporary_beside(path, mode)
    try:
        try:
            for chunk in data if isinstance(data, list) else (data,):
                _write_all(fd, chunk)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    fsync_dir(path)


def _write_through(t, data):
    flags = os.O_WRONLY | os.O_NOCTTY | os.O_CLOEXEC
    try:
        if stat.S_ISREG(os.stat(t.path).st_mode):
            flags |= os.O_TRUNC  # /dev/stdout redirected to a file
    except OSError:
        pass
    fd = os.open(t.path, flags)
    try:
        _write_all(fd, data)
    finally:
        os.close(fd)


def open_stream(path, what, append=False):
    """A text file object for a log or trace written as the run goes:
    appended to or created (never through a rename: a reader may follow
    it), written through for a device or pipe; refused by the rule like
    every other output."""
    t = target(path, what)
    if not t.regular:
        return open(t.path, "a" if append else "w")
    flags = os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC | (
        os.O_APPEND if append else os.O_TRUNC)
    fd = os.open(t.path, flags, t.mode)
    return os.fdopen(fd, "a" if append else "w")


def fsync_dir(path):
    """fsync of the directory holding `path` (best effort)."""
    try:
        fd = os.open(os.path.dirname(os.path.abspath(path)) or ".",
                     os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


_ZIP_MAGIC = b"PK\x03\x04"


def check_whole(path, what, shown=None):
    """Raises OSError(EFBIG/EIO) when the file a writer just finished at
    `path` is not whole: cut at the file size limit (`ulimit -f`: the
    writer got EFBIG, which torch.save's zip writer does not always
    report), or a zip archive (torch.save's format) without its central
    directory. The previous file is then kept. `shown`: the path the
    error names (the user's, not the temporary's)."""
    size = os.stat(path).st_size
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    if limit != resource.RLIM_INFINITY and size >= limit:
        raise OSError(errno.EFBIG, "the %s was cut at the file size limit "
                      "(%d bytes, ulimit -f): not committed; the previous "
                      "one is kept" % (what, limit), shown or path)
    with open(path, "rb") as f:
        if f.read(4) != _ZIP_MAGIC:
            return
    import zipfile
    try:
        with zipfile.ZipFile(path) as z:
            z.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as e:
        raise OSError(errno.EIO, "the %s written is not a whole archive "
                      "(%s): not committed; the previous one is kept"
                      % (what, e), shown or path) from None

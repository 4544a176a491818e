"""The temporary directories ("holders") a checkpoint commit writes in.

A commit saves the user's checkpoint to `<holder>/<the name the script
gave>` (torch.save names its archive after the file, so the bytes equal
those of the script's own save) and its sidecar to `<holder>/.detc-sidecar`,
then renames both into place (sidecar.commit).

Making the holder and the two empty files costs ~250 us of a 1 ms
checkpoint on the training thread (a directory and two inodes; a save into
an inode created ahead is cheaper than the script's own save, which
truncates its old file). So a commit's tail, on the durability thread,
prepares the next commit: it keeps the holder and creates the two empty
files in it. The next commit to the same directory takes them; whatever is
still prepared when the process ends is removed (release(), at exit and
before the runtime's own os._exit calls).

A holder is named `.detc-held-<random>.tmp`, and its process holds a
shared flock on it for as long as the holder exists (kernel-released when
the process dies, also in another pid namespace; over NFS the lock manager
releases it). A later commit in that directory removes the holders nobody
locks that are older than a minute (the minute covers a holder's creation,
before its lock is taken): those of killed runs. Holders of earlier detc
versions (`.detc-<random>.tmp`, without a lock) are removed after a minute
only when nothing but the replaced checkpoint they keep is left in them.
"""
import atexit
import os
import fcntl
import stat
import tempfile
import threading
import time

PENDING = ".detc-sidecar"  # the sidecar being committed
PREVIOUS = ".detc-previous"  # the checkpoint a commit replaced (its tail
#                               releases it off the training thread)

STALE_SECONDS = 60
SWEEP_EVERY_SECONDS = 600  # per directory, from commits' tails
HELD = ".detc-held-"


def mode_of(path):
    """The permissions of `path`, or those a new file gets."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)  # reading it means setting it
        os.umask(umask)
        return 0o666 & ~umask


def create_file(path, mode):
    """A new empty file with exactly `mode` (the umask does not apply)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        os.fchmod(fd, mode)
    finally:
        os.close(fd)


class Holder:
    """One holder: its path and the descriptor that holds its lock."""

    __slots__ = ("path", "fd")

    def __init__(self, path):
        self.path, self.fd = path, None
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)
        except BaseException:
            os.close(fd)
            raise
        self.fd = fd
        OPEN_HERE.add(fd)

    def remove(self):
        """Removes the holder and everything in it, then drops its lock."""
        _remove_all(self.path)
        if self.fd is not None:
            OPEN_HERE.discard(self.fd)
            os.close(self.fd)
            self.fd = None


# Descriptors a forked child (a DataLoader worker) must not keep: the
# holders' locks, the directory locks open now and the files the
# durability thread is about to sync (sidecar.py). Were this process
# killed, an orphaned worker would keep its holders locked, or hold a
# directory lock for good so that the resumed run's commit waits on it
# forever.
OPEN_HERE = set()


def _close_in_child():
    for fd in list(OPEN_HERE):
        try:
            os.close(fd)
        except OSError:
            pass
    OPEN_HERE.clear()


os.register_at_fork(after_in_child=_close_in_child)


class _Prepared:
    """Holders prepared for the next commit, by directory: (holder, the
    file name prepared in it)."""

    def __init__(self):
        self._reset()
        os.register_at_fork(after_in_child=self._reset)

    def _reset(self):
        # A forked child (a DataLoader worker) never commits: it leaves
        # its parent's holders to the parent.
        self.lock = threading.Lock()
        self.by_dir = {}
        self.swept = {}  # directory -> when this process last swept it

    def take(self, directory):
        with self.lock:
            return self.by_dir.pop(directory, None)

    def offer(self, directory, holder, name):
        """Keeps `holder` (its files prepared) for the next commit in
        `directory`; False when one is kept already."""
        with self.lock:
            if directory in self.by_dir:
                return False
            self.by_dir[directory] = (holder, name)
            return True

    def drain(self):
        with self.lock:
            held, self.by_dir = list(self.by_dir.values()), {}
        return held

    def sweep_due(self, directory):
        """Whether this process should sweep `directory` now: the first
        time, then at most every SWEEP_EVERY_SECONDS."""
        now = time.monotonic()
        with self.lock:
            last = self.swept.get(directory)
            if last is not None and now - last < SWEEP_EVERY_SECONDS:
                return False
            self.swept[directory] = now
            return True


PREPARED = _Prepared()


def _directory_of(real):
    return os.path.dirname(real) or "."


def new_holder(directory):
    """A new holder in `directory` (stale holders of dead runs there are
    swept first, once per process and directory)."""
    if PREPARED.sweep_due(directory):
        sweep_stale(directory)
    path = tempfile.mkdtemp(prefix=HELD, suffix=".tmp", dir=directory)
    try:
        return Holder(path)
    except BaseException:
        _remove_all(path)
        raise


def take(real, name):
    """(holder, path of an empty file named `name` in it with the mode
    `real` has or a new file would get) for a commit to `real`: the
    prepared one when there is one, else a new one."""
    directory = _directory_of(real)
    mode = mode_of(real)
    prepared = PREPARED.take(directory)
    if prepared is not None:
        holder, prepared_name = prepared
        tmp = os.path.join(holder.path, name)
        try:
            if prepared_name != name:
                os.rename(os.path.join(holder.path, prepared_name), tmp)
            if stat.S_IMODE(os.stat(tmp).st_mode) != mode:
                os.chmod(tmp, mode)
            return holder, tmp
        except OSError:
            # Removed by hand, or a name too long: start afresh.
            holder.remove()
    holder = new_holder(directory)
    tmp = os.path.join(holder.path, name)
    try:
        create_file(tmp, mode)
    except BaseException:
        holder.remove()
        raise
    return holder, tmp


def prepare_next(holder, real, name, side_mode):
    """A commit's tail: `holder`, emptied of the replaced checkpoint, gets
    the empty files the next commit to `real` writes (or is removed when
    another holder is prepared for that directory already)."""
    try:
        os.unlink(os.path.join(holder.path, PREVIOUS))
    except FileNotFoundError:
        pass
    directory = _directory_of(real)
    try:
        create_file(os.path.join(holder.path, name), mode_of(real))
        create_file(os.path.join(holder.path, PENDING), side_mode)
    except OSError:
        holder.remove()
        return
    if not PREPARED.offer(directory, holder, name):
        holder.remove()
    elif PREPARED.sweep_due(directory):
        sweep_stale(directory)


def release():
    """Removes the holders prepared for commits that will not come (at
    exit; the runtime's own os._exit calls run it first)."""
    from . import sidecar
    sidecar.DURABILITY.wait()
    for holder, _ in PREPARED.drain():
        holder.remove()


atexit.register(release)


def _remove_all(path):
    try:
        entries = list(os.scandir(path))
    except OSError:
        return
    for entry in entries:
        try:
            os.unlink(entry.path)
        except OSError:
            pass
    try:
        os.rmdir(path)
    except OSError:
        pass


def _unlocked(path):
    """Whether no process holds `path`'s lock (its run is gone)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def sweep_stale(directory):
    """Removes the holders in `directory` that no live run uses: see the
    module's doc for which those are."""
    now = time.time()
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    for entry in entries:
        name = entry.name
        if not (name.startswith(".detc-") and name.endswith(".tmp")):
            continue
        try:
            if not entry.is_dir(follow_symlinks=False) or \
                    now - entry.stat(follow_symlinks=False).st_mtime <= \
                    STALE_SECONDS:
                continue
            if name.startswith(HELD):
                if _unlocked(entry.path):
                    _remove_all(entry.path)
            else:
                # An earlier detc's: the rmdir fails, harmlessly, unless
                # nothing but the replaced checkpoint was left in it.
                try:
                    os.unlink(os.path.join(entry.path, PREVIOUS))
                except OSError:
                    pass
                os.rmdir(entry.path)
        except OSError:
            pass

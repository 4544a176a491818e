"""The replay sidecar: what detc adds to a user checkpoint (SPEC §5).

Format (docs/replay.md): one JSON object, UTF-8, no pickle, at
`<checkpoint>.detc.json`:

    {"format": "detc-sidecar", "version": 1,
     "script_sha256": hex of the original script's bytes,
     "seeds": {"override": int | null, "generators": {"<id>": int}},
     "checkpoint": {"size": bytes, "xxh3": XXH3-128 hex of the checkpoint
                    file (sidecars of earlier detc: "sha256")},
     "site": checkpoint site id, "instance": how many times it ran,
     "loaders": {"<site>": {"epoch": int, "step": int, "position": int,
                            "pass": [int, int], "made": int (optional:
                            a loader that keeps one iterator for all
                            epochs: its sampler's pass and the offset in
                            it, which of the site's loaders it is)}},
     "values": {"<name>": encoded value},
     "hint_arrivals": {"<hint site>": int}   (optional; arrivals at the
                  CheckHint hint, docs/checkhint.md),
     "decisions": {"<test>": "0110..."}   (optional; the run's decisions at
                  each logged test before the save, docs/replay.md),
     "recorded": {"<site>": [{"datetime": "2026-..."}, ...]}   (optional;
                  the values of the clock reads fast-forward replays,
                  recorded_values.py),
     "hint": {...}   (hint checkpoints only: loop positions, user
                  checkpoints' run counts),
     "payload": {"tensors": [{"dtype": "float32", "shape": [...],
                              "offset": int, "size": bytes,
                              "xxh3": XXH3-64 hex}, ...],
                 "size": bytes}   (version 2: the tensors the values refer
                  to by {"tensor_ref": i}),
     "body_sha256": hex of the canonical JSON of everything above}

followed by a newline (the JSON has none of its own, and is padded with
spaces so that what follows starts at a multiple of 64 bytes) and, in
version 2, the payload: the raw bytes of each tensor, each at a multiple
of 64 bytes from the payload's start. A model's optimizer moments saved
inline as base64 made a 124 MB U-Net checkpoint's sidecar 331 MB of JSON,
more than a resume reads (inputs.MAX_BYTES, a bound on the JSON only);
the payload is the tensors' own bytes, checked by their hashes at the
resume. Version 1 (every tensor inline) is still read.

The checkpoint's hash ties the pair: a sidecar never pairs with another
file. Both files are committed with a rename each, checkpoint first; a kill
between the two renames leaves the new sidecar at `<sidecar>.tmp`, which
loading accepts when (and only when) it is whole and matches the checkpoint.

What a commit promises about the user's files (README "Guarantees"): the
checkpoint path is resolved first, so a symlink (to a persistent volume)
is written through and its sidecar sits beside the real file; a read-only
checkpoint is not replaced (PermissionError, as the script's own save
would raise); temporary files have unique names in the real file's
directory, and the renames of one commit hold a lock on that directory, so
two runs writing the same path leave a consistent pair, never a crash.
"""
import atexit
import fcntl
import hashlib
import json
import os
import sys
import threading

from . import holders, moved, output, recorded_values

FORMAT = "detc-sidecar"
VERSION = 2  # written; 1 (no payload) is still read
READ_VERSIONS = (1, 2)
_ALIGN = 64  # the payload's tensors start at multiples of this
SUFFIX = ".detc.json"


class SidecarError(Exception):
    """A sidecar or checkpoint that cannot be used; the message says why."""

    def __init__(self, path, message):
        super().__init__("%s: error: %s" % (path, message))
        self.path = path


def sidecar_path(checkpoint):
    return os.fspath(checkpoint) + SUFFIX


def file_digest(path, private=False):
    """(size, XXH3-128 hex) of a file: the C++ core reads and hashes it
    with the GIL released, ~7x faster than SHA-256 here. `private`: a file
    only this process writes (a commit's temporary), hashed through a
    mapping instead of copies."""
    from . import _core
    return _core.file_xxh3(os.fspath(path), private)


def tied_body(path, body, private=False):
    """(body(), file_digest(path)): the file is hashed on the C++ core's
    worker thread while body() runs here (a sidecar's body holds the
    fingerprint of the moment and the values detc saves), so building the
    body costs a commit only what it takes beyond the hash."""
    from . import _core
    path = os.fspath(path)
    pending = _core.file_xxh3_start(path, private)
    made = body()
    return made, pending.result(path)


def ties(tie, path, digest=None):
    """Whether a sidecar's `checkpoint` tie names the file at `path`.
    `digest`: the file's (size, XXH3 hex) if already computed. A sidecar
    of an earlier detc names it by SHA-256."""
    if "xxh3" in tie:
        size, xxh3 = digest or file_digest(path)
        return (tie.get("size"), tie["xxh3"]) == (size, xxh3)
    if "sha256" in tie:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            sha = hashlib.file_digest(f, "sha256").hexdigest()
        return (tie.get("size"), tie["sha256"]) == (size, sha)
    return False


def _canonical(body):
    return json.dumps(body, sort_keys=True, separators=(",", ":"),
                      allow_nan=False).encode("utf-8")


def encode(body):
    """The bytes of a sidecar with `body` (encode_chunks, joined)."""
    return b"".join(encode_chunks(body))


def encode_chunks(body):
    """A sidecar with `body` (its integrity hash added) as the buffers to
    write in order: the JSON line, then the payload of the tensors
    body["tensors"] lists (what the values' tensor_refs index)."""
    from . import _core
    body = dict(body, format=FORMAT, version=VERSION)
    body.pop("body_sha256", None)
    tensors = body.pop("tensors", None) or []
    table, chunks, at = [], [], 0
    for t in tensors:
        raw = _tensor_bytes(t)
        pad = -at % _ALIGN
        if pad:
            chunks.append(bytes(pad))
            at += pad
        table.append({"dtype": str(t.dtype)[len("torch."):],
                      "shape": list(t.shape), "offset": at,
                      "size": raw.nbytes,
                      "xxh3": "%016x" % _core.buffer_hash(raw)})
        chunks.append(memoryview(raw))
        at += raw.nbytes
    body["payload"] = {"tensors": table, "size": at}
    digest = hashlib.sha256(_canonical(body)).hexdigest()
    header = _canonical(dict(body, body_sha256=digest))
    header += b" " * (-(len(header) + 1) % _ALIGN) + b"\n"
    return [header] + chunks


def _tensor_bytes(t):
    """A tensor's bytes as a one-dimensional uint8 numpy array (a view
    where it is already contiguous on the CPU)."""
    import torch
    t = t.detach()
    if t.device.type != "cpu":
        t = t.cpu()
    return t.contiguous().reshape(-1).view(torch.uint8).numpy()


def decode(data, path):
    """The body of sidecar bytes `data` (a bytearray: the payload's
    tensors are views of it); SidecarError if torn or foreign. In the
    body, "tensors" lists the payload's tensors."""
    from .inputs import load_json
    end = data.find(b"\n")
    try:
        body = load_json(data[:end] if end >= 0 else data, path)
    except ValueError:
        raise SidecarError(path, "not a detc sidecar (not JSON, NaN or "
                           "infinity in it, or nested too deep: the file "
                           "is torn or corrupt, or was edited)") from None
    if not isinstance(body, dict) or body.get("format") != FORMAT:
        raise SidecarError(path, "not a detc sidecar (no \"format\": \"%s\")"
                           % FORMAT)
    if body.get("version") not in READ_VERSIONS:
        raise SidecarError(path, "sidecar format version %r; this runtime "
                           "reads versions %s" % (
                               body.get("version"),
                               ", ".join(map(str, READ_VERSIONS))))
    claimed = body.pop("body_sha256", None)
    if claimed != hashlib.sha256(_canonical(body)).hexdigest():
        raise SidecarError(path, "the sidecar's contents do not match its "
                           "integrity hash (corrupt or edited)")
    payload = body.pop("payload", None)
    if body["version"] >= 2 or payload is not None:
        body["tensors"] = _payload_tensors(payload, data, end + 1, path)
    for key, kind in (("script_sha256", str), ("checkpoint", dict),
                      ("site", int), ("instance", int), ("seeds", dict),
                      ("loaders", dict), ("values", dict)):
        if not isinstance(body.get(key), kind):
            raise SidecarError(path, "the sidecar has no valid %r" % key)
    # The parts a resume reads by key: a sidecar re-hashed after an edit
    # that dropped one is refused here, not a KeyError mid-resume.
    seeds = body["seeds"]
    if not _valid_seeds(seeds):
        raise SidecarError(path, "the sidecar has no valid 'seeds' "
                           "(override and generators)")
    for site, position in body["loaders"].items():
        if position is not None and not isinstance(position, dict) or \
                position and not all(
                isinstance(position.get(k), int)
                for k in ("epoch", "step", "position")) or not (
                site.isdigit()) or position and "pass" in position and not (
                isinstance(position["pass"], list) and
                len(position["pass"]) == 2 and all(
                    isinstance(v, int) and not isinstance(v, bool)
                    for v in position["pass"]) and
                isinstance(position.get("made"), int)):
            raise SidecarError(path, "the sidecar's loader position %r is "
                               "not valid" % site)
    if not isinstance(body.get("position", {}), dict):
        raise SidecarError(path, "the sidecar's loop position is not valid")
    if not _valid_decisions(body.get("decisions", {})):
        raise SidecarError(path, "the sidecar's logged decisions are not "
                           "valid")
    if not recorded_values.valid_log(body.get("recorded", {})):
        raise SidecarError(path, "the sidecar's recorded values are not "
                           "valid")
    if "world_size" in body and not _valid_job(body):
        raise SidecarError(path, "the sidecar's job (world_size, rank and "
                           "the other ranks' records) is not valid")
    return body


_ELEMENT_SIZES = {}


def _element_size(dtype):
    """Bytes per element of `dtype` (torch >= 2.1 says so: dtype.itemsize;
    torch 1.13 learns it once per dtype from an empty tensor)."""
    size = _ELEMENT_SIZES.get(dtype)
    if size is None:
        import torch
        size = getattr(dtype, "itemsize", None) or \
            torch.empty((), dtype=dtype).element_size()
        _ELEMENT_SIZES[dtype] = size
    return size


def _payload_tensors(payload, data, start, path):
    """The tensors of a version 2 sidecar's payload, which starts at
    `start` of `data`: views of it, each checked against the size, shape
    and hash the JSON gives."""
    import torch
    from . import _core
    if not isinstance(payload, dict) or not isinstance(
            payload.get("tensors"), list) or not _is_int(payload.get("size")):
        raise SidecarError(path, "the sidecar has no valid payload table")
    if len(data) - start != payload["size"] or start <= 0:
        raise SidecarError(path, "the sidecar's payload is %d bytes where "
                           "it says %s (the file is torn or corrupt, or was "
                           "edited)" % (
                               max(len(data) - start, 0), payload["size"]))
    if not isinstance(data, bytearray):
        data = bytearray(data)  # writable: tensors are views of it
    tensors, end = [], 0
    for i, entry in enumerate(payload["tensors"]):
        what = "the sidecar's tensor %d" % i
        dtype = getattr(torch, entry.get("dtype", ""), None) if \
            isinstance(entry, dict) and isinstance(entry.get("dtype"),
                                                    str) else None
        shape = entry.get("shape") if isinstance(entry, dict) else None
        if not isinstance(dtype, torch.dtype) or not isinstance(
                shape, list) or not all(_is_int(n) and n >= 0
                                        for n in shape):
            raise SidecarError(path, "%s has no valid dtype and shape" % what)
        offset, size = entry.get("offset"), entry.get("size")
        numel = 1
        for n in shape:
            numel *= n
        if not (_is_int(offset) and _is_int(size) and offset >= end and
                offset % _ALIGN == 0 and offset + size <= payload["size"] and
                size == numel * _element_size(dtype)):
            raise SidecarError(path, "%s's place in the payload is not "
                               "valid" % what)
        raw = memoryview(data)[start + offset:start + offset + size]
        if entry.get("xxh3") != "%016x" % _core.buffer_hash(raw):
            raise SidecarError(path, "%s does not match its hash (the file "
                               "is corrupt or was edited)" % what)
        if size:
            t = torch.frombuffer(data, dtype=torch.uint8, count=size,
                                 offset=start + offset)
            t = t.view(dtype).reshape(shape)
        else:
            t = torch.empty(shape, dtype=dtype)
        tensors.append(t)
        end = offset + size
    return tensors


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _valid_seeds(seeds):
    generators = seeds.get("generators") if isinstance(seeds, dict) else None
    return isinstance(generators, dict) and all(
        _is_int(v) for v in generators.values()) and (
        seeds.get("override") is None or _is_int(seeds.get("override")))


def _valid_decisions(decisions):
    return isinstance(decisions, dict) and all(
        isinstance(k, str) and k.isdigit() and isinstance(v, str) and
        not v.strip("01") for k, v in decisions.items())


def _valid_job(body):
    """The fields of a checkpoint written in a job of several processes
    (ranks.py); each rank's fingerprint is checked where it is read."""
    size, rank, records = body["world_size"], body.get("rank"), \
        body.get("ranks")
    return _is_int(size) and size >= 2 and _is_int(rank) and \
        0 <= rank < size and isinstance(records, dict) and all(
            k.isdigit() and int(k) < size and int(k) != rank and
            isinstance(r, dict) and _valid_seeds(r.get("seeds")) and
            _valid_decisions(r.get("decisions", {})) and
            isinstance(r.get("values", {}), dict) and all(
                isinstance(v, str) for v in r.get("values", {}).values()) and
            isinstance(r.get("own_values", {}), dict) and all(
                isinstance(v, dict) for v in r.get("own_values", {}).values())
            for k, r in records.items())


def real_path(checkpoint):
    """The file a checkpoint path names (symlinks resolved)."""
    return os.path.realpath(os.fspath(checkpoint))


def writable_target(checkpoint):
    """The real path to commit a checkpoint to, or None when it is written
    through instead (a character device such as /dev/null, a pipe, or
    /dev/stdout): the script's own save then writes there directly,
    without a sidecar. Raises the OSError output.target() gives for what
    the rule refuses: a directory (IsADirectoryError), a read-only file
    (PermissionError, as the script's own save would; also as root), a
    FIFO nobody reads, a block device, the running script."""
    t = output.target(checkpoint, "checkpoint")
    return t.path if t.regular else None


# Descriptors a forked child closes (holders.py).
_OPEN_HERE = holders.OPEN_HERE


class _DirectoryLock:
    """flock on the directory itself: no extra file beside the user's."""

    def __init__(self, path):
        self.fd = os.open(os.path.dirname(path) or ".", os.O_RDONLY)
        _OPEN_HERE.add(self.fd)

    def __enter__(self):
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        _OPEN_HERE.discard(self.fd)
        os.close(self.fd)


def commit(real, holder, written, body):
    """Make `written` (the user's checkpoint, already saved to a file in
    `holder`, from holders.take(real)) the checkpoint at `real` (from
    writable_target), with a sidecar of `body()` plus the checkpoint's
    size and hash (body() runs while the checkpoint is hashed: tied_body).
    Returns the sidecar's size in bytes.

    When commit() returns, the checkpoint is at `real` and its sidecar at
    `<sidecar>.tmp` (which loading accepts: it matches the checkpoint), so
    the script — or a run resumed after a kill right then — sees the new
    pair. The rest runs on the durability thread, off the training loop:
    the fsyncs that make the pair survive a power loss, the rename of the
    sidecar over the old one, the release of the replaced checkpoint and
    the next commit's empty files (holders.py). With
    DETC_SYNC_CHECKPOINTS=1 everything happens here, fsyncs first, as
    before (docs/replay.md)."""
    synced = DURABILITY.synchronous
    DURABILITY.wait()  # the previous commit's tail comes first
    if synced:
        with open(written, "rb+") as f:
            os.fsync(f.fileno())
    body, (size, digest) = tied_body(written, body, private=True)
    chunks = encode_chunks(dict(body, checkpoint={"size": size,
                                                  "xxh3": digest}))
    side = sidecar_path(real)
    side_mode = holders.mode_of(side)
    pending = os.path.join(holder.path, holders.PENDING)
    fds = []
    try:
        # Prepared empty by the last commit's tail, or new.
        fd = os.open(pending, os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                     side_mode)
        try:
            os.fchmod(fd, side_mode)
            for chunk in chunks:
                view = memoryview(chunk)
                while view:
                    view = view[os.write(fd, view):]
            if synced:
                os.fsync(fd)
        except BaseException:
            os.close(fd)
            raise
        if synced:
            os.close(fd)
        else:
            # Kept open across the renames: the thread syncs these inodes,
            # whatever their names are by then.
            fds = [fd]
            _OPEN_HERE.add(fd)
            fds.append(os.open(written, os.O_RDONLY))
            _OPEN_HERE.add(fds[-1])
        with _DirectoryLock(real):
            _settle_leftover(real, side)
            if not synced:
                _keep_previous(real, holder.path)
            os.replace(pending, side + ".tmp")
            os.replace(written, real)
            if synced:
                os.replace(side + ".tmp", side)
    except BaseException:
        for fd in fds:
            _OPEN_HERE.discard(fd)
            os.close(fd)
        holder.remove()  # the files, and the replaced checkpoint's link
        raise
    if synced:
        holder.remove()
        output.fsync_dir(real)
    else:
        DURABILITY.submit((real, side, holder, fds,
                           os.path.basename(written), side_mode))
    # The script may rename or copy it next (timm's tmp -> last): the
    # sidecar follows (moved.py).
    moved.committed(real)
    return sum(memoryview(c).nbytes for c in chunks)


PREVIOUS = holders.PREVIOUS


def _keep_previous(real, holder):
    """Hard-links the checkpoint about to be replaced into the commit's
    temporary directory, so the rename over it does not free its blocks on
    the training thread (replacing a 6 MB checkpoint took 1.6 ms here,
    most of the commit): the durability thread unlinks it with the rest of
    the tail. Where hard links are not possible the rename frees it."""
    try:
        moved.unwrapped(os.link)(real, os.path.join(holder, PREVIOUS),
                                 follow_symlinks=False)
    except OSError:
        pass


def _settle_leftover(real, side):
    """A `.tmp` sidecar left by a run killed before its commit's tail (or
    by another run whose tail is pending) becomes the sidecar when it
    matches the checkpoint, and is removed when it does not (a kill
    between the two renames: it pairs with nothing). Either way the
    renames that follow cannot leave a checkpoint without its sidecar."""
    leftover = side + ".tmp"
    if not os.path.exists(leftover):
        return
    holders.sweep_stale(os.path.dirname(real) or ".")
    try:
        with open(leftover, "rb") as f:
            tie = decode(f.read(), leftover)["checkpoint"]
        matches = ties(tie, real)
    except (OSError, SidecarError):
        matches = False
    if matches:
        os.replace(leftover, side)
    else:
        os.unlink(leftover)


class _Durability:
    """The tail of each commit, on one daemon thread: fsync the checkpoint
    and its sidecar, rename the sidecar over the old one (under the
    directory lock), remove the temporary directory, fsync the directory.
    At most one tail is pending: the next commit waits for it first.
    wait() runs at exit (atexit, and before the runtime's own os._exit
    calls), so a run that ends has its checkpoints on disk."""

    def __init__(self):
        from . import env
        self.synchronous = env.sync_checkpoints()
        self._reset()
        os.register_at_fork(after_in_child=self._reset)
        atexit.register(self.wait)

    def _reset(self):
        self.cond = threading.Condition()
        # The pending tail: (real, sidecar, holder, fds, the checkpoint's
        # name in the holder, the sidecar's mode).
        self.job = None
        self.thread = None

    def submit(self, job):
        with self.cond:
            while self.job is not None:
                self.cond.wait()
            self.job = job
            if self.thread is None:
                self.thread = threading.Thread(
                    target=self._run, name="detc-durability", daemon=True)
                self.thread.start()
            self.cond.notify_all()

    def on_its_thread(self):
        """Whether the caller runs on the durability thread."""
        return self.thread is not None and \
            threading.current_thread() is self.thread

    def wait(self):
        """Blocks until every commit so far is complete and durable."""
        with self.cond:
            while self.job is not None:
                self.cond.wait()

    def _run(self):
        while True:
            with self.cond:
                while self.job is None:
                    self.cond.wait()
                job = self.job
            try:
                _finish(*job)
            except OSError as e:
                print("detc-runtime: %s: warning: the checkpoint may not "
                      "survive a power loss: %s" % (job[0], e),
                      file=sys.stderr)
            finally:
                with self.cond:
                    self.job = None
                    self.cond.notify_all()


def _finish(real, side, holder, fds, name, side_mode):
    try:
        for fd in fds:
            os.fsync(fd)
    finally:
        for fd in fds:
            _OPEN_HERE.discard(fd)
            os.close(fd)
    with _DirectoryLock(real):
        try:
            os.replace(side + ".tmp", side)
        except FileNotFoundError:
            pass  # another run's commit to this path renamed it
    holders.prepare_next(holder, real, name, side_mode)
    output.fsync_dir(real)


DURABILITY = _Durability()


def save_with_sidecar(path, save, body):
    """Runs `save(tmp)` (the script's save function writing to a temporary
    file beside the real checkpoint, with the name the script gave) and
    commits it with a sidecar of `body()`. Returns (save's result, bytes
    of the sidecar), or None when the path is not a regular file (then
    nothing was saved)."""
    real = writable_target(path)
    if real is None:
        return None
    holder, tmp = holders.take(real, os.path.basename(os.fspath(path)))
    try:
        result = save(tmp)
        # A save cut short (ulimit -f, a full disk) that did not raise is
        # never committed: the previous pair stays.
        output.check_whole(tmp, "checkpoint", os.fspath(path))
    except BaseException:
        holder.remove()
        raise
    return result, commit(real, holder, tmp, body)


def save_in_place(f, save, body):
    """Runs `save()` (the script's save writing into its own open file
    `f`, a regular file at its start: `with open(path, "wb") as f:
    torch.save(model, f)`) and ties a sidecar of `body()` to what the file
    then holds. The file was truncated when the script opened it, so
    there is no previous pair to keep and no rename to make: the sidecar
    is written beside it atomically, after the checkpoint's bytes are
    flushed to it. A kill during the save leaves the old sidecar beside a
    partial file, which a resume refuses (their hashes differ); so does
    anything the script writes into the file after the save. Returns
    (save's result, bytes of the sidecar)."""
    result = save()
    f.flush()
    real = real_path(f.name)
    DURABILITY.wait()
    if DURABILITY.synchronous:
        os.fsync(f.fileno())
    body, (size, digest) = tied_body(real, body)
    chunks = encode_chunks(dict(body, checkpoint={"size": size,
                                                  "xxh3": digest}))
    side = sidecar_path(real)
    with _DirectoryLock(real):
        _settle_leftover(real, side)
        output.replace_atomically(side, chunks, holders.mode_of(side))
    moved.committed(real)
    return result, sum(memoryview(c).nbytes for c in chunks)


def amend(real, same, more):
    """Adds the entries of `more` to the sidecar of checkpoint `real` when
    `same(body)` says it is still the commit the caller means (the script
    may have written another over it since): a new sidecar renamed over
    the old one, under the directory lock (a kill leaves either). While
    the commit's tail is pending its sidecar is still `<sidecar>.tmp`
    (which loading accepts): that one is amended, and the tail renames it
    into place — the amendment does not wait for the checkpoint's fsyncs.
    Returns whether it did."""
    side = sidecar_path(real)
    with _DirectoryLock(real):
        for path in (side + ".tmp", side):
            data = _read_candidate(path)
            if data is None:
                continue
            try:
                body = decode(data, path)
            except SidecarError:
                continue
            if not same(body):
                continue  # (a leftover of another commit)
            output.replace_atomically(path, encode(dict(body, **more)),
                                      holders.mode_of(path))
            return True
    return False


def _read_candidate(path):
    try:
        with open(path, "rb") as f:
            # A bytearray: the payload's tensors are views of it (decode).
            data = bytearray(os.fstat(f.fileno()).st_size)
            n = f.readinto(data)
            return data if n == len(data) else data[:n]
    except FileNotFoundError:
        return None
    except OSError as e:
        raise SidecarError(path, "cannot read the sidecar: %s" %
                           e.strerror) from None


def load(checkpoint):
    """The validated sidecar body for `checkpoint` (tied to its bytes)."""
    checkpoint = os.fspath(checkpoint)
    if not os.path.isfile(checkpoint):
        raise SidecarError(checkpoint, "no such checkpoint file")
    size, digest = file_digest(checkpoint)
    side = sidecar_path(real_path(checkpoint))
    # The temporary first: a commit's tail renames it over the committed
    # one, and read the other way round a rename between the two reads
    # would leave only the previous sidecar.
    pending = _read_candidate(side + ".tmp")
    main = _read_candidate(side)
    if main is None and pending is None:
        raise SidecarError(side, "missing: this checkpoint has no detc "
                           "sidecar (was it written by a detc-transformed "
                           "script?)")
    problems = []
    for path, data in ((side, main), (side + ".tmp", pending)):
        if data is None:
            continue
        try:
            body = decode(data, path)
        except SidecarError as e:
            problems.append(e)
            continue
        tie = body["checkpoint"]
        if ties(tie, checkpoint, (size, digest)):
            return body
        problems.append(SidecarError(path, "the sidecar belongs to another "
                                     "checkpoint (its size/hash do not match "
                                     "%s)" % checkpoint))
    # The committed sidecar's problem is the one to report; a leftover
    # temporary file is only a candidate.
    raise problems[0]

"""The replay sidecar: what detc adds to a user checkpoint (SPEC §5).

Format (docs/replay.md): one JSON object, UTF-8, no pickle, at
`<checkpoint>.detc.json`:

    {"format": "detc-sidecar", "version": 1,
     "script_sha256": hex of the original script's bytes,
     "seeds": {"override": int | null, "generators": {"<id>": int}},
     "checkpoint": {"size": bytes, "sha256": hex of the checkpoint file},
     "site": checkpoint site id, "instance": how many times it ran,
     "loaders": {"<site>": {"epoch": int, "step": int, "position": int}},
     "values": {"<name>": encoded value},
     "hint_arrivals": {"<hint site>": int}   (optional; arrivals at the
                  CheckHint hint, docs/checkhint.md),
     "hint": {...}   (hint checkpoints only: loop positions, user
                  checkpoints' run counts),
     "body_sha256": hex of the canonical JSON of everything above}

The checkpoint's hash ties the pair: a sidecar never pairs with another
file. Both files are committed with a rename each, checkpoint first; a kill
between the two renames leaves the new sidecar at `<sidecar>.tmp`, which
loading accepts when (and only when) it is whole and matches the checkpoint.
"""
import hashlib
import json
import os

FORMAT = "detc-sidecar"
VERSION = 1
SUFFIX = ".detc.json"
_READ_CHUNK = 1 << 20


class SidecarError(Exception):
    """A sidecar or checkpoint that cannot be used; the message says why."""

    def __init__(self, path, message):
        super().__init__("%s: error: %s" % (path, message))
        self.path = path


def sidecar_path(checkpoint):
    return os.fspath(checkpoint) + SUFFIX


def file_digest(path):
    """(size, sha256 hex) of a file."""
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as f:
        while True:
            chunk = f.read(_READ_CHUNK)
            if not chunk:
                break
            size += len(chunk)
            h.update(chunk)
    return size, h.hexdigest()


def _canonical(body):
    return json.dumps(body, sort_keys=True, separators=(",", ":"),
                      allow_nan=False).encode("utf-8")


def encode(body):
    """The bytes of a sidecar with `body` (its integrity hash added)."""
    body = dict(body, format=FORMAT, version=VERSION)
    body.pop("body_sha256", None)
    digest = hashlib.sha256(_canonical(body)).hexdigest()
    return _canonical(dict(body, body_sha256=digest)) + b"\n"


def decode(data, path):
    """The body of sidecar bytes `data`; SidecarError if torn or foreign."""
    try:
        body = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise SidecarError(path, "not a detc sidecar (not JSON; the file is "
                           "torn or corrupt)") from None
    if not isinstance(body, dict) or body.get("format") != FORMAT:
        raise SidecarError(path, "not a detc sidecar (no \"format\": \"%s\")"
                           % FORMAT)
    if body.get("version") != VERSION:
        raise SidecarError(path, "sidecar format version %r; this runtime "
                           "reads version %d" % (body.get("version"), VERSION))
    claimed = body.pop("body_sha256", None)
    if claimed != hashlib.sha256(_canonical(body)).hexdigest():
        raise SidecarError(path, "the sidecar's contents do not match its "
                           "integrity hash (corrupt or edited)")
    for key, kind in (("script_sha256", str), ("checkpoint", dict),
                      ("site", int), ("instance", int), ("seeds", dict),
                      ("loaders", dict), ("values", dict)):
        if not isinstance(body.get(key), kind):
            raise SidecarError(path, "the sidecar has no valid %r" % key)
    return body


def _fsync_dir(path):
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


def _write_synced(path, data):
    with open(path, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def commit(checkpoint, written, body):
    """Make `written` (the user's checkpoint, already saved to a temporary
    file) the checkpoint at `checkpoint`, with a sidecar of `body` plus the
    checkpoint's size and hash. Returns the sidecar's size in bytes."""
    with open(written, "rb+") as f:
        os.fsync(f.fileno())
    size, digest = file_digest(written)
    data = encode(dict(body, checkpoint={"size": size, "sha256": digest}))
    side = sidecar_path(checkpoint)
    _write_synced(side + ".tmp", data)
    os.replace(written, checkpoint)
    os.replace(side + ".tmp", side)
    _fsync_dir(checkpoint)
    return len(data)


def _read_candidate(path):
    try:
        with open(path, "rb") as f:
            return f.read()
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
    side = sidecar_path(checkpoint)
    main = _read_candidate(side)
    pending = _read_candidate(side + ".tmp")
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
        if tie.get("size") == size and tie.get("sha256") == digest:
            return body
        problems.append(SidecarError(path, "the sidecar belongs to another "
                                     "checkpoint (its size/hash do not match "
                                     "%s)" % checkpoint))
    # The committed sidecar's problem is the one to report; a leftover
    # temporary file is only a candidate.
    raise problems[0]

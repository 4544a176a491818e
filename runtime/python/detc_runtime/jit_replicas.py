"""Just-in-time checkpoints of data-parallel jobs: completion markers, and
which checkpoint each rank restarts from (docs/jit.md).

Every rank writes its own checkpoint (hints.rank_path) and, last, its
completion marker `<checkpoint>.detc-done`:

    {"format": "detc-jit-done", "version": 1, "rank": R, "world_size": W,
     "site": hint site, "instance": arrival, "sidecar_xxh3": hex}

(markers of earlier detc name the sidecar by "sidecar_sha256").

The marker names the sidecar it completes by hash; the sidecar ties the
checkpoint's bytes (sidecar.py), so a marker never completes another write.

On `--detc-restart` every rank reads every rank's checkpoint, skips (and
names) the ones it cannot use — torn or partial (no marker, or the marker
of another write), of another script, of a job with another number of
ranks — and restarts from the newest of the rest: its own when its own is
among the newest, else the lowest such rank's. That is how a healthy
replica provides the state a failed rank lacks: a rank that failed inside
its optimizer step (or was killed) wrote nothing, while the healthy ranks
finished that step, failed at the next minibatch's all-reduce and wrote
that minibatch's start. Parameters, optimizer state and (DDP broadcasts
them) module buffers are the same on every replica; what the loops bind again at the saved
item (the batch) is the rank's own; other saved values are the replica's,
and the restart names them (hints.py). Every rank sees the same
files, so every rank makes the same choice.
"""
import hashlib
import json
import os
import sys

from . import hints, sidecar

FORMAT = "detc-jit-done"
VERSION = 1
SUFFIX = ".detc-done"

def marker_path(checkpoint):
    return sidecar.real_path(checkpoint) + SUFFIX


def remove_marker(checkpoint):
    """Before a new write: a crash in it must not leave a marker behind."""
    try:
        os.unlink(marker_path(checkpoint))
    except FileNotFoundError:
        pass


def _sidecar_digest(checkpoint, algorithm="xxh3"):
    path = sidecar.sidecar_path(sidecar.real_path(checkpoint))
    if algorithm == "xxh3":
        return sidecar.file_digest(path)[1]
    with open(path, "rb") as f:
        return hashlib.file_digest(f, algorithm).hexdigest()


def write_marker(checkpoint, site, instance, rank, world):
    """Marks the committed checkpoint complete (written last)."""
    # The commit's tail (the sidecar's final rename, the fsyncs) is done
    # first: the marker vouches for a durable pair and names its sidecar.
    sidecar.DURABILITY.wait()
    path = marker_path(checkpoint)
    data = json.dumps({"format": FORMAT, "version": VERSION,
                       "rank": None if rank is None else int(rank),
                       "world_size": int(world),
                       "site": site, "instance": instance,
                       "sidecar_xxh3": _sidecar_digest(checkpoint)},
                      sort_keys=True).encode("utf-8") + b"\n"
    from . import output
    output.write_bytes(path, data, "completion marker")


def _check_marker(checkpoint, body):
    """None when the marker completes this checkpoint, else why not."""
    path = marker_path(checkpoint)
    try:
        with open(path, "rb") as f:
            from .inputs import load_json
            marker = load_json(f.read(), path)
    except FileNotFoundError:
        return ("%s: error: no completion marker %s: the checkpoint's write "
                "did not finish" % (checkpoint, path))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        return "%s: error: unreadable completion marker (%s)" % (path, e)
    if not isinstance(marker, dict) or marker.get("format") != FORMAT:
        return "%s: error: not a detc completion marker" % path
    key = "sidecar_xxh3" if "sidecar_xxh3" in marker else "sidecar_sha256"
    try:
        digest = _sidecar_digest(checkpoint, key[len("sidecar_"):])
    except OSError as e:
        return "%s: error: cannot read its sidecar (%s)" % (checkpoint, e)
    if marker.get(key) != digest or (
            marker.get("instance"), marker.get("site")) != (
                body["instance"], body["site"]):
        return ("%s: error: the completion marker belongs to another write "
                "of the checkpoint (a partial write since)" % path)
    return None


def check(path, rank, world, script_sha256):
    """(sidecar body, None) for a usable checkpoint of rank `rank` (any
    rank when None) of a job of `world` ranks, else (None, why not)."""
    try:
        body = sidecar.load(path)
    except sidecar.SidecarError as e:
        return None, str(e)
    if script_sha256 is not None and body["script_sha256"] != script_sha256:
        return None, ("%s: error: written by another script (or another "
                      "version of it)" % path)
    if not hints.is_hint_checkpoint(body):
        return None, "%s: error: not a hint checkpoint" % path
    jit = body["hint"].get("jit")
    if isinstance(jit, dict):
        if jit.get("world_size") != world:
            return None, ("%s: error: written by a job of %s ranks; this job "
                          "has %d" % (path, jit.get("world_size"), world))
        if rank is not None and str(jit.get("rank")) != str(rank):
            return None, ("%s: error: written by rank %s, not rank %s" % (
                path, jit.get("rank"), rank))
        problem = _check_marker(path, body)
        if problem:
            return None, problem
    return body, None


def choose(shared, script_sha256):
    """The checkpoint this rank restarts from: (path, sidecar body), or
    None when no rank has one (the job starts over). Exits with status 2
    when there are checkpoints and none can be used."""
    rank, world = hints.job_shape()
    usable, skipped = {}, []
    for r in range(world):
        path = hints.rank_path(shared, r)
        if not os.path.lexists(path) and not os.path.lexists(
                sidecar.sidecar_path(path)):
            continue
        body, why = check(path, r, world, script_sha256)
        if body is None:
            skipped.append(why)
        else:
            usable[r] = (path, body)
    for why in skipped:
        print("detc-runtime: --detc-restart skips %s" % why, file=sys.stderr)
    if not usable:
        if skipped:
            from .replay import fail
            fail("error: --detc-restart: no rank's checkpoint can be used "
                 "(skipped %d); restart from the newest periodic or user "
                 "checkpoint (--detc-resume)" % len(skipped))
        return None
    newest = max(body["instance"] for _, body in usable.values())
    own = usable.get(int(rank))
    if own is not None and own[1]["instance"] == newest:
        return own
    source = min(r for r, (_, body) in usable.items()
                 if body["instance"] == newest)
    path, body = usable[source]
    if own is None:
        mine = "this rank has no usable checkpoint of its own"
    else:
        mine = "its own is older (arrival %d)" % own[1]["instance"]
    print("detc-runtime: rank %s restarts from rank %d's checkpoint %s, the "
          "newest (arrival %d of site %d); %s. Parameters, optimizer state "
          "and module buffers are the same on every replica; the batch is "
          "this rank's own" % (rank, source, path, newest, body["site"],
                               mine), file=sys.stderr)
    return path, body

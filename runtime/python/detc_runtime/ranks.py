"""Checkpoints one rank writes for a whole torch.distributed job.

Under DDP only rank 0 usually writes (`if rank == 0: torch.save(...)`,
`save_on_master(...)`), yet every rank resumes from that file. What a
bit-identical continuation of a process depends on is partly its own: its
seeds (`seed + rank`), its global generators, detc's stream offsets, the
generators its variables hold. A sidecar holding only the writer's would
set rank 0's generators into every rank and continue with exit 0.

So every rank announces each instance of a checkpoint site (detc places
the announcement outside the rank test: ReplayPlan's hoistOverTests), and
a rank records its own state there — as it is at the restore, since the
test it fails runs nothing in between — and publishes it in the job's
c10d store. The rank that writes gathers the others' records into its
sidecar ("ranks"), with the job's size. A resumed rank continues from its
own record; a record the sidecar lacks, or a job of another size, stops
the run with exit 3 naming it. detc-saved values (a loss, a meter) are
each rank's own: a rank's record holds them (small ones; their digests
for all), and a rank whose own value was too large to record and differs
from the writer's stops too.
"""
import datetime
import json
import time

from . import fingerprint
from . import values as _values

_KEY = "detc-replay/%d/%d/%d"  # site, instance, rank


def world():
    """(rank, world size) in an initialized group of two or more
    processes, else None."""
    try:
        import torch.distributed as dist
        if not dist.is_available() or not dist.is_initialized():
            return None
        size = dist.get_world_size()
        return (dist.get_rank(), size) if size > 1 else None
    except (ImportError, RuntimeError, ValueError):
        return None


def _store():
    import torch.distributed as dist
    return dist.distributed_c10d._get_default_store()


def wait_seconds():
    """DETC_RANK_WAIT: how long the writing rank waits for another rank's
    record (the ranks of a DDP job are within a step of each other)."""
    from . import env
    return env.number("DETC_RANK_WAIT", 120.0, maximum=7 * 86400,
                      positive=True)


def unannounced_wait_seconds():
    """How long a rank saving at a checkpoint the transform did not
    announce waits for the other ranks' records: every rank saving there
    records at once; a save only some ranks make should not hold them up
    for DETC_RANK_WAIT at each checkpoint."""
    return min(wait_seconds(), 5.0)


# A detc-saved value a rank records as its own, at most (its JSON): a
# rank's loss, meter or counter is a few bytes; a buffer of tensors is
# digested only, and restored as the writer's when it is the same.
OWN_VALUE_BYTES = 256 * 1024


def record(frame, seeds, decisions, values):
    """This rank's state at a checkpoint instance: `values` maps the names
    of detc's saved values to thunks. Their digests are recorded, and each
    small one itself ("own_values", encoded as the sidecar's "values"): a
    rank whose own value differs from the writer's (its loss, its
    meters) resumes with its own."""
    digests, own = {}, {}
    for name, thunk in (values or {}).items():
        try:
            value = thunk()
            digests[name] = fingerprint.digest(value)
        except Exception:  # unbound here (NameError), or not digestible
            continue
        try:
            encoded = _values.encode(value, repr(name))
        except _values.UnsavableValue:
            continue
        if len(json.dumps(encoded)) <= OWN_VALUE_BYTES:
            own[name] = encoded
    return {"seeds": seeds, "decisions": decisions,
            "fingerprint": fingerprint.capture(frame), "values": digests,
            "own_values": own}


def publish(site, count, make_record):
    """In a job of several processes, puts this rank's record of instance
    `count` of `site` in the store (the writer, if any rank writes, reads
    it at its save)."""
    w = world()
    if w is None:
        return
    rank = w[0]
    try:
        store = _store()
        store.set(_KEY % (site, count, rank), json.dumps(make_record()))
        if count > 2:  # read by now: the writer saved before going on
            store.delete_key(_KEY % (site, count - 2, rank))
    except Exception as e:  # the group destroyed, the store gone
        from ._state import warn_once
        warn_once(("rank-record", site), "checkpoint site %d: rank %d "
                  "cannot publish its state (%s: %s); a resume of this rank "
                  "from checkpoints written by another stops" % (
                      site, rank, type(e).__name__, e))


def gather(site, count, wait=None):
    """The sidecar fields of a job of several processes: this rank, the
    job's size and the other ranks' records of instance `count` of `site`
    (those that published within `wait` seconds, wait_seconds() by
    default); {} outside a job."""
    w = world()
    if w is None:
        return {}
    rank, size = w
    keys = {r: _KEY % (site, count, r) for r in range(size) if r != rank}
    records = {}
    try:
        store = _store()
    except Exception:
        store = None
    wait = wait_seconds() if wait is None else wait
    # One wait in all; once it has run out, a moment each for the rest.
    deadline = time.monotonic() + wait
    for r, key in keys.items():
        left = max(min(1.0, wait), deadline - time.monotonic())
        try:
            store.wait([key], datetime.timedelta(seconds=left))
            records[str(r)] = json.loads(store.get(key))
        except Exception:  # not there in time, or the store gone
            continue
    missing = sorted(set(keys) - {int(r) for r in records})
    if missing:
        from ._state import warn_once
        warn_once(("rank-missing", site), "checkpoint site %d: rank(s) %s "
                  "did not record their state within %gs (DETC_RANK_WAIT); "
                  "resuming them from this checkpoint stops" % (
                      site, ", ".join(map(str, missing)), wait))
    return {"rank": rank, "world_size": size, "ranks": records}


def for_this_rank(target, checkpoint):
    """The sidecar body `target` as this rank resumes from it: the writer's,
    with this rank's own seeds, fingerprint and decisions when another rank
    wrote it. Stops the run (exit 3) on a job of another size or a rank the
    sidecar has no record of. A sidecar without a job size (one process, or
    an earlier detc) is taken as it is."""
    from ._state import fail
    if "world_size" not in target:
        return target
    w = world()
    rank, size = w if w else (0, 1)
    if size != target["world_size"]:
        fail("%s: error: the checkpoint was written by a job of %d "
             "process(es), this one has %d; a resume continues each rank "
             "from its own state, so the job must have the same size" % (
                 checkpoint, target["world_size"], size), 3)
    if rank == target.get("rank", 0):
        return target
    mine = (target.get("ranks") or {}).get(str(rank))
    if mine is not None and not fingerprint.valid(mine.get("fingerprint")):
        fail("%s: error: rank %d's fingerprint in the sidecar is malformed"
             % (checkpoint, rank), 2)
    if mine is None:
        fail("%s: error: rank %d's state when the checkpoint was written is "
             "not in its sidecar (rank %d wrote it and rank %d recorded "
             "nothing: it never reached the checkpoint, or did not within "
             "DETC_RANK_WAIT); this rank cannot resume from it" % (
                 checkpoint, rank, target.get("rank", 0), rank), 3)
    fp = dict(mine["fingerprint"])
    # The state is the checkpoint's, every rank's: its digests as the
    # writer recorded them, or taken of the checkpoint as it loads.
    writer = target.get("fingerprint") or {}
    for key in ("state", "state_from"):
        if key in writer:
            fp[key] = writer[key]
    # Its own values where it recorded them; the writer's for the rest
    # (value_differences checks those against this rank's digests).
    return dict(target, seeds=mine.get("seeds", target.get("seeds")),
                decisions=mine.get("decisions") or {}, fingerprint=fp,
                values=dict(target["values"],
                            **(mine.get("own_values") or {})),
                rank_values=mine.get("values") or {})


def value_differences(target, values):
    """The detc-saved values whose digest after the restore (the writer's
    values) differs from this rank's own when the checkpoint was written."""
    mine = target.get("rank_values")
    if not mine:
        return []
    problems = []
    for name, d in mine.items():
        thunk = (values or {}).get(name)
        if thunk is None:
            continue
        try:
            now = fingerprint.digest(thunk())
        except Exception:
            continue
        if now != d:
            problems.append("%r: this rank's value differs from the value "
                            "of rank %d, which wrote the checkpoint" % (
                                name, target.get("rank", 0)))
    return problems

"""What a helper's call does after the checkpoint it writes.

A checkpoint written inside a helper the script calls (timm's
`best_metric, best_epoch = saver.save_checkpoint(epoch, metric)`) is
resumed where that call ends: fast-forward skips the whole call, and the
restore after it sets what detc saved. The call goes on after its save,
though: it renames the file, sets `self.best_metric`, and returns the best
values, which the script assigns. Values saved at the save are what the
run had *before* that; restored, the resumed run went on with an old best
and printed other results, exit 0.

So the transform (ReplayPlan.cpp, when the analysis sees the rest of the
call write what the restore sets, or the statement assign what the call
returns) records the values again once the call returns —
`call_returned(site, values)` after the statement — into the sidecar of
the checkpoint the call wrote (sidecar.amend; under every name the script
moved or copied it to: moved.names_of). The restore then sets the values
as they were at the call's end, and `returned_recorded(call)`, first in
the restore, refuses a sidecar without that record: a run killed after
the save but before the call returned (its file operations, and a rename
that waits for the commit's fsyncs first: moved.py), or a job of several
processes, whose ranks' records are taken at the save.
"""
from . import fingerprint, moved, ranks
from ._state import fail, warn_once
from .replay import REPLAY, _save_values, _with_outer


def call_returned(site, values, state=None):
    """The statement calling the helper that writes checkpoint `site` has
    run: when the call wrote it (not in fast-forward, not a call that
    decided not to save), `values` (thunks, as the announcement's) are
    saved again into its sidecar as of now, marked as the call's end.
    `state` (thunks reading what the restore loads from the checkpoint,
    named as resumed() takes them) when the rest of the call may have
    changed it: their digests now, which the resume compares with the
    state it restored."""
    commit = REPLAY.last_commit
    if REPLAY.ff or commit is None or commit[0] != site or \
            commit[1] != REPLAY.counts.get(site):
        return
    REPLAY.last_commit = None
    if ranks.world():
        return  # each rank's values are in the job's records (ranks.py)
    _, count, serial = commit
    tensors = []
    more = {"values": _save_values(site, _with_outer(site, values), tensors),
            "tensors": tensors, "returned": True}
    if state and fingerprint.mode() != "off":
        more["state_at_return"] = fingerprint.digests(
            {fingerprint.state_name(k): v for k, v in state.items()},
            fingerprint.mode() == "full")

    def failed(real, e):
        warn_once(("returned", real), "%s: could not record in its sidecar "
                  "what the call that wrote it did after the save (%s); a "
                  "resume from it will stop with an error" % (real, e))

    moved.amend_commit(serial, site, count, more, failed)


def returned_recorded(call):
    """First in the restore of such a site: the sidecar must hold the
    values as `call` left them (exit 3 otherwise, naming why)."""
    body = REPLAY.target
    if body.get("returned") is True:
        return
    if "world_size" in body:
        why = ("it was written by a job of several processes, and detc "
               "records what '%s' does after its save in single-process "
               "runs only" % call)
    else:
        why = ("the run that wrote it stopped before '%s' returned, and "
               "what the call does after its save (the values it returns, "
               "the objects it changes) is recorded when it returns"
               % call)
    fail("%s: error: cannot resume from this checkpoint: %s; resume from "
         "the checkpoint before it" % (REPLAY.checkpoint, why), code=3)

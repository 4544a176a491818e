#!/usr/bin/env python3
"""Runs a training script and SIGKILLs it at an exact point of its
checkpointing, for the kill/resume tests.

usage: fault_inject.py [--kill-before KIND:K] [--count FILE]
                       [--snapshot DIR] [--ready FILE] SCRIPT ARGS...

Events: `save` is a call of torch.save; `io` is any of torch.save, os.fsync
and os.replace — the steps of writing a checkpoint and committing its
sidecar (docs/replay.md), so killing before the K-th `io` event lands
inside a checkpoint write for most K. --count writes the number of events
of each kind when the script exits normally. --snapshot copies every
committed checkpoint and its sidecar to DIR/NNN/ (the script may overwrite
one path): the replay tests resume from each. --ready creates FILE once
torch is imported, just before the script starts: a kill timed from then
lands in the script's own work however long the imports took.
"""
import json
import os
import runpy
import shutil
import signal
import sys

import torch


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    kill, count_file, snapshots, ready = None, None, None, None
    while argv and argv[0].startswith("--"):
        flag, value = argv[0], argv[1]
        argv = argv[2:]
        if flag == "--kill-before":
            kind, k = value.split(":")
            kill = (kind, int(k))
        elif flag == "--count":
            count_file = value
        elif flag == "--snapshot":
            snapshots = value
        elif flag == "--ready":
            ready = value
        else:
            sys.exit("fault_inject.py: unknown flag " + flag)
    counts = {"save": 0, "io": 0}

    def event(kinds):
        for kind in kinds:
            counts[kind] += 1
            if kill is not None and kill == (kind, counts[kind]):
                sys.stdout.flush()
                sys.stderr.flush()
                os.kill(os.getpid(), signal.SIGKILL)

    def wrap(fn, kinds):
        def call(*args, **kwargs):
            event(kinds)
            return fn(*args, **kwargs)
        return call

    real_replace = os.replace
    taken = []

    def replace(src, dst, *args, **kwargs):
        event(("io",))
        real_replace(src, dst, *args, **kwargs)
        dst = os.fsdecode(dst)
        if snapshots and dst.endswith(".detc.json"):
            into = os.path.join(snapshots, "%03d" % len(taken))
            os.makedirs(into)
            checkpoint = dst[:-len(".detc.json")]
            for path in (checkpoint, dst):
                shutil.copy(path, into)
            taken.append(into)

    torch.save = wrap(torch.save, ("save", "io"))
    os.fsync = wrap(os.fsync, ("io",))
    os.replace = replace
    sys.argv = argv
    # As `python SCRIPT` does: the script's folder first on the path (its
    # modules are imported from there).
    sys.path.insert(0, os.path.dirname(os.path.abspath(argv[0])))
    if ready:
        open(ready, "w").close()
    try:
        runpy.run_path(argv[0], run_name="__main__")
    finally:
        if count_file:
            with open(count_file, "w") as f:
                json.dump(counts, f)


if __name__ == "__main__":
    main()

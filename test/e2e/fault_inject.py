#!/usr/bin/env python3
"""Runs a training script and SIGKILLs it at an exact point of its
checkpointing, for the kill/resume tests.

usage: fault_inject.py [--kill-before KIND:K] [--count FILE] SCRIPT ARGS...

Events: `save` is a call of torch.save; `io` is any of torch.save, os.fsync
and os.replace — the steps of writing a checkpoint and committing its
sidecar (docs/replay.md), so killing before the K-th `io` event lands
inside a checkpoint write for most K. --count writes the number of events
of each kind when the script exits normally.
"""
import json
import os
import runpy
import signal
import sys

import torch


def main():
    argv = sys.argv[1:]
    kill, count_file = None, None
    while argv and argv[0].startswith("--"):
        flag, value = argv[0], argv[1]
        argv = argv[2:]
        if flag == "--kill-before":
            kind, k = value.split(":")
            kill = (kind, int(k))
        elif flag == "--count":
            count_file = value
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

    torch.save = wrap(torch.save, ("save", "io"))
    os.fsync = wrap(os.fsync, ("io",))
    os.replace = wrap(os.replace, ("io",))
    sys.argv = argv
    try:
        runpy.run_path(argv[0], run_name="__main__")
    finally:
        if count_file:
            with open(count_file, "w") as f:
                json.dump(counts, f)


if __name__ == "__main__":
    main()

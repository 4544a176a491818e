"""Writes a minimal trace (docs/traincheck.md, format version 1) for lit
tests of `detc infer` / `detc check`: one training step per argument, each
a comma-separated list of the top-level APIs it calls, in order.

usage: make_trace.py OUT STEP...
"""
import json
import sys

with open(sys.argv[1], "w") as out:
    out.write(json.dumps({"v": 1, "kind": "meta", "rank": 0}) + "\n")
    for n, step in enumerate(sys.argv[2:]):
        out.write(json.dumps({"kind": "step", "epoch": 0, "step": n}) + "\n")
        for api in step.split(","):
            for kind in ("enter", "exit"):
                out.write(json.dumps({"kind": kind, "api": api, "epoch": 0,
                                      "step": n}) + "\n")

"""Writes a minimal trace (docs/traincheck.md, format version 1) for lit
tests of `detc infer` / `detc check`: one training step per argument, each
a comma-separated list of the top-level APIs it calls, in order. A call may
carry options after slashes: `forward:m/arg=H` (its first argument is a
tensor of hash H), `forward:m/finite=false` (its result has a NaN).

usage: make_trace.py OUT STEP...
"""
import json
import sys

with open(sys.argv[1], "w") as out:
    out.write(json.dumps({"v": 1, "kind": "meta", "rank": 0}) + "\n")
    for n, step in enumerate(sys.argv[2:]):
        out.write(json.dumps({"kind": "step", "epoch": 0, "step": n}) + "\n")
        for call in step.split(","):
            api, *options = call.split("/")
            options = dict(o.split("=") for o in options)
            for kind in ("enter", "exit"):
                r = {"kind": kind, "api": api, "epoch": 0, "step": n}
                if kind == "enter" and "arg" in options:
                    r["args"] = [{"type": "Tensor", "hash": options["arg"]}]
                if kind == "exit" and "finite" in options:
                    r["result"] = {"type": "Tensor",
                                   "finite": options["finite"] == "true"}
                out.write(json.dumps(r) + "\n")

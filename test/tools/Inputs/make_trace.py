"""Writes a minimal trace (docs/traincheck.md, format version 1) for lit
tests of `detc infer` / `detc check`: one training step per argument, each
a comma-separated list of the top-level APIs it calls, in order. A call may
carry options after slashes: `forward:m/arg=H` (its first argument is a
tensor of hash H), `forward:m/finite=false` (its result has a NaN),
`forward:m/finite=true/min=-2/max=0` (its result's least and greatest
elements),
`forward:m/layers=Dropout+Linear` (its module holds those layer classes),
`forward:m/ran=Linear` (those layers' forwards run inside it),
`forward:m/training=false` (an evaluation forward), `forward:m/feeds=L`
(a model's result goes into loss L), `forward:m/error=E`
(it ends by raising E), `forward:m/dtype=float32/shape=16+3+32` (its
first argument's dtype and shape).

A call `state/data=H` writes an optimizer step's `state` record instead:
one parameter (`g0.p0`, named w) whose data hashes to H; `id=P` names
another parameter (P), `grad=G` gives its gradient's hash (`none`: unset;
default `g`), `requires_grad=false` freezes it. `--rank R` before OUT
makes it rank R's trace.

usage: make_trace.py [--rank R] OUT STEP...
"""
import json
import sys

args = sys.argv[1:]
rank = 0
if args[0] == "--rank":
    rank, args = int(args[1]), args[2:]
with open(args[0], "w") as out:
    out.write(json.dumps({"v": 1, "kind": "meta", "rank": rank}) + "\n")
    for n, step in enumerate(args[1:]):
        out.write(json.dumps({"kind": "step", "epoch": 0, "step": n,
                              "rank": rank}) + "\n")
        for call in step.split(","):
            api, *options = call.split("/")
            options = dict(o.split("=") for o in options)
            if api == "state":
                out.write(json.dumps({
                    "kind": "state", "epoch": 0, "step": n, "rank": rank,
                    "params": [{"id": options.get("id", "g0.p0"),
                                "name": options.get("id", "w"),
                                "data": options["data"],
                                "grad": None if options.get("grad") == "none"
                                else options.get("grad", "g"),
                                "requires_grad": options.get(
                                    "requires_grad", "true") == "true",
                                "in_optimizer": True}]}) + "\n")
                continue
            for kind in ("enter", "exit"):
                r = {"kind": kind, "api": api, "epoch": 0, "step": n}
                if "training" in options:
                    r["training"] = options["training"] == "true"
                if "feeds" in options:
                    r["feeds"] = options["feeds"]
                if kind == "enter" and ("arg" in options or
                                        "dtype" in options):
                    a = {"type": "Tensor"}
                    if "arg" in options:
                        a["hash"] = options["arg"]
                    if "dtype" in options:
                        a["dtype"] = options["dtype"]
                        a["shape"] = [int(n) for n in
                                      options["shape"].split("+")]
                    r["args"] = [a]
                if kind == "enter" and "layers" in options:
                    r["layers"] = options["layers"].split("+")
                if kind == "exit" and "finite" in options:
                    r["result"] = {"type": "Tensor",
                                   "finite": options["finite"] == "true"}
                    if "min" in options:
                        r["result"]["min"] = float(options["min"])
                        r["result"]["max"] = float(options["max"])
                if kind == "exit" and "error" in options:
                    r["error"] = options["error"]
                if kind == "exit":
                    for layer in options.get("ran", "").split("+"):
                        if layer:
                            for k in ("enter", "exit"):
                                out.write(json.dumps({
                                    "kind": k, "api": "forward:self." +
                                    layer.lower(), "layer": layer,
                                    "epoch": 0, "step": n}) + "\n")
                out.write(json.dumps(r) + "\n")

#!/usr/bin/env python3
"""The baseline of bench/infer_scaling.py: invariant inference over detc's
traces (docs/traincheck.md) written the straightforward pandas way, as the
reference TrainCheck implementation does it — every trace loaded into one
DataFrame, then for each relation its hypotheses, each evaluated by
filtering the table to the records its descriptors name, grouping them
into examples and collecting each example's precondition features;
preconditions deduced as the engine does (lib/invariants/Examples.cpp:
conjunction, safety, pruning, disjunctive splitting).

It implements the same ten relations with the same features as `detc
infer`, so the two must find the same invariants; infer_scaling.py checks
that they do.

usage: /usr/bin/python3 bench/infer_baseline.py TRACE... (prints the
invariants as JSON lines)
"""
import json
import os
import sys

try:
    import numpy as np
    import pandas as pd
except ImportError:
    sys.exit("bench/infer_baseline.py needs pandas (Debian: python3-pandas; "
             "scripts/install-deps.sh installs it)")

MIN_SUPPORT = 3
MAX_DISJUNCTS = 4
MIN_GROUP = 3
MAX_SETS = 4096


# ---- Precondition deduction (lib/invariants/Examples.cpp) ----------------

class Hypothesis:
    def __init__(self):
        self.passing, self.failing = {}, set()
        self.npass = self.nfail = 0
        self.common = None

    def add(self, ok, features):
        f = frozenset(features)
        if ok:
            self.npass += 1
            if len(self.passing) < MAX_SETS or f in self.passing:
                self.passing[f] = self.passing.get(f, 0) + 1
            self.common = f if self.common is None else self.common & f
        else:
            self.nfail += 1
            if len(self.failing) < MAX_SETS:
                self.failing.add(f)

    def safe(self, pre):
        return bool(pre) and not any(pre <= f for f in self.failing)

    def prune(self, pre):
        kept = set(pre)
        for c in sorted(pre):
            if self.safe(frozenset(kept - {c})):
                kept.discard(c)
        return sorted(kept)

    def deduce(self):
        if self.nfail == 0:
            return []
        if self.common is not None and self.safe(self.common):
            return [self.prune(self.common)]
        rest, out = dict(self.passing), []
        while rest and len(out) < MAX_DISJUNCTS:
            best, best_count = None, 0
            for c in sorted(set().union(*rest)):
                group, count = None, 0
                for f, n in rest.items():
                    if c in f:
                        count += n
                        group = f if group is None else group & f
                if group is not None and count > best_count and \
                        count >= MIN_GROUP and self.safe(group):
                    best, best_count = group, count
            if best is None:
                break
            rest = {f: n for f, n in rest.items() if not best <= f}
            out.append(self.prune(best))
        return out or None


def js(v):
    """A scalar as the engine's clause text shows it."""
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    return str(v)


def present(v):
    return v is not None and not (isinstance(v, float) and np.isnan(v))


# ---- The table -----------------------------------------------------------

def load(paths):
    frames = []
    for path in paths:
        df = pd.read_json(path, lines=True, dtype=False,
                          convert_dates=False)
        df["_trace"] = path
        df["_job"] = os.path.dirname(path)
        df["_line"] = np.arange(1, len(df) + 1)
        # Context records (a batch's fetch, the script's own functions):
        # no relation reads them.
        if "context" in df:
            df = df[df["context"] != True].copy()  # noqa: E712
        # Steps and call depth, per trace: a step record opens a step; an
        # enter deepens, an exit returns.
        df["_sid"] = (df["kind"] == "step").cumsum()
        delta = (df["kind"] == "enter").astype(int) - \
            (df["kind"] == "exit").astype(int)
        after = delta.groupby(df["_sid"]).cumsum().clip(lower=0)
        df["_depth"] = np.where(df["kind"] == "enter", after - 1, after)
        frames.append(df)
    table = pd.concat(frames, ignore_index=True)
    for col in ("api", "training", "grad_enabled", "module", "layers",
                "layer", "args", "result", "params", "lrs", "error"):
        if col not in table:
            table[col] = None
    table["_sid"] = table["_trace"] + ":" + table["_sid"].astype(str)
    return table


def call_features(row, except_attr=""):
    return {"%s=%s" % (k, js(row[k])) for k in ("grad_enabled", "training")
            if k != except_attr and present(row[k])}


# ---- The relations ---------------------------------------------------------

def infer(paths):
    df = load(paths)
    hyps = []  # (key, Hypothesis)
    enters = df[df["kind"] == "enter"]
    steps = df[df["kind"] == "step"]
    top = enters[(enters["_depth"] == 0) &
                 enters["_sid"].isin(steps["_sid"])]

    # APISequence: per step, its top-level APIs in first-call order.
    orders = {sid: [] for sid in steps["_sid"]}
    for sid, group in top.groupby("_sid", sort=False):
        orders[sid] = list(dict.fromkeys(group["api"]))
    apis = sorted({a for o in orders.values() for a in o})
    for a in apis:
        for b in apis:
            if a == b:
                continue
            h = Hypothesis()
            for order in orders.values():
                if b not in order:
                    continue
                f = {"calls=" + x for x in order} - {"calls=" + a}
                h.add(a in order and order.index(a) < order.index(b), f)
            hyps.append((("APISequence", a, b, "", ""), h))

    # APIAttr: every call of A has attr = v.
    for api in sorted(enters["api"].dropna().unique()):
        rows = enters[enters["api"] == api]
        for attr in ("grad_enabled", "training"):
            values = rows[attr][rows[attr].map(present)]
            for v in sorted({js(x) for x in values}):
                h = Hypothesis()
                for _, r in rows[rows[attr].map(present)].iterrows():
                    h.add(js(r[attr]) == v, call_features(r, attr))
                hyps.append((("APIAttr", api, "", attr, v), h))

    # The parameters of every state record, one row each.
    states = df[(df["kind"] == "state") & df["params"].map(
        lambda p: isinstance(p, list))]
    params = states[["_trace", "_job", "epoch", "step", "rank",
                     "params"]].explode("params").dropna(subset=["params"])
    params = params.reset_index(drop=True)
    fields = pd.json_normalize(params["params"].tolist())
    for col in ("id", "name", "data", "grad", "update_expected",
                "requires_grad", "in_optimizer"):
        if col not in fields:
            fields[col] = None
    params = pd.concat([params.drop(columns="params"), fields], axis=1)
    params["id"] = params["id"].where(params["id"].map(present),
                                      params["name"])
    params["requires_grad"] = params["requires_grad"].map(
        lambda v: bool(v) if present(v) else False)
    params["in_optimizer"] = params["in_optimizer"].map(
        lambda v: bool(v) if present(v) else True)
    params["has_grad"] = params["grad"].map(present) & \
        params["update_expected"].map(lambda v: bool(v) if present(v)
                                      else True)
    params["prev"] = params.groupby(["_trace", "id"])["data"].shift()

    # ParamAttr: requires_grad / in_optimizer = v for every parameter.
    for attr, other in (("in_optimizer", "requires_grad"),
                        ("requires_grad", "in_optimizer")):
        for v in ("false", "true"):
            h = Hypothesis()
            for _, p in params.iterrows():
                h.add(js(p[attr]) == v, {other + "=" + js(p[other])})
            hyps.append((("ParamAttr", "", "", attr, v), h))

    # ParamUpdate: a parameter with a gradient changes at each step.
    h = Hypothesis()
    for _, p in params[params["has_grad"] &
                       params["prev"].map(present)].iterrows():
        h.add(p["data"] != p["prev"],
              {"in_optimizer=" + js(p["in_optimizer"]),
               "requires_grad=" + js(p["requires_grad"])})
    hyps.append((("ParamUpdate", "", "", "", ""), h))

    # Consistent: pairs of a parameter's records in one job (several ranks).
    if params["rank"].nunique() > 1:
        h = Hypothesis()
        for _, group in params.groupby(["_job", "id"], sort=False):
            by_step = {}
            for p in group.itertuples():
                for s in (p.step, p.step - 1):
                    for q in by_step.get(s, []):
                        if q.rank != p.rank or s == p.step - 1:
                            f = {("CONSISTENT(%s)" if x == y else
                                  "UNEQUAL(%s)") % name
                                 for name, x, y in (("step", p.step, q.step),
                                                    ("rank", p.rank, q.rank),
                                                    ("epoch", p.epoch,
                                                     q.epoch))}
                            h.add(p.data == q.data, f)
                mine = [q for q in by_step.get(p.step, [])
                        if q.rank != p.rank]
                by_step[p.step] = mine + [p]
        hyps.append((("Consistent", "", "", "", ""), h))

    # EpochConstant: the learning rates stay the same within an epoch.
    lrs = df[(df["kind"] == "state") & df["lrs"].map(present)].copy()
    lrs["text"] = lrs["lrs"].map(json.dumps)
    lrs["prev_epoch"] = lrs.groupby("_trace")["epoch"].shift()
    lrs["prev_text"] = lrs.groupby("_trace")["text"].shift()
    h = Hypothesis()
    for _, r in lrs[lrs["prev_epoch"] == lrs["epoch"]].iterrows():
        h.add(r["text"] == r["prev_text"], set())
    hyps.append((("EpochConstant", "", "", "", ""), h))

    # TrainBeforeEval: a module's first evaluation forward follows a
    # training forward of it.
    mods = df[(df["kind"] == "enter") & (df["_depth"] == 0) &
              df["module"].map(present)]
    h = Hypothesis()
    for _, group in mods.groupby(["_trace", "module"], sort=False):
        trained = (group["training"] == True).cumsum().shift(  # noqa: E712
            fill_value=0)
        evals = group[group["training"] == False]  # noqa: E712
        if len(evals):
            h.add(bool(trained.loc[evals.index[0]] > 0), set())
    hyps.append((("TrainBeforeEval", "", "", "", ""), h))

    # APIOutput: a top-level call's result is finite.
    exits = df[(df["kind"] == "exit") & (df["_depth"] == 0)].copy()
    exits["finite"] = exits["result"].map(
        lambda r: r.get("finite") if isinstance(r, dict) else None)
    exits = exits[exits["finite"].map(lambda v: isinstance(v, bool))]
    for api in sorted(exits["api"].unique()):
        h = Hypothesis()
        for _, r in exits[exits["api"] == api].iterrows():
            h.add(r["finite"], call_features(r))
        hyps.append((("APIOutput", api, "", "", ""), h))

    # APIOutput bounds: a finite result's least and greatest elements
    # within >= 0, <= 0 or [0, 1] (the last only for an API some result of
    # which spreads over half of [0, 1]).
    ranged = exits[exits["finite"] & exits["result"].map(
        lambda r: "min" in r and "max" in r)].copy()
    ranged["lo"] = ranged["result"].map(lambda r: r["min"])
    ranged["hi"] = ranged["result"].map(lambda r: r["max"])
    tests = {">= 0": lambda lo, hi: lo >= 0, "<= 0": lambda lo, hi: hi <= 0,
             "in [0, 1]": lambda lo, hi: lo >= 0 and hi <= 1}
    for api in sorted(ranged["api"].unique()):
        rows = ranged[ranged["api"] == api]
        spread = bool(((rows["hi"] - rows["lo"]) >= 0.5).any())
        for bound, holds in tests.items():
            if bound == "in [0, 1]" and not spread:
                continue
            h = Hypothesis()
            for _, r in rows.iterrows():
                h.add(holds(r["lo"], r["hi"]), call_features(r))
            hyps.append((("APIOutput", api, "", "range", bound), h))

    # APIArg: the first argument of A's first call in a step differs from
    # the previous step's.
    first = top.drop_duplicates(["_sid", "api"]).copy()
    first["hash"] = first["args"].map(
        lambda a: a[0].get("hash") if isinstance(a, list) and a and
        isinstance(a[0], dict) else None)
    first = first[first["hash"].map(lambda v: isinstance(v, str))]
    step_of = steps.set_index("_sid")["step"]
    first["sstep"] = first["_sid"].map(step_of)
    for api in sorted(first["api"].unique()):
        rows = first[first["api"] == api].copy()
        rows["prev_step"] = rows.groupby("_trace")["sstep"].shift()
        rows["prev_hash"] = rows.groupby("_trace")["hash"].shift()
        h = Hypothesis()
        for _, r in rows[rows["prev_step"] == rows["sstep"] - 1].iterrows():
            h.add(r["hash"] != r["prev_hash"], call_features(r))
        hyps.append((("APIArg", api, "", "", ""), h))

    # APIArg consistent: a forward's input has the dtype and per-example
    # shape of the same forward's previous top-level call.
    inputs = enters[(enters["_depth"] == 0) &
                    enters["api"].str.startswith("forward:")].copy()
    arg0 = inputs["args"].map(lambda a: a[0] if isinstance(a, list) and a
                              and isinstance(a[0], dict) else {})
    inputs["dtype"] = arg0.map(lambda a: a.get("dtype"))
    inputs["shape"] = arg0.map(
        lambda a: "[%s]" % ",".join(str(n) for n in a["shape"][1:])
        if isinstance(a.get("shape"), list) else None)
    inputs = inputs[inputs["dtype"].map(lambda v: isinstance(v, str)) &
                    inputs["shape"].map(lambda v: isinstance(v, str))]
    inputs["train"] = inputs["training"].map(
        lambda v: js(v) if present(v) else "null")
    for api in sorted(inputs["api"].unique()):
        rows = inputs[inputs["api"] == api].copy()
        for col in ("dtype", "shape", "train"):
            rows["prev_" + col] = rows.groupby("_trace")[col].shift()
        rows = rows[rows["prev_dtype"].map(lambda v: isinstance(v, str))]
        for attr in ("dtype", "shape"):
            h = Hypothesis()
            for _, r in rows.iterrows():
                f = call_features(r)
                f.add("CONSISTENT(training)" if r["train"] == r["prev_train"]
                      else "UNEQUAL(training)")
                h.add(r[attr] == r["prev_" + attr], f)
            hyps.append((("APIArg", api, "", attr, ""), h))

    # EventContain: a top-level forward of a module holding layers of class
    # L runs one of them.
    calls = df[df["kind"].isin(["enter", "exit"])].copy()
    opens = (calls["kind"] == "enter") & (calls["_depth"] == 0)
    calls["_span"] = opens.groupby(calls["_trace"]).cumsum()
    calls["_span"] = calls["_trace"] + ":" + calls["_span"].astype(str)
    contains = {}
    for _, span in calls.groupby("_span", sort=False):
        head = span.iloc[0]
        if not (head["kind"] == "enter" and head["_depth"] == 0 and
                isinstance(head["layers"], list)):
            continue
        end = span[(span["kind"] == "exit") & (span["_depth"] == 0)]
        if not len(end) or present(end.iloc[0]["error"]):
            continue
        inner = span[(span["kind"] == "enter") & (span["_depth"] > 0) &
                     (span.index < end.index[0])]
        ran = set(inner["layer"].dropna())
        f = call_features(head)
        for layer in head["layers"]:
            contains.setdefault((head["api"], layer), Hypothesis()).add(
                layer in ran, f)
    for (api, layer), h in sorted(contains.items()):
        hyps.append((("EventContain", api, layer, "", ""), h))

    out = []
    for key, h in hyps:
        pre = h.deduce()
        if pre is not None and h.npass >= MIN_SUPPORT:
            out.append(key + (pre,))
    # ">= 0" says less than "in [0, 1]" under the same precondition.
    units = [(i[1], i[5]) for i in out if i[0] == "APIOutput" and
             i[4] == "in [0, 1]"]
    return [i for i in out if not (i[0] == "APIOutput" and i[4] == ">= 0"
                                   and (i[1], i[5]) in units)]


if __name__ == "__main__":
    for inv in infer(sys.argv[1:]):
        print(json.dumps(inv))

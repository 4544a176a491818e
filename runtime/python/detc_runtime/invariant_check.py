"""The online verifier of `detc transform --check invariants.json`
(docs/traincheck.md): evaluates the invariants `detc infer` wrote on the
trace records as the training process produces them — in the trace's
writer thread, so the training thread only queues records — and reports
each violation when the record that shows it is written: within the
iteration that caused it. Mirrors lib/invariants (Examples.cpp, Check.cpp);
test/e2e/traincheck.py checks that both find the same violations.
Consistency across ranks (Consistent invariants) is checked online too:
after each optimizer step every rank posts its parameters' hashes to the
job's c10d store (the one init_process_group made) and compares them with
the other ranks' for the same step; the first parameter that differs is
reported, once, as `detc check` does offline.
"""
import json
import os
import sys
import threading

# The JSON text of a record's attribute values, as lib/invariants prints
# them into clauses. The values the clauses read are booleans: a lookup
# instead of json.dumps, which was 40% of the verifier's time per record.
_TEXT = {True: "true", False: "false"}


def _text(value):
    text = _TEXT.get(value) if type(value) is bool else None
    return text if text is not None else json.dumps(value)


class Checker:
    def __init__(self, path, out_dir, rank):
        with open(path) as f:
            data = json.load(f)
        if data.get("format") != "detc-invariants" or \
                data.get("version") != 1:
            raise ValueError("%s is not a detc invariants file" % path)
        self.invariants = data["invariants"]
        # Indexed by what each record can concern.
        self.by_api = {}
        self.sequences, self.params, self.epochs = [], [], []
        self.consistent = []
        self.train_before_eval = []
        self.outputs, self.args = {}, {}  # API -> APIOutput / APIArg
        self.arg_attrs = {}  # API -> APIArg consistent (dtype, shape)
        self.inputs = {}  # API -> (dtype, shape, training) of its last call
        self.contains = {}  # API -> EventContain invariants
        self.span = None  # (enter record, layers held, layers run)
        self.first_args = {}  # API -> (step, hash) of its first call
        self.trained, self.evaluated = set(), set()  # modules
        self.states = 0  # optimizer steps seen (matched across ranks)
        for inv in self.invariants:
            rel = inv["relation"]
            if rel == "APIAttr":
                self.by_api.setdefault(inv["a"], []).append(inv)
            elif rel == "APISequence":
                self.sequences.append(inv)
            elif rel in ("ParamUpdate", "ParamAttr"):
                self.params.append(inv)
            elif rel == "EpochConstant":
                self.epochs.append(inv)
            elif rel == "Consistent":
                self.consistent.append(inv)
            elif rel == "TrainBeforeEval":
                self.train_before_eval.append(inv)
            elif rel == "APIOutput":
                self.outputs.setdefault(inv["a"], []).append(inv)
            elif rel == "APIArg" and inv.get("attr"):
                self.arg_attrs.setdefault(inv["a"], []).append(inv)
            elif rel == "APIArg":
                self.args.setdefault(inv["a"], []).append(inv)
            elif rel == "EventContain":
                self.contains.setdefault(inv["a"], []).append(inv)
        self.rank = rank
        self.order, self.depth, self.in_step = [], 0, False
        self.previous = {}
        self.step_record = None
        self.count = 0
        # Reports come from the writer thread and, for nested calls
        # checked where they run (trace.py, checking without a trace
        # file), from the training thread.
        self.lock = threading.Lock()
        self.out = None
        if out_dir:
            self.out = open(os.path.join(
                out_dir, "violations.rank%d.jsonl" % rank), "w")

    # ---- examples, as walkTrace makes them ----
    def observe(self, r):
        kind = r.get("kind")
        if kind == "step":
            self._end_step()
            self.order, self.depth, self.in_step = [], 0, True
            self.step_record = r
        elif kind == "enter":
            if self.in_step and self.depth == 0 and r["api"] not in self.order:
                self.order.append(r["api"])
                self._first_arg(r)
            if self.depth == 0 and r["api"] in self.arg_attrs:
                self._input(r)
            if self.depth == 0 and r.get("module") is not None:
                self._module_forward(r)
            if self.depth == 0:
                self.span = (r, set(r["layers"]), set()) \
                    if "layers" in r and r["api"] in self.contains else None
            elif self.span is not None and "layer" in r:
                self.span[2].add(r["layer"])
            self.depth += 1
            self._call(r)
        elif kind == "exit":
            self.depth = max(0, self.depth - 1)
            if self.outputs and self.depth == 0:
                self._output(r)
            if self.depth == 0 and self.span is not None:
                # Checking without a trace file, the layers run come with
                # the forward's exit (nested calls make no records).
                self.span[2].update(r.get("ran", ()))
                if "error" not in r:
                    self._contain(*self.span)
                self.span = None
        elif kind == "state":
            for p in r.get("params", []):
                self._param(r, p)
            self._lrs(r)
            if self.consistent:
                self._across_ranks(r)

    def close(self):
        self._end_step()
        if self.out:
            self.out.close()

    @staticmethod
    def _satisfies(features, pre):
        """`pre`: a list of clauses (a conjunction) or a list of such lists
        (a disjunction, from disjunctive splitting); empty: always."""
        if pre and isinstance(pre[0], list):
            return any(Checker._satisfies(features, c) for c in pre)
        return all(("%s(%s)" % (c["kind"], c["attr"]) if c.get("kind")
                    else "%s=%s" % (c["attr"], c["value"])) in features
                   for c in pre)

    def check_call(self, record):
        """APIAttr on a call checked where it runs (no record queued)."""
        self._call(record)

    def _report(self, inv, record, detail):
        with self.lock:
            self._report_locked(inv, record, detail)

    def _report_locked(self, inv, record, detail):
        self.count += 1
        v = {"invariant": inv["text"], "detail": detail,
             "epoch": record.get("epoch"), "step": record.get("step"),
             "rank": self.rank}
        print("detc-check: violation: %s (epoch %s, step %s)\n"
              "  invariant: %s" % (detail, v["epoch"], v["step"],
                                   inv["text"]), file=sys.stderr)
        if self.out and not self.out.closed:
            self.out.write(json.dumps(v) + "\n")
            self.out.flush()

    def _end_step(self):
        if not self.in_step:
            return
        self.in_step = False
        order = self.order
        for inv in self.sequences:
            if inv["b"] not in order:
                continue
            f = {"calls=" + a for a in order} - {"calls=" + inv["a"]}
            if not self._satisfies(f, inv["precondition"]):
                continue
            a, b = inv["a"], inv["b"]
            if a not in order or order.index(a) > order.index(b):
                self._report(inv, self.step_record,
                             "the step calls %s %s %s" % (
                                 b, "but never" if a not in order
                                 else "before", a))

    def _call(self, r):
        invs = self.by_api.get(r["api"])
        if not invs:
            return
        attrs = {k: _text(r[k]) for k in ("training", "grad_enabled")
                 if r.get(k) is not None}
        for inv in invs:
            v = attrs.get(inv["attr"])
            if v is None or v == inv["value"]:
                continue
            f = {"%s=%s" % (k, x) for k, x in attrs.items()
                 if k != inv["attr"]}
            if self._satisfies(f, inv["precondition"]):
                self._report(inv, r, "%s called with %s = %s" % (
                    r["api"], inv["attr"], v))

    @staticmethod
    def _context(r):
        return {"%s=%s" % (k, _text(r[k]))
                for k in ("training", "grad_enabled") if r.get(k) is not None}

    def _output(self, r):
        invs = self.outputs.get(r.get("api"))
        result = r.get("result")
        if not invs or not isinstance(result, dict) or \
                result.get("finite") is not False:
            return
        f = self._context(r)
        for inv in invs:
            if self._satisfies(f, inv["precondition"]):
                self._report(inv, r, "%s returned a result with non-finite "
                             "elements (NaN or infinity)" % r["api"])

    def _contain(self, r, held, ran):
        f = self._context(r)
        for inv in self.contains[r["api"]]:
            if inv["b"] in held and inv["b"] not in ran and \
                    self._satisfies(f, inv["precondition"]):
                self._report(inv, r, "%s ran none of its module's %s "
                             "layers" % (r["api"], inv["b"]))

    def _first_arg(self, r):
        args = r.get("args")
        h = args[0].get("hash") if args and isinstance(args[0], dict) \
            else None
        if h is None:
            return
        api, step = r["api"], self.step_record.get("step")
        last = self.first_args.get(api)
        self.first_args[api] = (step, h)
        if last is None or last[0] != step - 1 or last[1] != h:
            return
        f = self._context(r)
        for inv in self.args.get(api, ()):
            if self._satisfies(f, inv["precondition"]):
                self._report(inv, r, "%s got the same first argument as in "
                             "the previous step (the same batch again)"
                             % api)

    def _input(self, r):
        """APIArg consistent: the first argument's dtype and per-example
        shape against the same forward's previous top-level call."""
        args = r.get("args")
        a = args[0] if args and isinstance(args[0], dict) else {}
        if "dtype" not in a or "shape" not in a:
            return
        api = r["api"]
        now = {"dtype": a["dtype"],
               "shape": "[%s]" % ",".join(str(n) for n in a["shape"][1:]),
               "training": r.get("training")}
        last = self.inputs.get(api)
        self.inputs[api] = now
        if last is None:
            return
        f = self._context(r)
        f.add("CONSISTENT(training)" if now["training"] == last["training"]
              else "UNEQUAL(training)")
        for inv in self.arg_attrs[api]:
            attr = inv["attr"]
            if now[attr] != last[attr] and \
                    self._satisfies(f, inv["precondition"]):
                self._report(inv, r, "%s got a first argument of %s %s "
                             "where its previous call's had %s" % (
                                 api, "per-example shape" if attr == "shape"
                                 else attr, now[attr], last[attr]))

    def _lrs(self, r):
        if "lrs" not in r:
            return
        text = json.dumps(r["lrs"])
        last, self.last_lrs = getattr(self, "last_lrs", None), \
            (r.get("epoch"), text)
        if last is None or last[0] != r.get("epoch") or last[1] == text:
            return
        for inv in self.epochs:
            self._report(inv, r, "the learning rates changed within "
                         "epoch %s" % r.get("epoch"))

    def _param(self, r, p):
        if not self.params:
            return
        pid = p.get("id", p["name"])
        if "changed" in p:  # judged in the training process (trace._changed)
            changed = p["changed"]
        else:
            changed = None
            if pid in self.previous:
                changed = self.previous[pid] != p["data"]
            self.previous[pid] = p["data"]
        has_grad = p.get("grad") is not None and p.get("update_expected",
                                                        True)
        attrs = {"requires_grad": _text(p["requires_grad"]),
                 "in_optimizer": _text(p.get("in_optimizer", True))}
        features = {"%s=%s" % kv for kv in attrs.items()}
        for inv in self.params:
            rel = inv["relation"]
            if rel == "ParamUpdate" and has_grad and changed is False and \
                    self._satisfies(features, inv["precondition"]):
                self._report(inv, r, "parameter %s has a gradient but did "
                             "not change at the step%s" % (
                                 p["name"], "" if p.get("in_optimizer", True)
                                 else " (no optimizer holds it)"))
            if rel == "ParamAttr":
                v = attrs.get(inv["attr"])
                if v is None or v == inv["value"]:
                    continue
                f = features - {"%s=%s" % (inv["attr"], v)}
                if self._satisfies(f, inv["precondition"]):
                    self._report(inv, r, "parameter %s has %s = %s" % (
                        p["name"], inv["attr"], v))

    # ---- Consistent, online: the ranks' hashes through the c10d store ----
    KEY = "detc-check/%d/%d"  # state number, rank
    WAIT = 30  # seconds for another rank's hashes

    def _across_ranks(self, r):
        n = self.states
        self.states += 1
        try:
            import datetime
            import torch.distributed as dist
            if not dist.is_available() or not dist.is_initialized():
                return
            world = dist.get_world_size()
            if world < 2:
                return
            store = dist.distributed_c10d._get_default_store()
            mine = {p.get("id", p["name"]): [
                p["data"], p["name"], _text(p["requires_grad"]),
                _text(p.get("in_optimizer", True))]
                for p in r.get("params", [])}
            store.set(self.KEY % (n, self.rank), json.dumps(mine))
            keys = [self.KEY % (n, other) for other in range(world)
                    if other != self.rank]
            store.wait(keys, datetime.timedelta(seconds=self.WAIT))
            theirs = [json.loads(store.get(k)) for k in keys]
            if n >= 8:  # every rank has read it by now (steps are in sync)
                store.delete_key(self.KEY % (n - 8, self.rank))
        except Exception as e:  # a rank gone, the group destroyed
            print("detc-check: note: consistency across ranks is no longer "
                  "checked (%s: %s)" % (type(e).__name__, e),
                  file=sys.stderr)
            self.consistent = []
            return
        # The pairs compared here: this rank's record and another rank's
        # at the same step (of the same epoch), with the CONSTANT clauses
        # both records satisfy (lib/invariants pairFeatures; the gradient,
        # which Consistent may not use, is not compared).
        same_step = {"CONSISTENT(step)", "UNEQUAL(rank)", "CONSISTENT(epoch)"}
        for pid in sorted(mine):
            data, name, rg, io = mine[pid]
            differs = [t[pid] for t in theirs if pid in t and
                       t[pid][0] != data]
            if differs:
                pair = set(same_step)
                if all(len(o) < 4 or o[2] == rg for o in differs):
                    pair.add("requires_grad=" + rg)
                if all(len(o) < 4 or o[3] == io for o in differs):
                    pair.add("in_optimizer=" + io)
                invs = [inv for inv in self.consistent
                        if self._satisfies(pair, inv["precondition"])]
                if not invs:
                    continue
                for inv in invs:
                    self._report(inv, r, "parameter %s differs between "
                                 "ranks at step %s" % (name, r.get("step")))
                # Reported once, at the first step the replicas drift
                # apart (as detc check does).
                self.consistent = []
                return

    def _module_forward(self, r):
        module = r["module"]
        if r.get("training") is True:
            self.trained.add(module)
        elif r.get("training") is False and module not in self.evaluated:
            self.evaluated.add(module)
            if module not in self.trained:
                for inv in self.train_before_eval:
                    self._report(inv, r, "the first evaluation forward of "
                                 "module %s (%s) comes before any training "
                                 "forward of it" % (module, r["api"]))

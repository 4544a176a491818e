"""The online verifier of `detc transform --check invariants.json`
(docs/traincheck.md): evaluates the invariants `detc infer` wrote as the
training process runs and reports each violation within the iteration
that caused it. Checking only (no trace file), each traced call hands it
the values its invariants read, on the training thread (trace.py
_top_checked); with a trace written too, it reads the records in the
trace's writer thread. Mirrors lib/invariants (Examples.cpp, Check.cpp);
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


def _plain(value):
    """A fact of a violation's excerpt as JSON can hold it."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return _shape_text(value)


def _shape_text(value):
    """A dtype or a per-example shape as lib/invariants prints it (from a
    record: text and a list; checked where it runs: torch's objects)."""
    if isinstance(value, (list, tuple)):
        return "[%s]" % ",".join(str(n) for n in value)
    return str(value).replace("torch.", "")


def bound_violation(bound, api, lo, hi):
    """How a result with least element `lo` and greatest `hi` breaks
    `bound` (">= 0", "<= 0", "in [0, 1]"); None when it does not. The text
    is lib/invariants' (Examples.cpp boundViolation), number for number."""
    if bound == ">= 0" and lo < 0:
        return "%s returned a result with an element below 0 (least %.6g)" \
            % (api, lo)
    if bound == "<= 0" and hi > 0:
        return "%s returned a result with an element above 0 (greatest " \
            "%.6g)" % (api, hi)
    if bound == "in [0, 1]" and (lo < 0 or hi > 1):
        return "%s returned a result with an element outside [0, 1] " \
            "(least %.6g, greatest %.6g)" % (api, lo, hi)
    return None


# What `detc check` reads (lib/invariants/Infer.cpp fromJSON): a file it
# refuses is refused here too, before training.
RELATIONS = {"APISequence", "APIAttr", "ParamAttr", "ParamUpdate",
             "Consistent", "EpochConstant", "TrainBeforeEval", "APIOutput",
             "APIArg", "EventContain"}


def validate(data, path):
    """The invariants of a loaded file; ValueError saying what is wrong."""
    def bad(why):
        return ValueError("%s: not a detc invariants file: %s" % (path, why))
    if not isinstance(data, dict) or data.get("format") != "detc-invariants":
        raise bad('no "format": "detc-invariants"')
    if data.get("version") != 1:
        raise bad("version is not 1")
    invariants = data.get("invariants")
    if not isinstance(invariants, list):
        raise bad('no "invariants" list')
    for inv in invariants:
        if not isinstance(inv, dict) or not isinstance(inv.get("relation"),
                                                       str):
            raise bad('an invariant without "relation"')
        if inv["relation"] not in RELATIONS:
            raise bad("unknown relation %r" % inv["relation"])
        for key in ("a", "b", "attr", "value", "text"):
            if key in inv and not isinstance(inv[key], str):
                raise bad("%r of a %s invariant is not a string"
                          % (key, inv["relation"]))
        pre = inv.get("precondition", [])
        if not isinstance(pre, list):
            raise bad("a precondition that is not a list")
        for d in pre:
            for c in d if isinstance(d, list) else [d]:
                if not isinstance(c, dict):
                    raise bad("a precondition clause that is not an object")
                if c.get("kind", "CONSISTENT") not in ("CONSISTENT",
                                                       "UNEQUAL"):
                    raise bad("unknown clause kind %r" % c.get("kind"))
    return invariants


class Checker:
    def __init__(self, path, out_dir, rank):
        from .inputs import read_json
        self.invariants = validate(read_json(path), path)
        # Indexed by what each record can concern.
        self.by_api = {}
        self.sequences, self.params, self.epochs = [], [], []
        self.consistent = []
        self.train_before_eval = []
        self.outputs, self.args = {}, {}  # API -> APIOutput / APIArg
        self.bounds = {}  # API -> APIOutput bounds
        self.arg_attrs = {}  # API -> APIArg consistent (dtype, shape)
        # (API, module) -> (dtype, shape, training) of its last call
        self.inputs = {}
        self.contains = {}  # API -> EventContain invariants
        # API -> (the layer list of its module's last forward, the layer
        # classes its invariants need that forward to run); the list is the
        # same object at every forward of one module (trace._module_index).
        self.contain_needs = {}
        self.span = None  # (enter record, layers held, layers run)
        self.first_args = {}  # API -> (step, hash) of its first call
        self.trained, self.evaluated = set(), set()  # modules
        self.states = 0  # optimizer steps seen (matched across ranks)
        self.last_lrs = None  # (epoch, learning rates) at the last step
        # (api, training, grad_enabled) that violate no APIAttr invariant.
        self.attrs_pass = set()
        self.orders_pass = set()  # call orders of steps that pass
        self.flags_pass = set()  # (requires_grad, in_optimizer) that pass
        for inv in self.invariants:
            rel = inv["relation"]
            if rel == "APIAttr":
                # (invariant, whether it reads `training` (else
                # `grad_enabled`), the value it asserts as Python's): the
                # check of a call compares two values, no text.
                self.by_api.setdefault(inv["a"], []).append(
                    (inv, inv["attr"] == "training",
                     json.loads(inv["value"])))
            elif rel == "APISequence":
                self.sequences.append((inv, inv["a"], inv["b"]))
            elif rel in ("ParamUpdate", "ParamAttr"):
                self.params.append(inv)
            elif rel == "EpochConstant":
                self.epochs.append(inv)
            elif rel == "Consistent":
                self.consistent.append(inv)
            elif rel == "TrainBeforeEval":
                self.train_before_eval.append(inv)
            elif rel == "APIOutput" and inv.get("attr") == "range":
                self.bounds.setdefault(inv["a"], []).append(inv)
            elif rel == "APIOutput":
                self.outputs.setdefault(inv["a"], []).append(inv)
            elif rel == "APIArg" and inv.get("attr"):
                self.arg_attrs.setdefault(inv["a"], []).append(inv)
            elif rel == "APIArg":
                self.args.setdefault(inv["a"], []).append(inv)
            elif rel == "EventContain":
                self.contains.setdefault(inv["a"], []).append(inv)
        # (invariant, relation, whether a ParamAttr reads requires_grad
        # (else in_optimizer), the value it asserts as Python's).
        self.param_checks = [
            (inv, inv["relation"], inv.get("attr") == "requires_grad",
             json.loads(inv["value"]) if inv["relation"] == "ParamAttr"
             else None)
            for inv in self.params]
        self.rank = rank
        self.order, self.depth, self.in_step = [], 0, False
        self.previous = {}
        self.step_record = None
        self.count = 0
        # Where a violation is, when checked without a record (trace.py
        # sets it): {"epoch", "step"}.
        self.here = lambda: {}
        # Reports come from the writer thread and, for nested calls
        # checked where they run (trace.py, checking without a trace
        # file), from the training thread.
        self.lock = threading.Lock()
        self.out = None
        self.out_dir = out_dir
        self.held = []  # violations found before the rank was known
        if rank is not None:
            self.set_rank(rank)

    def set_rank(self, rank, report=True):
        """The process's rank: the cross-rank checks and the report file
        (`violations.rank<R>.jsonl`, not written when `report` is false)
        are named after it. The tracer gives it once known (a process
        started by torch.multiprocessing.spawn learns it late)."""
        with self.lock:
            self.rank = rank
            held, self.held = self.held, []
            if self.out_dir and report and self.out is None:
                from . import output
                self.out = output.open_stream(os.path.join(
                    self.out_dir, "violations.rank%d.jsonl" % rank),
                    "violation report")
            for v in held:
                v["rank"] = rank
                self._write(v)

    # ---- examples, as walkTrace makes them ----
    # observe() takes the records of a trace; checking without a trace file
    # (trace.py) calls step_begins/top_enter/top_exit/call_attrs directly
    # with the values, on the training thread: no record is made.
    def observe(self, r):
        if r.get("context"):  # a fetch or the script's own function
            return
        kind = r.get("kind")
        if kind == "step":
            self.step_begins(r)
        elif kind == "enter":
            api = r["api"]
            if self.depth == 0:
                args = r.get("args")
                a = args[0] if args and isinstance(args[0], dict) else {}
                self.top_enter(api, r.get("training"), r.get("grad_enabled"),
                               r.get("module"), r.get("layers"),
                               a.get("hash"), a.get("dtype"), a.get("shape"),
                               r)
            else:
                if self.span is not None and "layer" in r:
                    self.span[4].add(r["layer"])
                self.call_attrs(api, r.get("training"),
                                r.get("grad_enabled"), r)
            self.depth += 1
        elif kind == "exit":
            self.depth = max(0, self.depth - 1)
            if self.depth == 0:
                result = r.get("result")
                if not isinstance(result, dict):
                    result = {}
                bounds = (result["min"], result["max"]) \
                    if "min" in result and "max" in result else None
                self.top_exit(r.get("api"), r.get("training"),
                              r.get("grad_enabled"), "error" in r,
                              result.get("finite"), r.get("ran", ()), r,
                              bounds=bounds, feeds=r.get("feeds"))
        elif kind == "state":
            for p in r.get("params", []):
                self._param(r, p)
            self._lrs(r)
            if self.consistent:
                self._across_ranks(r)

    def step_begins(self, r):
        self._end_step()
        self.order, self.depth, self.in_step = [], 0, True
        self.step_record = r

    def top_enter(self, api, training, grad_enabled, module, layers,
                  arg_hash, dtype, shape, where=None):
        """A call at the top level (not inside another traced call):
        `arg_hash`, `dtype`, `shape`: of its first argument, when the
        invariants read them (None otherwise)."""
        if self.in_step and api not in self.order:
            self.order.append(api)
            if arg_hash is not None:
                self._first_arg(api, training, grad_enabled, arg_hash, where)
        if dtype is not None and shape is not None and \
                api in self.arg_attrs:
            self._input(api, module, training, grad_enabled, dtype, shape,
                        where)
        if module is not None:
            self._module_forward(api, training, module, where)
        self.span = (api, training, grad_enabled, layers, set()) \
            if layers and api in self.contains else None
        if (api, training, grad_enabled) not in self.attrs_pass:
            self.call_attrs(api, training, grad_enabled, where)

    def top_exit(self, api, training, grad_enabled, error, finite, ran,
                 where=None, bounds=None, feeds=None):
        """Its exit: `finite`, whether its result is (None: not known);
        `ran`, the layer classes it ran (checking without a trace);
        `bounds`, the result's least and greatest elements (None: not
        known); `feeds`, the loss a model's result goes into."""
        if finite is False and self.outputs:
            self._output(api, training, grad_enabled, where)
        if bounds is not None and api in self.bounds and \
                (feeds is not None or api != "forward:model"):
            self._bounds(api, training, grad_enabled, bounds, where, feeds)
        span = self.span
        if span is not None:
            self.span = None
            done = span[4]
            if ran:
                done.update(ran)
            if error:
                return
            # Ran every layer class its invariants need: nothing to check.
            needed = self.contain_needs.get(api)
            if needed is None or needed[0] is not span[3] or \
                    not needed[1] <= done:
                self._contain(*span, where)

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

    def _report(self, inv, record, detail, **facts):
        """A violation of `inv` at `record` (a trace record, or None when
        checking without one); `facts`: what the check saw, the excerpt of
        the trace a record would have been."""
        with self.lock:
            self._report_locked(inv, record, detail, facts)

    def _report_locked(self, inv, record, detail, facts):
        if record is None:
            record = self.here()
        self.count += 1
        excerpt = record if "kind" in record else dict(record, **{
            k: _plain(v) for k, v in facts.items()})
        v = {"invariant": inv["text"], "detail": detail,
             "epoch": record.get("epoch"), "step": record.get("step"),
             "rank": self.rank,
             "precondition": inv.get("precondition", []),
             "excerpt": excerpt}
        print("detc-check: violation: %s (epoch %s, step %s)\n"
              "  invariant: %s\n  excerpt: %s" % (
                  detail, v["epoch"], v["step"], inv["text"],
                  json.dumps(excerpt, sort_keys=True)[:400]),
              file=sys.stderr)
        if self.rank is None and self.out_dir:
            self.held.append(v)  # written once the rank names the file
        else:
            self._write(v)

    def _write(self, v):
        if self.out and not self.out.closed:
            self.out.write(json.dumps(v) + "\n")
            self.out.flush()

    def _end_step(self):
        if not self.in_step:
            return
        self.in_step = False
        order = self.order
        # The verdict depends on the order of the step's calls only: orders
        # that violate nothing (a training loop repeats one) are remembered.
        key = tuple(order)
        if key in self.orders_pass:
            return
        violated = False
        position = {api: i for i, api in enumerate(order)}
        for inv, a, b in self.sequences:
            pb = position.get(b)
            if pb is None:
                continue
            pa = position.get(a)
            if pa is not None and pa < pb:
                continue
            f = {"calls=" + c for c in order} - {"calls=" + a}
            if self._satisfies(f, inv["precondition"]):
                violated = True
                self._report(inv, self.step_record,
                             "the step calls %s %s %s" % (
                                 b, "but never" if a not in order
                                 else "before", a), calls=order)
        if not violated:
            self.orders_pass.add(key)

    def call_attrs(self, api, training, grad_enabled, where=None):
        """APIAttr: the call's `training` and `grad_enabled`. The verdict
        depends on these three values only: combinations that violate
        nothing are remembered and not evaluated again (a layer inside the
        model is called with the same ones at every step)."""
        key = (api, training, grad_enabled)
        if key in self.attrs_pass:
            return
        checks = self.by_api.get(api)
        if not checks:
            self.attrs_pass.add(key)
            return
        violated = False
        for inv, reads_training, want in checks:
            v = training if reads_training else grad_enabled
            if v is None or v == want:
                continue
            other = ("grad_enabled", grad_enabled) if reads_training \
                else ("training", training)
            f = set() if other[1] is None else \
                {"%s=%s" % (other[0], _text(other[1]))}
            if self._satisfies(f, inv["precondition"]):
                violated = True
                self._report(inv, where, "%s called with %s = %s" % (
                    api, inv["attr"], _text(v)), api=api, training=training,
                    grad_enabled=grad_enabled)
        if not violated:
            self.attrs_pass.add(key)

    @staticmethod
    def _context(training, grad_enabled):
        return {"%s=%s" % (k, _text(v))
                for k, v in (("training", training),
                             ("grad_enabled", grad_enabled))
                if v is not None}

    def _output(self, api, training, grad_enabled, where):
        invs = self.outputs.get(api)
        if not invs:
            return
        f = self._context(training, grad_enabled)
        for inv in invs:
            if self._satisfies(f, inv["precondition"]):
                self._report(inv, where, "%s returned a result with "
                             "non-finite elements (NaN or infinity)" % api,
                             api=api, training=training,
                             grad_enabled=grad_enabled)

    def _bounds(self, api, training, grad_enabled, bounds, where, feeds):
        """APIOutput bounds: the result's least and greatest elements
        within the invariant's interval (lib/invariants boundViolation); a
        model's, for the loss its result feeds (lib/invariants
        boundFeatures)."""
        lo, hi = bounds
        f = None
        for inv in self.bounds[api]:
            detail = bound_violation(inv["value"], api, lo, hi)
            if detail is None:
                continue
            if f is None:
                f = self._context(training, grad_enabled)
                if feeds is not None:
                    f.add("feeds=" + feeds)
            if self._satisfies(f, inv["precondition"]):
                self._report(inv, where, detail, api=api, training=training,
                             grad_enabled=grad_enabled, least=lo,
                             greatest=hi)

    def _contain(self, api, training, grad_enabled, held, ran, where):
        # The classes this API's invariants name that the module holds:
        # when it ran them all (the common case), nothing to evaluate
        # (top_exit tests that first).
        needed = self.contain_needs.get(api)
        if needed is None or needed[0] is not held:
            needed = self.contain_needs[api] = (held, frozenset(
                inv["b"] for inv in self.contains[api] if inv["b"] in held))
        if needed[1] <= ran:
            return
        invs = [inv for inv in self.contains[api]
                if inv["b"] in held and inv["b"] not in ran]
        if not invs:
            return
        f = self._context(training, grad_enabled)
        for inv in invs:
            if self._satisfies(f, inv["precondition"]):
                self._report(inv, where, "%s ran none of its module's %s "
                             "layers" % (api, inv["b"]), api=api,
                             training=training, grad_enabled=grad_enabled,
                             held=held, ran=sorted(ran))

    def _first_arg(self, api, training, grad_enabled, h, where):
        step = self.step_record.get("step")
        last = self.first_args.get(api)
        self.first_args[api] = (step, h)
        if last is None or last[0] != step - 1 or last[1] != h:
            return
        f = self._context(training, grad_enabled)
        for inv in self.args.get(api, ()):
            if self._satisfies(f, inv["precondition"]):
                self._report(inv, where, "%s got the same first argument as "
                             "in the previous step (the same batch again)"
                             % api, api=api, training=training,
                             grad_enabled=grad_enabled, hash=h)

    def _input(self, api, module, training, grad_enabled, dtype, shape,
               where):
        """APIArg consistent: the first argument's dtype and per-example
        shape against the same module's previous top-level call of that
        forward (`forward:model` names a GAN's generator and its
        discriminator alike)."""
        key = (api, module)
        last = self.inputs.get(key)
        if last is not None and shape == last[1] and dtype == last[0]:
            # The common case: the same input shape as last time (torch
            # compares sizes as tuples; no slices made).
            if training is not last[2]:
                self.inputs[key] = (dtype, shape, training)
            return
        self.inputs[key] = (dtype, shape, training)
        if last is None or (dtype == last[0] and shape[1:] == last[1][1:]):
            return
        now = {"dtype": dtype, "shape": shape[1:], "training": training}
        last = {"dtype": last[0], "shape": last[1][1:], "training": last[2]}
        f = self._context(training, grad_enabled)
        f.add("CONSISTENT(training)" if training == last["training"]
              else "UNEQUAL(training)")
        for inv in self.arg_attrs[api]:
            attr = inv["attr"]
            if now[attr] != last[attr] and \
                    self._satisfies(f, inv["precondition"]):
                self._report(inv, where, "%s got a first argument of %s %s "
                             "where its previous call's had %s" % (
                                 api, "per-example shape" if attr == "shape"
                                 else attr, _shape_text(now[attr]),
                                 _shape_text(last[attr])), api=api,
                             training=training, grad_enabled=grad_enabled,
                             dtype=dtype, shape=list(shape))

    def _lrs(self, r):
        if "lrs" in r:
            self.lrs(r.get("epoch"), r["lrs"], r)

    def lrs(self, epoch, lrs, where=None):
        """EpochConstant: the optimizer's learning rates after a step."""
        if not self.epochs:
            return
        lrs = tuple(lrs)
        last, self.last_lrs = self.last_lrs, (epoch, lrs)
        if last is None or last[0] != epoch or last[1] == lrs:
            return
        for inv in self.epochs:
            self._report(inv, where, "the learning rates changed within "
                         "epoch %s" % epoch, lrs=lrs, previous=last[1])

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
        self.param(p["name"], changed, p.get("grad") is not None,
                   lambda: p.get("update_expected", True),
                   p["requires_grad"], p.get("in_optimizer", True), r)

    def param(self, name, changed, has_grad, update_expected, requires_grad,
              in_optimizer, where=None):
        """ParamUpdate and ParamAttr on one parameter after a step.
        `update_expected`: a function, called only when its answer
        matters (a parameter with a gradient that did not change)."""
        # ParamAttr's verdict depends on the two flags only: flags that
        # violate nothing are remembered.
        flags = (requires_grad, in_optimizer)
        if flags in self.flags_pass and not (changed is False and has_grad):
            return
        attrs_violated = False
        stuck = None  # computed at most once
        attrs = None
        for inv, rel, reads_requires_grad, want in self.param_checks:
            if rel == "ParamAttr":
                v = requires_grad if reads_requires_grad else in_optimizer
                if v is None or v == want:
                    continue
            elif rel == "ParamUpdate":
                if stuck is None:
                    stuck = changed is False and has_grad and \
                        bool(update_expected())
                if not stuck:
                    continue
            else:
                continue
            if attrs is None:
                attrs = {"requires_grad": _text(requires_grad),
                         "in_optimizer": _text(in_optimizer)}
            features = {"%s=%s" % kv for kv in attrs.items()}
            if rel == "ParamUpdate":
                if self._satisfies(features, inv["precondition"]):
                    self._report(inv, where, "parameter %s has a gradient "
                                 "but did not change at the step%s" % (
                                     name, "" if in_optimizer
                                     else " (no optimizer holds it)"),
                                 parameter=name, **attrs)
                continue
            v = attrs[inv["attr"]]
            f = features - {"%s=%s" % (inv["attr"], v)}
            if self._satisfies(f, inv["precondition"]):
                attrs_violated = True
                self._report(inv, where, "parameter %s has %s = %s" % (
                    name, inv["attr"], v), parameter=name, **attrs)
        if not attrs_violated:
            self.flags_pass.add(flags)

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

    def _module_forward(self, api, training, module, where):
        if training is True:
            self.trained.add(module)
        elif training is False and module not in self.evaluated:
            self.evaluated.add(module)
            if module not in self.trained:
                for inv in self.train_before_eval:
                    self._report(inv, where, "the first evaluation forward "
                                 "of module %s (%s) comes before any "
                                 "training forward of it" % (module, api),
                                 api=api, module=module, training=training)

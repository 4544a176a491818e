//===- Check.cpp - Checking training invariants on traces -----------------===//
//
// One streaming pass: every example of every trace is tested against the
// invariants whose precondition it satisfies (Examples.h); a failing one
// is a violation, reported with its trace, line, epoch and step; a pair
// of parameter records is one when it satisfies a Consistent invariant's
// CONSISTENT / UNEQUAL clauses and its data differ.
//
//===----------------------------------------------------------------------===//

#include "Examples.h"

#include <fstream>

using namespace llvm;

namespace detc::invariants {

Expected<std::vector<Violation>> check(ArrayRef<std::string> traces,
                                       const std::vector<Invariant> &invs,
                                       InferStats &stats) {
  std::vector<Violation> out;
  auto violate = [&](const Invariant &inv, const Where &w, std::string d) {
    out.push_back({&inv, w.trace.str(), w.line, w.epoch, w.step, std::move(d)});
  };
  ParamPairs pairs;
  std::set<const Invariant *> drifted; // reported once: the first drift
  bool consistency = llvm::any_of(
      invs, [](const Invariant &i) { return i.relation == "Consistent"; });
  for (const std::string &t : traces) {
    ExampleSink sink;
    auto onStep = [&](const StepExample &s) {
      for (const Invariant &inv : invs) {
        if (inv.relation != "APISequence")
          continue;
        auto b = llvm::find(s.order, inv.b);
        if (b == s.order.end())
          continue;
        Features f = stepFeatures(s);
        f.erase("calls=" + inv.a);
        if (!satisfies(f, inv.precondition))
          continue;
        auto a = llvm::find(s.order, inv.a);
        if (a == s.order.end() || a > b)
          violate(inv, s.at,
                  a == s.order.end()
                      ? "the step calls " + inv.b + " but never " + inv.a
                      : "the step calls " + inv.b + " before " + inv.a);
      }
    };
    auto onCall = [&](const CallExample &c) {
      for (const Invariant &inv : invs) {
        if (inv.relation != "APIAttr" || inv.a != c.api)
          continue;
        auto it = c.attrs.find(inv.attr);
        if (it == c.attrs.end() || it->second == inv.value ||
            !satisfies(callFeatures(c, inv.attr), inv.precondition))
          continue;
        violate(inv, c.at,
                c.api + " called with " + inv.attr + " = " + it->second);
      }
    };
    auto onParam = [&](const ParamExample &p) {
      std::map<std::string, std::string> a = {
          {"requires_grad", p.requiresGrad ? "true" : "false"},
          {"in_optimizer", p.inOptimizer ? "true" : "false"}};
      Features all;
      for (auto &[k, v] : a)
        all.insert(k + "=" + v);
      for (const Invariant &inv : invs) {
        if (inv.relation == "ParamUpdate" && p.hasGrad && p.changed &&
            !*p.changed && satisfies(all, inv.precondition))
          violate(inv, p.at,
                  "parameter " + p.name +
                      " has a gradient but did not change at the step" +
                      (p.inOptimizer ? "" : " (no optimizer holds it)"));
        if (inv.relation == "ParamAttr") {
          auto it = a.find(inv.attr);
          if (it == a.end() || it->second == inv.value)
            continue;
          Features f = all;
          f.erase(inv.attr + "=" + it->second);
          if (satisfies(f, inv.precondition))
            violate(inv, p.at,
                    "parameter " + p.name + " has " + inv.attr + " = " +
                        it->second);
        }
      }
      if (consistency)
        pairs.add(p, [&](const ParamExample &q) {
          if (p.data == q.data)
            return;
          Features f = pairFeatures(p, q);
          for (const Invariant &inv : invs)
            if (inv.relation == "Consistent" && !drifted.count(&inv) &&
                satisfies(f, inv.precondition)) {
              drifted.insert(&inv);
              violate(inv, p.at,
                      "parameter " + q.name +
                          (q.at.step == p.at.step
                               ? " differs between ranks at step " +
                                     std::to_string(p.at.step)
                               : " differs between step " +
                                     std::to_string(q.at.step) + " (rank " +
                                     std::to_string(q.at.rank) + ") and step " +
                                     std::to_string(p.at.step) + " (rank " +
                                     std::to_string(p.at.rank) + ")"));
            }
        });
    };
    auto onLr = [&](const LrExample &l) {
      if (!l.changedInEpoch || !*l.changedInEpoch)
        return;
      for (const Invariant &inv : invs)
        if (inv.relation == "EpochConstant")
          violate(inv, l.at,
                  "the learning rates changed within epoch " +
                      std::to_string(l.at.epoch));
    };
    auto onEval = [&](const EvalExample &e) {
      if (e.trainedBefore)
        return;
      for (const Invariant &inv : invs)
        if (inv.relation == "TrainBeforeEval")
          violate(inv, e.at,
                  "the first evaluation forward of module " + e.module +
                      " (" + e.api + ") comes before any training forward "
                      "of it");
    };
    // A failing example of a per-call relation (APIOutput, APIArg).
    auto callFails = [&](StringRef relation, const CallExample &c,
                         StringRef detail) {
      for (const Invariant &inv : invs)
        if (inv.relation == relation && inv.attr.empty() && inv.a == c.api &&
            satisfies(callFeatures(c, ""), inv.precondition))
          violate(inv, c.at, c.api + " " + detail.str());
    };
    auto onOutput = [&](const OutputExample &o) {
      if (!o.finite)
        callFails("APIOutput", o.call,
                  "returned a result with non-finite elements (NaN or "
                  "infinity)");
      if (!o.lo || !o.hi)
        return;
      for (const Invariant &inv : invs) {
        if (inv.relation != "APIOutput" || inv.attr != "range" ||
            inv.a != o.call.api)
          continue;
        std::string detail = boundViolation(inv.value, *o.lo, *o.hi);
        std::optional<Features> scoped = boundFeatures(o);
        if (!detail.empty() && scoped && satisfies(*scoped, inv.precondition))
          violate(inv, o.call.at, o.call.api + " " + detail);
      }
    };
    auto onArg = [&](const ArgExample &a) {
      if (!a.same)
        return;
      for (const Invariant &inv : invs)
        if (inv.relation == "APIArg" && inv.attr.empty() &&
            inv.a == a.call.api &&
            satisfies(callFeatures(a.call, ""), inv.precondition))
          violate(inv, a.call.at,
                  a.call.api + " got the same first argument as in the "
                               "previous step (the same batch again)");
    };
    auto onArgAttr = [&](const ArgAttrExample &x) {
      if (x.dtype == x.previousDtype && x.shape == x.previousShape)
        return;
      Features f = callFeatures(x.call, "");
      f.insert(x.pair);
      for (const Invariant &inv : invs) {
        if (inv.relation != "APIArg" || inv.a != x.call.api || inv.attr.empty())
          continue;
        bool shape = inv.attr == "shape";
        const std::string &now = shape ? x.shape : x.dtype;
        const std::string &then = shape ? x.previousShape : x.previousDtype;
        if (now != then && satisfies(f, inv.precondition))
          violate(inv, x.call.at,
                  x.call.api + " got a first argument of " +
                      (shape ? "per-example shape " : "dtype ") + now +
                      " where its previous call's had " + then);
      }
    };
    auto onContain = [&](const ContainExample &c) {
      for (const Invariant &inv : invs)
        if (inv.relation == "EventContain" && inv.a == c.call.api &&
            c.held.count(inv.b) && !c.called.count(inv.b) &&
            satisfies(callFeatures(c.call, ""), inv.precondition))
          violate(inv, c.call.at,
                  c.call.api + " ran none of its module's " + inv.b +
                      " layers");
    };
    sink.step = onStep;
    sink.call = onCall;
    sink.param = onParam;
    sink.contain = onContain;
    sink.lr = onLr;
    sink.eval = onEval;
    sink.output = onOutput;
    sink.arg = onArg;
    sink.argAttr = onArgAttr;
    if (Error e = walkTrace(t, sink, stats))
      return std::move(e);
  }
  llvm::stable_sort(out, [](const Violation &x, const Violation &y) {
    return std::tie(x.trace, x.line) < std::tie(y.trace, y.line);
  });
  // The excerpt of each violation: its record's line, read again from the
  // traces that have violations (sorted by trace and line: one pass each).
  for (size_t i = 0; i < out.size();) {
    std::ifstream in(out[i].trace);
    std::string text;
    unsigned line = 0;
    size_t j = i;
    for (; j < out.size() && out[j].trace == out[i].trace; ++j) {
      while (line < out[j].line && std::getline(in, text))
        ++line;
      if (line == out[j].line)
        out[j].record = StringRef(text).trim().str();
    }
    i = j;
  }
  return out;
}

} // namespace detc::invariants

//===- Infer.cpp - Inferring training invariants from traces --------------===//
//
// One streaming pass over the traces evaluates every hypothesis on its
// examples and keeps their precondition material (Examples.h); examples
// of the hypotheses that depend on the whole input (the APIs steps call,
// the values call attributes take) are aggregated while reading and
// evaluated at the end. A
// hypothesis needs 3 passing examples and a safe precondition to become
// an invariant.
//
//===----------------------------------------------------------------------===//

#include "Examples.h"
#include "TraceStream.h"

#include "llvm/ADT/StringExtras.h"

#include <array>
#include <fstream>

using namespace llvm;

namespace detc::invariants {

namespace {
constexpr unsigned kMinSupport = 3;
} // namespace

std::string Invariant::text() const {
  std::string s;
  if (relation == "APISequence")
    s = "APISequence(" + a + " before " + b + ")";
  else if (relation == "APIAttr")
    s = "APIAttr(" + a + "." + attr + " = " + value + ")";
  else if (relation == "ParamAttr")
    s = "ParamAttr(parameter." + attr + " = " + value + ")";
  else if (relation == "ParamUpdate")
    s = "ParamUpdate(a parameter with a gradient changes at each step)";
  else if (relation == "Consistent")
    s = "Consistent(a parameter's two records hold equal data)";
  else if (relation == "EpochConstant")
    s = "EpochConstant(the learning rates stay the same within an epoch)";
  else if (relation == "APIOutput" && attr == "range")
    s = "APIOutput(" + a + ": every element of the result is " + value + ")";
  else if (relation == "APIOutput")
    s = "APIOutput(" + a + ": every element of the result is finite)";
  else if (relation == "APIArg" && attr.empty())
    s = "APIArg(" + a +
        ": its first argument differs from the previous "
        "step's)";
  else if (relation == "APIArg")
    s = "APIArg(" + a + ": its first argument's " +
        (attr == "shape" ? "per-example shape" : attr) +
        " is the same as at its previous call)";
  else if (relation == "EventContain")
    s = "EventContain(" + a + " runs its module's " + b + " layers)";
  else if (relation == "TrainBeforeEval")
    s = "TrainBeforeEval(a module's first evaluation forward comes after a "
        "training forward of it)";
  else
    s = relation;
  for (size_t d = 0; d < precondition.size(); ++d) {
    s += d ? " or " : " if ";
    const Conjunction &c = precondition[d];
    bool group = precondition.size() > 1 && c.size() > 1;
    s += group ? "(" : "";
    for (size_t i = 0; i < c.size(); ++i)
      s += (i ? " and " : "") + clauseText(c[i]);
    s += group ? ")" : "";
  }
  return s;
}

/// Whether the traces hold several ranks' records, by their first record
/// (`meta`, with the process's rank); a trace without one counts as
/// another rank.
static bool severalRanks(ArrayRef<std::string> traces) {
  std::set<std::string> ranks;
  for (const std::string &t : traces) {
    std::string line = firstLine(t);
    StringRef text(line);
    size_t at = text.find("\"rank\":");
    if (!text.contains("\"meta\"") || at == StringRef::npos)
      return true;
    ranks.insert(
        text.drop_front(at + 7).ltrim().take_while(llvm::isDigit).str());
  }
  return ranks.size() > 1;
}

Expected<std::vector<Invariant>> infer(ArrayRef<std::string> traces,
                                       InferStats &stats) {
  // One streaming pass. Examples whose hypotheses depend on what the whole
  // input holds (APISequence needs every API a step calls, APIAttr every
  // value an attribute takes) are aggregated while reading — each distinct
  // step order and call (API and attributes) once, with a count — and
  // evaluated after it; the others are evaluated as they come.
  std::map<std::vector<std::string>, unsigned> stepOrders;
  std::map<std::pair<std::string, std::map<std::string, std::string>>, unsigned>
      callShapes;
  std::set<long> ranks;
  Hypothesis update, lrConstant, trainBeforeEval;
  std::map<std::string, Hypothesis> outputs, argsDistinct; // by API
  // API -> for each of outputBounds(), does the result stay within it
  // (APIOutput bounds); API -> whether some result's own elements spread
  // over half of [0, 1] or more.
  // Keyed by (API, the loss a model's result feeds: boundFeatures).
  std::map<std::pair<std::string, std::string>, std::array<Hypothesis, 3>>
      bounds;
  std::set<std::pair<std::string, std::string>> spread;
  // (API, layer class) -> does a forward of A run its layers of that class
  std::map<std::pair<std::string, std::string>, Hypothesis> contains;
  // (forward API, dtype | shape, same as the previous call's, the call's
  // attributes, the pair clause) -> how many calls (APIArg consistent).
  std::map<std::tuple<std::string, std::string, bool,
                      std::map<std::string, std::string>, std::string>,
           unsigned>
      inputShapes;
  Hypothesis consistent;
  ParamPairs pairs;
  // (requires_grad, in_optimizer, changed: set when the step should have
  // changed it and a previous record exists) -> parameter records.
  std::map<std::tuple<bool, bool, std::optional<bool>>, unsigned> paramShapes;
  // Pairs of records are only worth making when the traces come from
  // several ranks: their first records (`meta`) say which.
  bool pairRanks = severalRanks(traces);
  for (const std::string &t : traces) {
    ExampleSink sink;
    auto onStep = [&](const StepExample &s) { ++stepOrders[s.order]; };
    auto onCall = [&](const CallExample &c) { ++callShapes[{c.api, c.attrs}]; };
    auto onParam = [&](const ParamExample &p) {
      ranks.insert(p.at.rank);
      ++paramShapes[{p.requiresGrad, p.inOptimizer,
                     p.hasGrad ? p.changed : std::nullopt}];
      // Consistent is hypothesized only when several ranks' records are
      // given (below).
      if (pairRanks)
        pairs.add(p, [&](const ParamExample &q) {
          consistent.add(p.data == q.data,
                         allowedFeatures("Consistent", "", pairFeatures(p, q)));
        });
    };
    auto onLr = [&](const LrExample &l) {
      if (l.changedInEpoch)
        lrConstant.add(!*l.changedInEpoch, {});
    };
    auto onEval = [&](const EvalExample &e) {
      trainBeforeEval.add(e.trainedBefore, {});
    };
    auto onOutput = [&](const OutputExample &o) {
      Features f = callFeatures(o.call, "");
      outputs[o.call.api].add(o.finite, f);
      std::optional<Features> scoped = boundFeatures(o);
      if (!o.lo || !o.hi || !scoped)
        return;
      std::pair<std::string, std::string> key{o.call.api, o.feeds};
      std::array<Hypothesis, 3> &within = bounds[key];
      for (auto [i, bound] : llvm::enumerate(outputBounds()))
        within[i].add(withinBound(bound, *o.lo, *o.hi), *scoped);
      if (*o.hi - *o.lo >= 0.5)
        spread.insert(key);
    };
    auto onArg = [&](const ArgExample &a) {
      argsDistinct[a.call.api].add(!a.same, callFeatures(a.call, ""));
    };
    auto onContain = [&](const ContainExample &c) {
      Features f = callFeatures(c.call, "");
      for (const std::string &layer : c.held)
        contains[{c.call.api, layer}].add(c.called.count(layer) != 0, f);
    };
    auto onArgAttr = [&](const ArgAttrExample &x) {
      ++inputShapes[{x.call.api, "dtype", x.dtype == x.previousDtype,
                     x.call.attrs, x.pair}];
      ++inputShapes[{x.call.api, "shape", x.shape == x.previousShape,
                     x.call.attrs, x.pair}];
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
  // APISequence(A, B) over every pair of APIs some step calls: each
  // distinct step order is an example of each pair as often as it occurs.
  std::set<std::string> stepApis;
  for (auto &[order, n] : stepOrders)
    stepApis.insert(order.begin(), order.end());
  std::map<std::pair<std::string, std::string>, Hypothesis> sequences;
  for (auto &[order, n] : stepOrders) {
    StepExample s;
    s.order = order;
    const Features all = stepFeatures(s);
    for (size_t bi = 0; bi < order.size(); ++bi)
      for (const std::string &a : stepApis) {
        if (a == order[bi])
          continue;
        auto at = llvm::find(order, a);
        bool before = at != order.end() && size_t(at - order.begin()) < bi;
        Features f = allowedFeatures("APISequence", a, all);
        sequences[{a, order[bi]}].add(before, f, n);
      }
  }
  // ParamAttr and ParamUpdate over every parameter record.
  std::map<std::pair<std::string, std::string>, Hypothesis> paramAttrs;
  for (auto &[shape, n] : paramShapes) {
    auto [requiresGrad, inOptimizer, changed] = shape;
    std::string rg = requiresGrad ? "true" : "false";
    std::string io = inOptimizer ? "true" : "false";
    if (changed)
      update.add(*changed, {"in_optimizer=" + io, "requires_grad=" + rg}, n);
    const Features f = {"in_optimizer=" + io, "requires_grad=" + rg};
    for (const char *value : {"true", "false"}) {
      paramAttrs[{"requires_grad", value}].add(
          rg == value, allowedFeatures("ParamAttr", "requires_grad", f), n);
      paramAttrs[{"in_optimizer", value}].add(
          io == value, allowedFeatures("ParamAttr", "in_optimizer", f), n);
    }
  }
  // APIAttr(A.attr = v) for every value attr takes on A's calls.
  std::map<std::pair<std::string, std::string>, std::set<std::string>> values;
  for (auto &[shape, n] : callShapes)
    for (auto &[k, v] : shape.second)
      values[{shape.first, k}].insert(v);
  std::map<std::tuple<std::string, std::string, std::string>, Hypothesis> attrs;
  for (auto &[shape, n] : callShapes) {
    CallExample c;
    c.api = shape.first;
    c.attrs = shape.second;
    for (auto &[k, v] : c.attrs) {
      // train()/eval() set `training`: the mode they find is the one they
      // change, no property of the program (a script calling train() only
      // after an evaluation would forbid train() on a training module).
      if (k == "training" &&
          (c.api == "module.train" || c.api == "module.eval"))
        continue;
      const Features f = allowedFeatures("APIAttr", k, callFeatures(c, ""));
      for (const std::string &value : values[{c.api, k}])
        attrs[{c.api, k, value}].add(v == value, f, n);
    }
  }
  std::vector<Invariant> out;
  auto keep = [&](Invariant inv, const Hypothesis &h) {
    ++stats.hypotheses;
    std::optional<Precondition> pre = h.deduce();
    if (!pre || h.passing() < kMinSupport) {
      ++stats.dropped;
      return;
    }
    inv.precondition = std::move(*pre);
    inv.passing = h.passing();
    out.push_back(std::move(inv));
  };
  for (auto &[k, h] : sequences)
    keep({"APISequence", k.first, k.second}, h);
  for (auto &[k, h] : attrs) {
    Invariant inv{"APIAttr", std::get<0>(k)};
    inv.attr = std::get<1>(k);
    inv.value = std::get<2>(k);
    keep(inv, h);
  }
  for (auto &[api, h] : outputs)
    keep({"APIOutput", api}, h);
  for (auto &[key, within] : bounds)
    for (auto [i, bound] : llvm::enumerate(outputBounds())) {
      // [0, 1] only for results whose own elements spread over half of it
      // (probabilities, a sigmoid's outputs): a scalar such as a loss that
      // stayed below 1 in these runs would exceed it in others.
      if (bound == "in [0, 1]" && !spread.count(key))
        continue;
      Invariant inv{"APIOutput", key.first};
      inv.attr = "range";
      inv.value = bound.str();
      size_t before = out.size();
      keep(inv, within[i]);
      // A model's bound is about models that feed this loss, whatever the
      // examples' other clauses say: scoped by a clause of its own.
      if (out.size() > before && !key.second.empty()) {
        Precondition &pre = out.back().precondition;
        if (pre.empty())
          pre.emplace_back();
        for (Conjunction &c : pre)
          c.push_back({"feeds", key.second, ""});
      }
    }
  // ">= 0" says less than "in [0, 1]" under the same precondition.
  std::vector<std::pair<std::string, Precondition>> units;
  for (const Invariant &x : out)
    if (x.relation == "APIOutput" && x.value == "in [0, 1]")
      units.push_back({x.a, x.precondition});
  llvm::erase_if(out, [&](const Invariant &x) {
    return x.relation == "APIOutput" && x.value == ">= 0" &&
           llvm::is_contained(units, std::make_pair(x.a, x.precondition));
  });
  for (auto &[api, h] : argsDistinct)
    keep({"APIArg", api}, h);
  std::map<std::pair<std::string, std::string>, Hypothesis> argsConsistent;
  for (auto &[k, n] : inputShapes) {
    auto &[api, attr, same, attrs, pair] = k;
    CallExample c;
    c.attrs = attrs;
    Features f = callFeatures(c, "");
    f.insert(pair);
    argsConsistent[{api, attr}].add(same, f, n);
  }
  for (auto &[k, h] : argsConsistent) {
    Invariant inv{"APIArg", k.first};
    inv.attr = k.second;
    keep(inv, h);
  }
  for (auto &[k, h] : contains)
    keep({"EventContain", k.first, k.second}, h);
  keep({"ParamUpdate"}, update);
  keep({"EpochConstant"}, lrConstant);
  keep({"TrainBeforeEval"}, trainBeforeEval);
  for (auto &[k, h] : paramAttrs) {
    Invariant inv{"ParamAttr"};
    inv.attr = k.first;
    inv.value = k.second;
    keep(inv, h);
  }
  if (ranks.size() > 1)
    keep({"Consistent"}, consistent);
  return out;
}

json::Value toJSON(const std::vector<Invariant> &invs) {
  json::Array list;
  for (const Invariant &i : invs) {
    // One conjunction: a list of clauses; a disjunction: a list of them.
    auto clauses = [](const Conjunction &conj) {
      json::Array list;
      for (const Clause &c : conj)
        list.push_back(c.kind.empty()
                           ? json::Object{{"attr", c.attr}, {"value", c.value}}
                           : json::Object{{"attr", c.attr}, {"kind", c.kind}});
      return list;
    };
    json::Array pre;
    if (i.precondition.size() == 1)
      pre = clauses(i.precondition.front());
    else
      for (const Conjunction &conj : i.precondition)
        pre.push_back(clauses(conj));
    json::Object o{{"relation", i.relation}, {"text", i.text()},
                   {"precondition", std::move(pre)},
                   {"passing", i.passing}};
    if (!i.a.empty())
      o["a"] = i.a;
    if (!i.b.empty())
      o["b"] = i.b;
    if (!i.attr.empty()) {
      o["attr"] = i.attr;
      o["value"] = i.value;
    }
    list.push_back(std::move(o));
  }
  return json::Object{{"format", "detc-invariants"},
                      {"version", 1},
                      {"invariants", std::move(list)}};
}

Expected<std::vector<Invariant>> fromJSON(const json::Value &v) {
  auto bad = [](const Twine &why) {
    return createStringError(inconvertibleErrorCode(),
                             "not a detc invariants file: " + why.str());
  };
  const json::Object *o = v.getAsObject();
  if (!o || o->getString("format") != "detc-invariants")
    return bad("no \"format\": \"detc-invariants\"");
  if (o->getInteger("version") != 1)
    return bad("version is not 1");
  const json::Array *list = o->getArray("invariants");
  if (!list)
    return bad("no \"invariants\" list");
  std::vector<Invariant> out;
  for (const json::Value &e : *list) {
    const json::Object *io = e.getAsObject();
    if (!io || !io->getString("relation"))
      return bad("an invariant without \"relation\"");
    Invariant i;
    i.relation = io->getString("relation")->str();
    static const std::set<std::string> kRelations = {
        "APISequence", "APIAttr",       "ParamAttr",       "ParamUpdate",
        "Consistent",  "EpochConstant", "TrainBeforeEval", "APIOutput",
        "APIArg",      "EventContain"};
    if (!kRelations.count(i.relation))
      return bad("unknown relation '" + i.relation + "'");
    i.a = io->getString("a").value_or("").str();
    i.b = io->getString("b").value_or("").str();
    i.attr = io->getString("attr").value_or("").str();
    i.value = io->getString("value").value_or("").str();
    i.passing = io->getInteger("passing").value_or(0);
    auto conjunction = [](const json::Array &list) {
      Conjunction conj;
      for (const json::Value &c : list)
        if (const json::Object *co = c.getAsObject())
          conj.push_back({co->getString("attr").value_or("").str(),
                          co->getString("value").value_or("").str(),
                          co->getString("kind").value_or("").str()});
      return conj;
    };
    if (const json::Array *pre = io->getArray("precondition")) {
      for (const json::Value &d : *pre) {
        const json::Array *conj = d.getAsArray();
        for (const json::Value &c : conj ? *conj : json::Array{d})
          if (const json::Object *co = c.getAsObject())
            if (std::optional<StringRef> kind = co->getString("kind"))
              if (*kind != "CONSISTENT" && *kind != "UNEQUAL")
                return bad("unknown clause kind '" + *kind + "'");
      }
      if (!pre->empty() && (*pre)[0].getAsArray()) {
        for (const json::Value &d : *pre)
          if (const json::Array *list = d.getAsArray())
            i.precondition.push_back(conjunction(*list));
      } else if (!pre->empty()) {
        i.precondition.push_back(conjunction(*pre));
      }
    }
    out.push_back(std::move(i));
  }
  return out;
}

} // namespace detc::invariants

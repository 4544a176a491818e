//===- Infer.cpp - Inferring training invariants from traces --------------===//
//
// Two streaming passes over the traces: the first collects what
// hypotheses to make (the top-level APIs of training steps, the values
// each call attribute takes), the second evaluates every hypothesis on
// every example and keeps its precondition material (Examples.h). A
// hypothesis needs 3 passing examples and a safe precondition to become
// an invariant.
//
//===----------------------------------------------------------------------===//

#include "Examples.h"

#include "llvm/ADT/StringExtras.h"

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
  else if (relation == "APIOutput")
    s = "APIOutput(" + a + ": every element of the result is finite)";
  else if (relation == "APIArg")
    s = "APIArg(" + a +
        ": its first argument differs from the previous "
        "step's)";
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

Expected<std::vector<Invariant>> infer(ArrayRef<std::string> traces,
                                       InferStats &stats) {
  // Pass 1: what to hypothesize.
  std::set<std::string> stepApis;
  std::map<std::pair<std::string, std::string>, std::set<std::string>> values;
  std::set<long> ranks;
  InferStats first;
  for (const std::string &t : traces) {
    ExampleSink sink;
    auto onStep = [&](const StepExample &s) {
      stepApis.insert(s.order.begin(), s.order.end());
    };
    auto onCall = [&](const CallExample &c) {
      for (auto &[k, v] : c.attrs)
        values[{c.api, k}].insert(v);
    };
    auto onParam = [&](const ParamExample &p) { ranks.insert(p.at.rank); };
    sink.step = onStep;
    sink.call = onCall;
    sink.param = onParam;
    if (Error e = walkTrace(t, sink, first))
      return std::move(e);
  }
  // Pass 2: evaluate.
  std::map<std::pair<std::string, std::string>, Hypothesis> sequences;
  std::map<std::tuple<std::string, std::string, std::string>, Hypothesis>
      attrs;
  Hypothesis update, lrConstant, trainBeforeEval;
  std::map<std::string, Hypothesis> outputs, argsDistinct; // by API
  // (API, layer class) -> does a forward of A run its layers of that class
  std::map<std::pair<std::string, std::string>, Hypothesis> contains;
  std::map<std::pair<std::string, std::string>, Hypothesis> paramAttrs;
  Hypothesis consistent;
  ParamPairs pairs;
  for (const std::string &t : traces) {
    ExampleSink sink;
    auto onStep = [&](const StepExample &s) {
      for (size_t bi = 0; bi < s.order.size(); ++bi)
        for (const std::string &a : stepApis) {
          if (a == s.order[bi])
            continue;
          auto at = llvm::find(s.order, a);
          bool before = at != s.order.end() &&
                        size_t(at - s.order.begin()) < bi;
          Features f = stepFeatures(s);
          f.erase("calls=" + a);
          sequences[{a, s.order[bi]}].add(before, f);
        }
    };
    auto onCall = [&](const CallExample &c) {
      for (auto &[k, v] : c.attrs)
        for (const std::string &value : values[{c.api, k}])
          attrs[{c.api, k, value}].add(v == value, callFeatures(c, k));
    };
    auto onParam = [&](const ParamExample &p) {
      if (p.hasGrad && p.changed)
        update.add(*p.changed,
                   {std::string("in_optimizer=") +
                        (p.inOptimizer ? "true" : "false"),
                    std::string("requires_grad=") +
                        (p.requiresGrad ? "true" : "false")});
      std::map<std::string, std::string> a = {
          {"requires_grad", p.requiresGrad ? "true" : "false"},
          {"in_optimizer", p.inOptimizer ? "true" : "false"}};
      for (auto &[k, v] : a)
        for (const char *value : {"true", "false"}) {
          Features f;
          for (auto &[k2, v2] : a)
            if (k2 != k)
              f.insert(k2 + "=" + v2);
          paramAttrs[{k, value}].add(v == value, f);
        }
      if (ranks.size() > 1)
        pairs.add(p, [&](const ParamExample &q) {
          consistent.add(p.data == q.data, pairFeatures(p.at, q.at));
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
      outputs[o.call.api].add(o.finite, callFeatures(o.call, ""));
    };
    auto onArg = [&](const ArgExample &a) {
      argsDistinct[a.call.api].add(!a.same, callFeatures(a.call, ""));
    };
    auto onContain = [&](const ContainExample &c) {
      Features f = callFeatures(c.call, "");
      for (const std::string &layer : c.held)
        contains[{c.call.api, layer}].add(c.called.count(layer) != 0, f);
    };
    sink.step = onStep;
    sink.call = onCall;
    sink.param = onParam;
    sink.contain = onContain;
    sink.lr = onLr;
    sink.eval = onEval;
    sink.output = onOutput;
    sink.arg = onArg;
    if (Error e = walkTrace(t, sink, stats))
      return std::move(e);
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
  for (auto &[api, h] : argsDistinct)
    keep({"APIArg", api}, h);
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

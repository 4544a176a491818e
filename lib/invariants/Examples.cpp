//===- Examples.cpp - What traces say about each hypothesis ---------------===//

#include "Examples.h"
#include "TraceStream.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace detc::invariants {

std::string clauseText(const Clause &c) {
  if (!c.kind.empty())
    return c.kind + "(" + c.attr + ")";
  return c.attr + "=" + c.value;
}

static Clause parseClause(StringRef text) {
  for (StringRef kind : {"CONSISTENT", "UNEQUAL"})
    if (text.consume_front(kind) && text.consume_front("(") &&
        text.consume_back(")"))
      return {text.str(), "", kind.str()};
  auto [a, v] = text.split('=');
  return {a.str(), v.str(), ""};
}

Features pairFeatures(const ParamExample &p, const ParamExample &q) {
  Features f;
  auto add = [&](StringRef attr, const auto &a, const auto &b) {
    f.insert((a == b ? "CONSISTENT(" : "UNEQUAL(") + attr.str() + ")");
  };
  add("step", p.at.step, q.at.step);
  add("rank", p.at.rank, q.at.rank);
  add("epoch", p.at.epoch, q.at.epoch);
  add("grad", p.grad, q.grad);
  // CONSTANT clauses: the attribute has this value in both records.
  auto constant = [&](StringRef attr, bool a, bool b) {
    if (a == b)
      f.insert(attr.str() + (a ? "=true" : "=false"));
  };
  constant("requires_grad", p.requiresGrad, q.requiresGrad);
  constant("in_optimizer", p.inOptimizer, q.inOptimizer);
  return f;
}

StringRef clauseAttr(StringRef clause) {
  if (clause.consume_back(")")) // KIND(attr)
    return clause.split('(').second;
  return clause.split('=').first;
}

bool forbiddenClause(StringRef relation, StringRef asserted, StringRef clause) {
  // TrainCheck's per-relation forbidden conditions (OSDI'25 §3.6): clauses
  // that are true of a relation's passing examples because the relation
  // holds — a precondition made of them is safe but shallow: it says
  // nothing about when the invariant applies, and a violation falsifies
  // it too, so the check never fires.
  StringRef attr = clauseAttr(clause);
  if (relation == "APISequence") // "A before B" if the step calls A
    return clause == ("calls=" + asserted).str();
  if (relation == "APIAttr" || relation == "ParamAttr") // attr = v if attr = v
    return attr == asserted;
  if (relation == "Consistent") // a tensor's other tensor attributes: equal
    return attr == "grad" || attr == "data"; // data comes with equal grads
  return false;
}

Features allowedFeatures(StringRef relation, StringRef asserted, Features f) {
  for (auto it = f.begin(); it != f.end();)
    it = forbiddenClause(relation, asserted, *it) ? f.erase(it) : std::next(it);
  return f;
}

void ParamPairs::add(const ParamExample &p,
                     function_ref<void(const ParamExample &)> with) {
  // The same parameter on other ranks at this step and at the previous
  // one, and on this rank at its previous step: the pairs whose clauses
  // tell "same step on another rank" from "another step".
  auto &bySteps = byStep[{p.at.job.str(), p.id}];
  for (long s : {p.at.step, p.at.step - 1}) {
    auto it = bySteps.find(s);
    if (it == bySteps.end())
      continue;
    for (const ParamExample &q : it->second)
      if (q.at.rank != p.at.rank || s == p.at.step - 1)
        with(q);
  }
  std::vector<ParamExample> &mine = bySteps[p.at.step];
  llvm::erase_if(mine, [&](const ParamExample &q) {
    return q.at.rank == p.at.rank; // a rank's latest record of the step
  });
  mine.push_back(p);
}

ArrayRef<StringRef> outputBounds() {
  static const StringRef kBounds[] = {">= 0", "<= 0", "in [0, 1]"};
  return kBounds;
}

bool withinBound(StringRef bound, double lo, double hi) {
  if (bound == ">= 0")
    return lo >= 0;
  if (bound == "<= 0")
    return hi <= 0;
  return lo >= 0 && hi <= 1; // "in [0, 1]"
}

std::string boundViolation(StringRef bound, double lo, double hi) {
  if (withinBound(bound, lo, hi))
    return "";
  // Numbers as "%.6g" prints them, which the online verifier's text
  // (invariant_check.py bound_violation) matches number for number.
  std::string s;
  raw_string_ostream os(s);
  if (bound == ">= 0")
    os << "returned a result with an element below 0 (least "
       << format("%.6g", lo) << ")";
  else if (bound == "<= 0")
    os << "returned a result with an element above 0 (greatest "
       << format("%.6g", hi) << ")";
  else
    os << "returned a result with an element outside [0, 1] (least "
       << format("%.6g", lo) << ", greatest " << format("%.6g", hi) << ")";
  return s;
}

bool satisfies(const Features &f, const Conjunction &pre) {
  for (const Clause &c : pre)
    if (!f.count(clauseText(c)))
      return false;
  return true;
}

bool satisfies(const Features &f, const Precondition &pre) {
  if (pre.empty())
    return true;
  for (const Conjunction &c : pre)
    if (satisfies(f, c))
      return true;
  return false;
}

Features stepFeatures(const StepExample &s) {
  Features f;
  for (const std::string &api : s.order)
    f.insert("calls=" + api); // EXIST clauses
  return f;
}

std::optional<Features> boundFeatures(const OutputExample &o) {
  Features f = callFeatures(o.call, "");
  if (o.call.api != "forward:model")
    return f;
  if (o.feeds.empty())
    return std::nullopt;
  f.insert("feeds=" + o.feeds);
  return f;
}

Features callFeatures(const CallExample &c, StringRef except) {
  Features f;
  for (auto &[k, v] : c.attrs)
    if (k != except)
      f.insert(k + "=" + v);
  return f;
}

// Bounds on what a hypothesis keeps of its examples (distinct feature
// sets) and on the disjunction deduced from them.
constexpr size_t kMaxSets = 4096;
constexpr size_t kMaxDisjuncts = 4;
constexpr unsigned kMinGroup = 3;

void Hypothesis::add(bool ok, const Features &f, unsigned count) {
  if (ok) {
    pass += count;
    if (auto it = passingSets.find(f); it != passingSets.end())
      it->second += count;
    else if (passingSets.size() < kMaxSets)
      passingSets.emplace(f, count);
    if (!common) {
      common = f;
    } else if (!llvm::all_of(*common, [&](const std::string &c) {
                 return f.count(c) != 0;
               })) {
      // Examples repeat their features: the intersection is rebuilt only
      // when this one lacks some of it.
      Features kept;
      for (const std::string &c : *common)
        if (f.count(c))
          kept.insert(c);
      common = std::move(kept);
    }
    return;
  }
  fail += count;
  if (failing.size() < kMaxSets)
    failing.insert(f);
}

bool Hypothesis::safe(const Features &pre) const {
  if (pre.empty())
    return false;
  for (const Features &f : failing) {
    bool all = true;
    for (const std::string &c : pre)
      all &= f.count(c) != 0;
    if (all)
      return false; // this failing example satisfies the precondition
  }
  return true;
}

Conjunction Hypothesis::prune(Features pre) const {
  // Drop the clauses safety does not need.
  for (auto it = pre.begin(); it != pre.end();) {
    Features without = pre;
    without.erase(*it);
    if (safe(without))
      it = pre.erase(it);
    else
      ++it;
  }
  Conjunction out;
  for (const std::string &c : pre)
    out.push_back(parseClause(c));
  return out;
}

std::optional<Precondition> Hypothesis::deduce() const {
  if (fail == 0)
    return Precondition();
  if (common && safe(*common))
    return Precondition{prune(*common)};
  // Disjunctive splitting: the passing examples do not share a safe
  // conjunction. Greedily take the clause whose examples' common clauses
  // are safe and cover the most remaining passing examples; repeat on the
  // rest. Passing examples no safe group covers are not asserted on.
  std::map<Features, unsigned> rest = passingSets;
  Precondition out;
  while (!rest.empty() && out.size() < kMaxDisjuncts) {
    std::set<std::string> candidates;
    for (auto &[f, n] : rest)
      candidates.insert(f.begin(), f.end());
    std::optional<Features> best;
    unsigned bestCount = 0;
    for (const std::string &c : candidates) {
      std::optional<Features> group;
      unsigned count = 0;
      for (auto &[f, n] : rest) {
        if (!f.count(c))
          continue;
        count += n;
        if (!group) {
          group = f;
          continue;
        }
        Features kept;
        for (const std::string &x : *group)
          if (f.count(x))
            kept.insert(x);
        group = std::move(kept);
      }
      if (group && count > bestCount && count >= kMinGroup && safe(*group)) {
        best = group;
        bestCount = count;
      }
    }
    if (!best)
      break;
    for (auto it = rest.begin(); it != rest.end();) {
      bool covered = true;
      for (const std::string &c : *best)
        covered &= it->first.count(c) != 0;
      it = covered ? rest.erase(it) : std::next(it);
    }
    out.push_back(prune(*best));
  }
  if (out.empty())
    return std::nullopt;
  return out;
}

Error walkTrace(const std::string &path, const ExampleSink &sink,
                InferStats &stats) {
  ++stats.traces;
  StepExample current;
  bool inStep = false;
  unsigned depth = 0;
  std::map<std::string, std::string> previous; // parameter -> data hash
  std::optional<std::pair<long, std::string>> lastLrs; // (epoch, lrs)
  std::set<std::string> trained, evaluated; // modules (TrainBeforeEval)
  // API -> (step, hash of the first argument) of its first top-level call
  // in that step (APIArg).
  std::map<std::string, std::pair<long, std::string>> firstArgs;
  // (forward API, module) -> its previous top-level call's input (APIArg
  // consistent): per module, since `forward:model` names a GAN's generator
  // and its discriminator alike.
  struct ArgInput {
    std::string dtype, shape, training;
  };
  std::map<std::string, ArgInput> lastInputs;
  // The open top-level forward whose module's layers are known
  // (EventContain): closed by its exit at depth 0.
  std::optional<ContainExample> span;
  auto endStep = [&] {
    if (inStep && sink.step)
      sink.step(current);
    inStep = false;
  };
  const StringRef job = sys::path::parent_path(path);
  auto whereOf = [&](const Record &o, unsigned line) {
    Where w;
    w.trace = path;
    w.job = job;
    w.line = line;
    w.epoch = o.integer("epoch").value_or(-1);
    w.step = o.integer("step").value_or(-1);
    w.rank = o.integer("rank").value_or(0);
    return w;
  };
  auto callOf = [&](const Record &o, unsigned line, StringRef api) {
    CallExample c;
    c.at = whereOf(o, line);
    c.api = api.str();
    for (StringRef key : {"training", "grad_enabled"}) {
      std::string v = o.scalar(key);
      if (!v.empty() && v != "null")
        c.attrs[key.str()] = v;
    }
    return c;
  };
  Error e = forEachRecord(path, [&](const Record &o, unsigned line) {
    ++stats.records;
    // Context records (a batch's fetch, the script's own functions) are
    // for reading a trace; no relation reads them, and they nest nothing.
    if (o.boolean("context").value_or(false))
      return;
    StringRef kind = o.str("kind").value_or("");
    if (kind == "step") {
      endStep();
      ++stats.steps;
      current = StepExample();
      current.at = whereOf(o, line);
      inStep = true;
      depth = 0;
      return;
    }
    if (kind == "enter") {
      std::string api = o.str("api").value_or("").str();
      if (inStep && depth == 0 && !is_contained(current.order, api)) {
        current.order.push_back(api);
        std::optional<simdjson::dom::array> args = o.array("args");
        std::optional<Record> arg0 =
            args && args->size() ? Record::of(args->at(0).value_unsafe())
                                 : std::nullopt;
        std::optional<StringRef> hash = arg0 ? arg0->str("hash") : std::nullopt;
        if (hash) {
          auto [it, added] = firstArgs.try_emplace(api);
          if (!added && it->second.first == current.at.step - 1 && sink.arg)
            sink.arg({callOf(o, line, api), it->second.second == *hash});
          it->second = {current.at.step, hash->str()};
        }
      }
      if (depth == 0 && StringRef(api).starts_with("forward:") &&
          sink.argAttr) {
        // APIArg consistent: the model input's dtype and per-example shape
        // against the previous top-level call's.
        std::optional<simdjson::dom::array> args = o.array("args");
        std::optional<Record> arg0 =
            args && args->size() ? Record::of(args->at(0).value_unsafe())
                                 : std::nullopt;
        std::optional<StringRef> dtype =
            arg0 ? arg0->str("dtype") : std::nullopt;
        std::optional<simdjson::dom::array> shape =
            arg0 ? arg0->array("shape") : std::nullopt;
        if (dtype && shape) {
          std::string tail = "[";
          size_t i = 0;
          for (simdjson::dom::element d : *shape) {
            int64_t n = 0;
            if (i++ && !d.get_int64().get(n))
              tail += (tail.size() > 1 ? "," : "") + std::to_string(n);
          }
          tail += "]";
          ArgInput now{dtype->str(), tail, o.scalar("training")};
          auto [it, added] =
              lastInputs.try_emplace(api + "\x1f" + o.scalar("module"), now);
          if (!added) {
            sink.argAttr({callOf(o, line, api), now.dtype, it->second.dtype,
                          now.shape, it->second.shape,
                          now.training == it->second.training
                              ? "CONSISTENT(training)"
                              : "UNEQUAL(training)"});
            it->second = std::move(now);
          }
        }
      }
      std::string module = o.scalar("module");
      if (depth == 0 && !module.empty() && module != "null") {
        std::string training = o.scalar("training");
        if (training == "true") {
          trained.insert(module);
        } else if (training == "false" && evaluated.insert(module).second &&
                   sink.eval) {
          EvalExample ev;
          ev.at = whereOf(o, line);
          ev.module = module;
          ev.api = api;
          ev.trainedBefore = trained.count(module) != 0;
          sink.eval(ev);
        }
      }
      if (depth == 0) {
        span.reset();
        if (std::optional<simdjson::dom::array> layers = o.array("layers")) {
          span.emplace();
          span->call = callOf(o, line, api);
          for (simdjson::dom::element l : *layers) {
            std::string_view name;
            if (!l.get_string().get(name))
              span->held.insert(std::string(name));
          }
        }
      } else if (span) {
        if (std::optional<StringRef> layer = o.str("layer"))
          span->called.insert(layer->str());
      }
      ++depth;
      if (sink.call)
        sink.call(callOf(o, line, api));
      return;
    }
    if (kind == "exit") {
      if (depth)
        --depth;
      if (depth == 0 && span) {
        // An exit by an exception ("error") ends the forward early: the
        // layers after the failure never ran, and that is no example.
        if (!o.has("error") && sink.contain)
          sink.contain(*span);
        span.reset();
      }
      // Top-level calls only: a NaN inside the model reaches its output,
      // and nested layers' descriptors are the model's own.
      std::optional<Record> result = o.object("result");
      std::optional<bool> finite =
          result && depth == 0 ? result->boolean("finite") : std::nullopt;
      if (finite && sink.output) {
        OutputExample ex{callOf(o, line, o.str("api").value_or("")), *finite};
        ex.feeds = o.str("feeds").value_or("").str();
        if (*finite) {
          ex.lo = result->number("min");
          ex.hi = result->number("max");
        }
        sink.output(ex);
      }
      return;
    }
    if (kind == "state" && sink.lr) {
      if (std::string text = o.text("lrs"); !text.empty()) {
        LrExample ex;
        ex.at = whereOf(o, line);
        if (lastLrs && lastLrs->first == ex.at.epoch)
          ex.changedInEpoch = lastLrs->second != text;
        lastLrs = std::make_pair(ex.at.epoch, text);
        sink.lr(ex);
      }
    }
    if (kind == "state" && sink.param) {
      std::optional<simdjson::dom::array> params = o.array("params");
      if (!params)
        return;
      for (simdjson::dom::element pv : *params) {
        std::optional<Record> p = Record::of(pv);
        if (!p)
          continue;
        ParamExample ex;
        ex.at = whereOf(o, line);
        ex.name = p->str("name").value_or("").str();
        ex.id = p->str("id").value_or(ex.name).str();
        ex.data = p->str("data").value_or("").str();
        ex.grad = p->str("grad").value_or("").str();
        // A gradient too small for the step to change the parameter (a
        // bias before a BatchNorm gets 1e-10) does not count.
        ex.hasGrad = p->str("grad").has_value() &&
                     p->boolean("update_expected").value_or(true);
        ex.requiresGrad = p->boolean("requires_grad").value_or(false);
        ex.inOptimizer = p->boolean("in_optimizer").value_or(true);
        auto it = previous.find(ex.id);
        if (it != previous.end())
          ex.changed = it->second != ex.data;
        previous[ex.id] = ex.data;
        sink.param(ex);
      }
    }
  });
  endStep();
  return e;
}

} // namespace detc::invariants

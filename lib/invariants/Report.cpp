//===- Report.cpp - Reports of invariant violations -----------------------===//
//
// `detc check` prints its violations as text, JSON or SARIF 2.1.0 (for
// code-scanning services, as `detc analyze --format=sarif` does): one SARIF
// result per violation, located at the trace line of the record that
// violates it, under a rule per relation.
//
//===----------------------------------------------------------------------===//

#include "detc/invariants/Invariants.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <tuple>
#include <set>

using namespace llvm;

namespace detc::invariants {

namespace {
/// What each relation asserts, for SARIF's rule descriptions.
StringRef relationSummary(StringRef relation) {
  return StringSwitch<StringRef>(relation)
      .Case("APISequence", "an API is called before another in each step")
      .Case("APIAttr", "an API is called with an attribute at a value")
      .Case("ParamAttr", "every parameter has an attribute at a value")
      .Case("ParamUpdate", "a parameter with a gradient changes at each step")
      .Case("Consistent", "a parameter's records hold equal data")
      .Case("EpochConstant", "the learning rates stay the same in an epoch")
      .Case("TrainBeforeEval",
            "a module is trained before its first evaluation forward")
      .Case("APIOutput", "an API's result is finite, or within a bound")
      .Case("APIArg", "an API's first argument is new at each step, or "
                      "keeps its dtype and per-example shape")
      .Case("EventContain", "a forward runs its module's layers of a class")
      .Default("a training invariant");
}

std::string ruleId(StringRef relation) {
  return "detc-invariant-" + relation.str();
}
} // namespace

void printViolations(raw_ostream &os, const std::vector<Violation> &found,
                     size_t invariants, const InferStats &stats) {
  // A bug that breaks an invariant the same way at every step is one
  // report: the first violation in full, then how often and until when it
  // recurs in that trace (JSON and SARIF keep every violation).
  std::vector<std::vector<const Violation *>> groups;
  std::map<std::tuple<const Invariant *, StringRef, StringRef>, size_t>
      groupOf;
  for (const Violation &v : found) {
    auto [it, fresh] = groupOf.try_emplace(
        std::make_tuple(v.invariant, StringRef(v.trace), StringRef(v.detail)),
        groups.size());
    if (fresh)
      groups.emplace_back();
    groups[it->second].push_back(&v);
  }
  for (const std::vector<const Violation *> &g : groups) {
    const Violation &v = *g.front();
    os << v.trace << ":" << v.line << ": violation: " << v.detail << " (epoch "
       << v.epoch << ", step " << v.step << ")\n"
       << "  invariant: " << v.invariant->text() << "\n"
       << "  record: " << StringRef(v.record).take_front(400) << "\n";
    if (g.size() > 1)
      os << "  and " << g.size() - 1
         << " more time(s) in this trace, the last at epoch "
         << g.back()->epoch << ", step " << g.back()->step << " (line "
         << g.back()->line << ")\n";
  }
  os << found.size() << " violation(s) of " << invariants
     << " invariant(s) in " << stats.traces << " trace(s)";
  if (groups.size() < found.size())
    os << ", " << groups.size() << " distinct";
  os << "\n";
}

json::Value violationsJSON(const std::vector<Violation> &found) {
  json::Array list;
  for (const Violation &v : found)
    list.push_back(json::Object{{"invariant", v.invariant->text()},
                                {"trace", v.trace},
                                {"line", v.line},
                                {"epoch", v.epoch},
                                {"step", v.step},
                                {"detail", v.detail},
                                {"record", v.record}});
  return json::Object{{"violations", std::move(list)}};
}

json::Object violationsSARIF(const std::vector<Violation> &found,
                            const std::vector<Invariant> &invs) {
  std::set<std::string> relations;
  for (const Invariant &i : invs)
    relations.insert(i.relation);
  json::Array rules;
  for (const std::string &r : relations)
    rules.push_back(json::Object{
        {"id", ruleId(r)},
        {"name", r},
        {"shortDescription", json::Object{{"text", relationSummary(r)}}}});
  json::Array results;
  for (const Violation &v : found) {
    json::Object region{{"startLine", v.line}};
    results.push_back(json::Object{
        {"ruleId", ruleId(v.invariant->relation)},
        {"level", "error"},
        {"message", json::Object{{"text", formatv("{0} (epoch {1}, step {2}); "
                                                  "invariant: {3}",
                                                  v.detail, v.epoch, v.step,
                                                  v.invariant->text())
                                              .str()}}},
        {"locations",
         json::Array{json::Object{
             {"physicalLocation",
              json::Object{{"artifactLocation", json::Object{{"uri", v.trace}}},
                           {"region", std::move(region)}}}}}},
        {"properties", json::Object{{"invariant", v.invariant->text()},
                                    {"epoch", v.epoch},
                                    {"step", v.step},
                                    {"record", v.record}}}});
  }
  json::Object run{
      {"tool", json::Object{{"driver", json::Object{{"name", "detc check"},
                                                    {"rules",
                                                     std::move(rules)}}}}},
      {"results", std::move(results)}};
  return json::Object{
      {"version", "2.1.0"},
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"runs", json::Array{std::move(run)}}};
}

} // namespace detc::invariants

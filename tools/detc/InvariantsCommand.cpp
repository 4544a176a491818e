//===- InvariantsCommand.cpp - `detc infer` and `detc check` --------------===//
//
// Thin drivers over lib/invariants (docs/traincheck.md): argument handling,
// reading and writing files, reports.
//
//===----------------------------------------------------------------------===//

#include "InvariantsCommand.h"

#include "detc/base/BoundedJSON.h"
#include "detc/base/FileIO.h"
#include "ReportWriters.h"
#include "detc/invariants/Invariants.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/WithColor.h"

#include <chrono>

using namespace llvm;
using namespace detc;

cl::SubCommand detc::tool::inferCommand(
    "infer", "Infer training invariants from `detc transform --trace` traces");
cl::SubCommand detc::tool::checkCommand(
    "check", "Check training invariants on traces (offline)");

namespace {
cl::list<std::string> inferTraces(cl::Positional, cl::OneOrMore,
                                  cl::desc("<trace.jsonl>..."),
                                  cl::sub(tool::inferCommand));
cl::opt<std::string> inferOut("o", cl::desc("Invariants file to write"),
                              cl::value_desc("invariants.json"),
                              cl::Required, cl::sub(tool::inferCommand));
cl::list<std::string> checkTraces(cl::Positional, cl::OneOrMore,
                                  cl::desc("<trace.jsonl>..."),
                                  cl::sub(tool::checkCommand));
cl::opt<std::string> checkInvariants("invariants", cl::Required,
                                     cl::desc("Invariants from detc infer"),
                                     cl::value_desc("invariants.json"),
                                     cl::sub(tool::checkCommand));
cl::opt<std::string> checkFormat("format", cl::init("text"),
                                 cl::desc("Report format: text, json or sarif"),
                                 cl::sub(tool::checkCommand));
cl::opt<bool> checkWerror("werror",
                          cl::desc("Exit with status 1 on violations"),
                          cl::sub(tool::checkCommand));
} // namespace

static void fail(const Twine &message) {
  WithColor::error(errs(), "detc") << message << "\n";
}

int detc::tool::runInfer() {
  invariants::InferStats stats;
  auto start = std::chrono::steady_clock::now();
  Expected<std::vector<invariants::Invariant>> invs =
      invariants::infer(inferTraces, stats);
  if (!invs) {
    fail(toString(invs.takeError()));
    return 2;
  }
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  std::string text;
  raw_string_ostream os(text);
  os << formatv("{0:2}", invariants::toJSON(*invs)) << "\n";
  os.flush();
  if (Error e = base::writeOutputFile(inferOut, text, inferTraces)) {
    fail("cannot write '" + inferOut + "': " + toString(std::move(e)));
    return 2;
  }
  errs() << formatv("detc infer: {0} trace(s), {1} record(s), {2} step(s): "
                    "{3} hypotheses, {4} invariant(s), {5} dropped "
                    "(superficial or too little support) in {6:f4} s\n",
                    stats.traces, stats.records, stats.steps, stats.hypotheses,
                    invs->size(), stats.dropped, seconds);
  return 0;
}

int detc::tool::runCheck() {
  Expected<std::string> text = base::readInputFile(checkInvariants);
  if (!text) {
    fail(checkInvariants + ": " + toString(text.takeError()));
    return 2;
  }
  Expected<json::Value> parsed = base::parseBoundedJSON(*text);
  if (!parsed) {
    fail(checkInvariants + ": " + toString(parsed.takeError()));
    return 2;
  }
  Expected<std::vector<invariants::Invariant>> invs =
      invariants::fromJSON(*parsed);
  if (!invs) {
    fail(checkInvariants + ": " + toString(invs.takeError()));
    return 2;
  }
  if (checkFormat != "text" && checkFormat != "json" &&
      checkFormat != "sarif") {
    fail("--format must be text, json or sarif");
    return 2;
  }
  invariants::InferStats stats;
  Expected<std::vector<invariants::Violation>> found =
      invariants::check(checkTraces, *invs, stats);
  if (!found) {
    fail(toString(found.takeError()));
    return 2;
  }
  // Checking nothing is not a pass: an empty or truncated trace (or a
  // wrong file) says so instead of exiting 0.
  if (stats.records == 0) {
    fail("no trace records in the " + Twine(checkTraces.size()) +
         " file(s) given: nothing was checked (an empty trace, or not a "
         "trace?)");
    return 2;
  }
  int status = found->empty() || !checkWerror ? 0 : 1;
  if (checkFormat == "json") {
    outs() << formatv("{0:2}", invariants::violationsJSON(*found)) << "\n";
  } else if (checkFormat == "sarif") {
    json::Object log = invariants::violationsSARIF(*found, *invs);
    stampSarif(log, status);
    outs() << formatv("{0:2}", json::Value(std::move(log))) << "\n";
  } else {
    invariants::printViolations(outs(), *found, invs->size(), stats);
  }
  return status;
}

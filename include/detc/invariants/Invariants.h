//===- Invariants.h - Training invariants from traces -----------*- C++ -*-===//
//
// SPEC §9, issue 21, docs/traincheck.md. `detc infer` reads the JSON-lines
// traces `detc transform --trace` writes (runtime/.../trace.py, format
// version 1) as streams — one record at a time, per-step state only — and
// infers invariants of these relations, each a hypothesis checked against
// examples with a deduced precondition:
//  * APISequence(A, B): in a training step that calls B, A is called before
//    the first B (zero_grad before backward, backward before step);
//  * APIAttr(A, attr = v): every call of A has attribute `attr` (the
//    module's `training` flag, `grad_enabled`) equal to v, under a
//    precondition of CONSTANT clauses on the call's other attributes
//    (e.g. `training = false | grad_enabled = false`: a forward without
//    gradients is an evaluation forward);
//  * ParamUpdate(p): a parameter whose gradient is set at an optimizer
//    step has changed since the previous step (an optimizer over the wrong
//    parameters, a frozen model, a zero learning rate);
//  * Consistent: two records of a parameter hold the same data, under a
//    precondition of CONSISTENT and UNEQUAL clauses on the pair (deduced:
//    `if CONSISTENT(step)`, i.e. on every rank at the same step —
//    data-parallel replicas that drift apart).
//  * TrainBeforeEval: a module's first evaluation forward comes after a
//    training forward of it (SpectralNorm needs one to initialize).
//  * APIOutput(A): every element of A's result is finite (a NaN or an
//    infinity from bad data or a diverging model); APIOutput(A, bound)
//    (`attr` "range", `value` the bound): every element is >= 0, <= 0 or
//    in [0, 1] (a log_softmax dropped before nll_loss);
//  * APIArg(A): the first argument of A's first call in a training step
//    differs from the previous step's (a model trained on one batch);
//    APIArg consistent (A, dtype | shape): a forward's input has the dtype
//    and per-example shape of its previous call (`attr` names which);
//  * EventContain(A, L): a top-level forward A of a module holding layers
//    of class L runs one of them (a Dropout defined and never applied).
// Each relation forbids the clauses that are artifacts of the relation
// itself (Consistent may not use the gradient's clauses: equal data comes
// with equal gradients), so deduction cannot stop at a shallow one.
// A hypothesis with failing examples keeps the conjunction of clauses true
// on all passing examples if it is false on every failing one (safe); when
// it is not, the passing examples are split by the clause that covers the
// most of them with a safe conjunction, into a disjunction of safe
// conjunctions (at most 4, each supported by 3 examples); a hypothesis
// with no safe precondition is dropped (superficial). `detc check` evaluates
// invariants on traces offline and reports each violation with its step and
// record.
//
// No MLIR: this library stands alone, like the scheduler.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_INVARIANTS_INVARIANTS_H
#define DETC_INVARIANTS_INVARIANTS_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <vector>

namespace detc::invariants {

/// A precondition clause. `kind` empty: a CONSTANT clause, attribute ==
/// value (a JSON scalar as text; EXIST clauses are CONSTANT clauses on
/// `calls`). `kind` "CONSISTENT" or "UNEQUAL": a clause on a pair of
/// records (Consistent's examples), true when the two have the same /
/// different values of attribute `attr` (`step`, `rank`, `epoch`).
struct Clause {
  std::string attr, value, kind;
  bool operator==(const Clause &o) const {
    return attr == o.attr && value == o.value && kind == o.kind;
  }
};

/// A conjunction of clauses.
using Conjunction = std::vector<Clause>;
/// A precondition in disjunctive normal form: satisfied when one of its
/// conjunctions is; empty: always (no example failed).
using Precondition = std::vector<Conjunction>;

struct Invariant {
  std::string relation; ///< APISequence, APIAttr, ParamUpdate, Consistent,
                        ///< ParamAttr, EpochConstant, TrainBeforeEval,
                        ///< APIOutput, APIArg, EventContain
  std::string a, b;     ///< APIs (APISequence), API (APIAttr); API and
                        ///< layer class (EventContain)
  std::string attr, value;       ///< APIAttr; APIArg consistent: attr
  Precondition precondition;     ///< empty: always
  unsigned passing = 0;          ///< examples that support it
  std::string text() const;      ///< one line, for reports
};

struct InferStats {
  unsigned records = 0, steps = 0, traces = 0;
  unsigned hypotheses = 0, dropped = 0;
};

/// Infers invariants from `traces` (paths of JSON-lines files). Errors name
/// the file and line.
llvm::Expected<std::vector<Invariant>>
infer(llvm::ArrayRef<std::string> traces, InferStats &stats);

llvm::json::Value toJSON(const std::vector<Invariant> &invs);
llvm::Expected<std::vector<Invariant>> fromJSON(const llvm::json::Value &v);

struct Violation {
  const Invariant *invariant;
  std::string trace;
  unsigned line; ///< of the record that violates it
  long epoch = -1, step = -1;
  std::string detail;
  std::string record; ///< the violating record's line: the trace excerpt
};

llvm::Expected<std::vector<Violation>>
check(llvm::ArrayRef<std::string> traces,
      const std::vector<Invariant> &invs, InferStats &stats);

/// Reports of `found` (Report.cpp): text, one violation and its invariant
/// per two lines and a count of `invariants` checked; JSON; SARIF 2.1.0,
/// a rule per relation of `invs` and a result per violation at its trace
/// line.
void printViolations(llvm::raw_ostream &os, const std::vector<Violation> &found,
                     size_t invariants, const InferStats &stats);
llvm::json::Value violationsJSON(const std::vector<Violation> &found);
llvm::json::Object violationsSARIF(const std::vector<Violation> &found,
                                  const std::vector<Invariant> &invs);

} // namespace detc::invariants

#endif // DETC_INVARIANTS_INVARIANTS_H

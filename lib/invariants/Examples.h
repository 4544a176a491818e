//===- Examples.h - What traces say about each hypothesis --------*- C++ -*-===//
//
// TraceWalker turns a trace's records into examples: per training step,
// the order in which its top-level traced calls first happen; per call,
// its attributes; per module, whether it was trained before its first
// evaluation forward; per parameter at each optimizer step, whether it changed
// since the previous step and what its state is; per call result, whether
// it is finite; per step, whether a call's first argument repeats the
// previous step's; per top-level forward, which of its module's layers
// ran inside it. Inference (Infer.cpp)
// and checking (Check.cpp) read the same examples.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_INVARIANTS_EXAMPLES_H
#define DETC_LIB_INVARIANTS_EXAMPLES_H

#include "detc/invariants/Invariants.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <set>

namespace detc::invariants {

using Features = std::set<std::string>; ///< clause texts `attr=value`

/// Where an example comes from. `trace` and `job` (its directory) refer to
/// the path the caller of walkTrace owns for the whole inference or check:
/// no copy per example.
struct Where {
  llvm::StringRef trace;
  llvm::StringRef job; ///< the trace's directory
  unsigned line = 0;
  long epoch = -1, step = -1, rank = 0;
};

struct StepExample {
  Where at;
  std::vector<std::string> order; ///< first top-level call of each API
};

struct CallExample {
  Where at;
  std::string api;
  std::map<std::string, std::string> attrs; ///< training, grad_enabled
};

struct ParamExample {
  Where at;
  std::string id;   ///< the same on every rank: the optimizer position
  std::string name; ///< for reports
  std::string data;
  std::string grad;     ///< its hash; "" when unset
  bool hasGrad = false; ///< a gradient the step should visibly apply
  bool requiresGrad = false, inOptimizer = true;
  std::optional<bool> changed; ///< since this trace's previous state
};

/// The learning rates at an optimizer step, and whether they changed
/// since the previous step of the same epoch (EpochConstant).
struct LrExample {
  Where at;
  std::optional<bool> changedInEpoch;
};

/// A module's first evaluation forward (a top-level forward with its
/// `training` flag false) in one trace, and whether a training forward of
/// the same module came before it (TrainBeforeEval).
struct EvalExample {
  Where at;
  std::string module; ///< the trace's `module` index of the object
  std::string api;
  bool trainedBefore = false;
};

/// A traced call's result (its exit record): whether every element of the
/// result tensor is finite (APIOutput) and, when they all are, its least
/// and greatest elements (APIOutput bounds).
struct OutputExample {
  CallExample call; ///< the exit's attributes (training, grad_enabled)
  bool finite = true;
  std::optional<double> lo, hi;
  /// The loss a model's result goes into (`nll`; "" when not known): a
  /// bound on a model's result is scoped to it (boundFeatures).
  std::string feeds;
};

/// The features a bound on `o`'s result is judged under: its call's, and
/// for a model (`forward:model`) the loss its result goes into — a bound
/// on what a model returns holds for the pipelines whose model feeds that
/// loss (log-probabilities for nll_loss, logits for cross_entropy), not
/// for every model. nullopt: a model's result that feeds no known loss,
/// which no bound is about.
std::optional<Features> boundFeatures(const OutputExample &o);

/// The bounds APIOutput may assert: ">= 0", "<= 0", "in [0, 1]" —
/// scale-free ones only (a bound on magnitudes learned from a few runs
/// would hold for their scale only).
llvm::ArrayRef<llvm::StringRef> outputBounds();
/// Whether a result with least element `lo` and greatest `hi` is within
/// `bound`.
bool withinBound(llvm::StringRef bound, double lo, double hi);
/// How a result with least element `lo` and greatest `hi` breaks `bound`
/// (a report's detail, after the API's name); "" when it does not.
std::string boundViolation(llvm::StringRef bound, double lo, double hi);

/// The first top-level call of an API in a training step, against the same
/// API's first call in the step before: whether its first argument is the
/// same tensor, by hash (APIArg: a model trained on one batch over and
/// over).
struct ArgExample {
  CallExample call;
  bool same = false;
};

/// A top-level forward's input against the previous top-level call of the
/// same forward in the trace: the first argument's dtype and per-example
/// shape (the batch dimension dropped) now and then (APIArg consistent: a model
/// fed inputs of another type or size than it trained on — an evaluation
/// pipeline missing its crop). `pair` is the CONSISTENT / UNEQUAL clause on the
/// two calls' `training`.
struct ArgAttrExample {
  CallExample call;
  std::string dtype, previousDtype, shape, previousShape, pair;
};

/// A top-level forward of a module holding leaf layers of the classes in
/// `held` (its `layers`), and the classes of the layers whose forwards ran
/// inside it (the nested forwards' `layer`): EventContain(A, L) — a
/// module's forward runs its layer L (a Dropout defined and never
/// applied). Only a module that holds an L is an example for L.
struct ContainExample {
  CallExample call;
  std::set<std::string> held, called;
};

struct ExampleSink {
  llvm::function_ref<void(const StepExample &)> step;
  llvm::function_ref<void(const CallExample &)> call;
  llvm::function_ref<void(const ParamExample &)> param;
  llvm::function_ref<void(const LrExample &)> lr;
  llvm::function_ref<void(const EvalExample &)> eval;
  llvm::function_ref<void(const OutputExample &)> output;
  llvm::function_ref<void(const ArgExample &)> arg;
  llvm::function_ref<void(const ContainExample &)> contain;
  llvm::function_ref<void(const ArgAttrExample &)> argAttr;
};

/// Consistent's examples: pairs of records of one parameter in one job (a
/// job's rank traces sit in one directory, trace.rank<R>.jsonl), each
/// with CONSISTENT / UNEQUAL clauses on step, rank and epoch
/// (pairFeatures). add() calls `with` for every earlier record the new
/// one pairs with: the same step on other ranks, the previous step on
/// every rank. It keeps each parameter's records by step: a parameter
/// hash per rank and step (the traces of the ranks are read one after
/// another).
class ParamPairs {
public:
  void add(const ParamExample &p,
           llvm::function_ref<void(const ParamExample &)> with);

private:
  std::map<std::pair<std::string, std::string>,
           std::map<long, std::vector<ParamExample>>>
      byStep;
};
/// A pair's clauses: CONSISTENT / UNEQUAL on step, rank, epoch and the
/// gradient; CONSTANT clauses on requires_grad and in_optimizer where the
/// two records agree.
Features pairFeatures(const ParamExample &p, const ParamExample &q);

/// The attribute a clause text tests (`calls` of `calls=X`, `step` of
/// `CONSISTENT(step)`).
llvm::StringRef clauseAttr(llvm::StringRef clause);
/// Per-relation forbidden conditions: whether a precondition of
/// `relation` may not use `clause`; `asserted` is what the hypothesis
/// asserts (APISequence: its first API; APIAttr and ParamAttr: the
/// attribute).
bool forbiddenClause(llvm::StringRef relation, llvm::StringRef asserted,
                     llvm::StringRef clause);
/// `f` without the clauses `relation` forbids.
Features allowedFeatures(llvm::StringRef relation, llvm::StringRef asserted,
                         Features f);

llvm::Error walkTrace(const std::string &path, const ExampleSink &sink,
                      InferStats &stats);

/// The features of an example a precondition may test.
Features stepFeatures(const StepExample &s);
Features callFeatures(const CallExample &c, llvm::StringRef except);
bool satisfies(const Features &f, const Conjunction &pre);
bool satisfies(const Features &f, const Precondition &pre);
std::string clauseText(const Clause &c);

/// Evaluations of one hypothesis, with what precondition deduction needs:
/// the features common to every passing example, and the distinct feature
/// sets of failing ones.
class Hypothesis {
public:
  /// `count` identical examples.
  void add(bool pass, const Features &f, unsigned count = 1);
  /// The precondition: empty when no example fails; the passing examples'
  /// common clauses, pruned to those some failing example violates, when
  /// they exclude every failing example; else a disjunction of such
  /// conjunctions over groups of passing examples (disjunctive splitting);
  /// none (superficial) when no group has a safe one.
  std::optional<Precondition> deduce() const;
  unsigned passing() const { return pass; }

private:
  bool safe(const Features &pre) const;
  Conjunction prune(Features pre) const;

  unsigned pass = 0, fail = 0;
  std::optional<Features> common;
  std::map<Features, unsigned> passingSets; ///< distinct, with counts
  std::set<Features> failing;
};

} // namespace detc::invariants

#endif // DETC_LIB_INVARIANTS_EXAMPLES_H

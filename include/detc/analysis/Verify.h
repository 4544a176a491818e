//===- Verify.h - Z3 check of the dataflow solutions -------------*- C++ -*-===//
//
// `detc analyze --verify`: the constraint systems of SPEC §2 (Table 1,
// ThreadSafe/ERR) and §4 (Table 3, Needed, with detc's checkpoint rule and
// control dependence — docs/analysis.md) are encoded for the program's
// statement graph as Boolean constraints in Z3, one Boolean per
// (generator or variable, before/after, node). Each check asks Z3 two
// questions:
//  1. does the worklist solution satisfy every constraint? (the computed
//     values are asserted as assumptions; on failure the first violated
//     constraint is named);
//  2. is it extremal? TS must be the greatest solution: constraints ∧
//     (computed ⊆ TS) ∧ (some TS bit beyond computed) must be unsat; ERR the
//     least one given TS; Needed the least one: constraints ∧ (Needed ⊆
//     computed) ∧ (some computed bit missing) must be unsat.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_ANALYSIS_VERIFY_H
#define DETC_ANALYSIS_VERIFY_H

#include "detc/analysis/Replay.h"
#include "detc/analysis/ThreadSafety.h"

#include <string>
#include <vector>

namespace detc::analysis {

struct VerifyOutcome {
  std::string system;         ///< "ThreadSafe/ERR", "Needed at fig4:45:5".
  unsigned booleans = 0;      ///< Z3 Boolean constants.
  unsigned constraints = 0;   ///< Constraints asserted.
  bool satisfies = false;     ///< Check 1.
  bool extremal = false;      ///< Check 2.
  std::string failure;        ///< Why a check failed (empty when both hold).
  bool ok() const { return satisfies && extremal; }
};

/// Checks the ThreadSafe/ERR solution against Table 1.
VerifyOutcome verifyThreadSafety(const StatementGraph &g,
                                 const GeneratorAliases &gens,
                                 const ThreadSafetyResult &ts);

/// Checks one checkpoint's Needed solution against Table 3.
VerifyOutcome verifyNeeded(const StatementGraph &g,
                           const GeneratorAliases &gens, const ReplayVars &ids,
                           const CheckpointReplay &cp);

} // namespace detc::analysis

#endif // DETC_ANALYSIS_VERIFY_H

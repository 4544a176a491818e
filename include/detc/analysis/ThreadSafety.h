//===- ThreadSafety.h - Analysis A: ThreadSafe / ERR -------------*- C++ -*-===//
//
// SPEC §2 (the paper's Table 1). Forward must-analysis over the statement
// graph: TS[g] is true where generator object g is safe to use — outside
// every data-parallel region, or created inside the innermost one. A draw
// on g where TS[g] is false puts g in ERR.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_ANALYSIS_THREADSAFETY_H
#define DETC_ANALYSIS_THREADSAFETY_H

#include "detc/analysis/DataflowSolver.h"
#include "detc/analysis/Generators.h"

#include "llvm/ADT/SparseBitVector.h"

namespace detc::analysis {

/// A set of generator objects, stored as its members or, when it is
/// cofinite, as the objects it lacks. ThreadSafe is "every generator" before
/// any region and "none but the thread-local ones" inside one: both are
/// small this way, while a bit vector per statement would grow with the
/// number of generators the program creates (one per training stage).
class GeneratorSet {
public:
  static GeneratorSet all() { return GeneratorSet(true); }
  static GeneratorSet none() { return GeneratorSet(false); }

  bool test(unsigned o) const { return cofinite != listed.test(o); }
  void set(unsigned o) { cofinite ? listed.reset(o) : listed.set(o); }
  void reset(unsigned o) { cofinite ? listed.set(o) : listed.reset(o); }
  void flip(unsigned o) { test(o) ? reset(o) : set(o); }
  /// Intersection (the meet of ThreadSafe).
  void intersect(const GeneratorSet &o);
  /// The members among objects [0, size).
  std::vector<unsigned> members(unsigned size) const;

  bool operator==(const GeneratorSet &o) const {
    return cofinite == o.cofinite && listed == o.listed;
  }
  bool operator!=(const GeneratorSet &o) const { return !(*this == o); }

private:
  explicit GeneratorSet(bool cofinite) : cofinite(cofinite) {}
  bool cofinite;
  /// Members, or (cofinite) non-members.
  llvm::SparseBitVector<> listed;
};

/// One draw that uses a generator unsafely, on one call path.
struct UnsafeUse {
  NodeId draw;
  unsigned object;
  NodeId region; ///< The innermost region the draw is in.
};

struct ThreadSafetyResult {
  /// TS before (`in`) and after (`out`) each node; only with
  /// `keepSolution` (the Z3 checks and the test passes read it).
  DataflowResult<GeneratorSet> ts;
  llvm::BitVector err;
  std::vector<UnsafeUse> unsafe;
};

ThreadSafetyResult analyzeThreadSafety(const StatementGraph &g,
                                       const GeneratorAliases &gens,
                                       bool keepSolution = true);

/// Whether `u`'s region is a counted step's (`detc.parallel ... counted`:
/// a loop over a count taking its step, its batch from no loader). Such a
/// use is reported, but the transform leaves its draw on the generator it
/// names, which every checkpoint saves: the draws are sequential in the
/// main process, and keyed ones would take sequential streams whose
/// positions depend on which calls fast-forward repeats (nanoGPT's shape:
/// `get_batch` drawn from the loop and from an evaluation fast-forward
/// skips; resumes were not bit-identical).
bool inCountedRegion(const StatementGraph &g, const UnsafeUse &u);

} // namespace detc::analysis

#endif // DETC_ANALYSIS_THREADSAFETY_H

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

namespace detc::analysis {

/// One draw that uses a generator unsafely, on one call path.
struct UnsafeUse {
  NodeId draw;
  unsigned object;
  NodeId region; ///< The innermost region the draw is in.
};

struct ThreadSafetyResult {
  /// TS before (`in`) and after (`out`) each node; bit i is object i.
  DataflowResult<llvm::BitVector> ts;
  llvm::BitVector err;
  std::vector<UnsafeUse> unsafe;
};

ThreadSafetyResult analyzeThreadSafety(const StatementGraph &g,
                                       const GeneratorAliases &gens);

} // namespace detc::analysis

#endif // DETC_ANALYSIS_THREADSAFETY_H

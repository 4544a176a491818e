//===- Generators.h - Which generator objects a variable may hold -*- C++ -*-===//
//
// SPEC §2's domain is Generator: an object, not a variable. `g2 = g1`,
// `self.rng = g`, a generator passed as an argument or returned all name
// the same object. Objects are:
//  * the global generator of a library (`<torch>`), which every
//    `torch.manual_seed` reseeds;
//  * one object per generator-creating statement of the expanded program
//    (`torch.Generator()`, `np.random.default_rng(s)`, ...); a reseeding
//    method (`g.manual_seed(s)`) reseeds the objects its receiver holds;
//  * an *unknown* object per variable a draw uses when nothing the program
//    does puts a generator there (a parameter left at its default): it is
//    treated as created at program start.
// The points-to sets are flow-insensitive (Andersen style over the copy
// statements of the expanded program).
//
//===----------------------------------------------------------------------===//

#ifndef DETC_ANALYSIS_GENERATORS_H
#define DETC_ANALYSIS_GENERATORS_H

#include "detc/analysis/StatementGraph.h"

namespace detc::analysis {

struct GeneratorObject {
  enum Kind { Global, Site, Unknown } kind = Site;
  std::string library; ///< `torch`, `numpy`, `random`, `tensorflow`.
  NodeId site = kNoNode; ///< Site: the creating node.
  VarId var = ~0u;       ///< Site/Unknown: the variable first holding it.
  /// What reports call it: `noise`, `torch (global)`, ...
  std::string describe(const StatementGraph &g) const;
};

class GeneratorAliases {
public:
  explicit GeneratorAliases(const StatementGraph &g);

  const std::vector<GeneratorObject> &objects() const { return objs; }
  /// Objects `var` may hold.
  llvm::ArrayRef<unsigned> pointsTo(VarId var) const;
  /// Objects a draw node may advance (never empty for a draw).
  llvm::ArrayRef<unsigned> drawn(NodeId draw) const;
  /// Objects a Create node (re)creates; a reseed of a receiver that may
  /// hold several objects creates none of them for sure.
  llvm::ArrayRef<unsigned> created(NodeId create) const;

private:
  std::vector<GeneratorObject> objs;
  std::vector<llvm::SmallVector<unsigned, 1>> pts; ///< By VarId.
  llvm::DenseMap<NodeId, llvm::SmallVector<unsigned, 1>> drawnBy, createdBy;
};

} // namespace detc::analysis

#endif // DETC_ANALYSIS_GENERATORS_H

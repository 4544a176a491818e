//===- RestoredAliases.h - Names of what a checkpoint restores -*- C++ -*-===//
//
// Part of the Needed problem (Replay.cpp): RestoredAliases.cpp says how.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_ANALYSIS_RESTOREDALIASES_H
#define DETC_LIB_ANALYSIS_RESTOREDALIASES_H

#include "detc/analysis/StatementGraph.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/BitVector.h"

#include <utility>
#include <vector>

namespace detc::analysis {

/// The variables that, at every node of `instances`, hold (a part of) the
/// object one of `roots` holds, on every path through `prefix`: another
/// name of a restored model (`model_without_ddp = model`), the module its
/// DistributedDataParallel wrapper wraps, or the wrapper itself; as
/// (variable, root). Loading the root's state in place restores them.
std::vector<std::pair<VarId, VarId>> restoredAliases(const StatementGraph &g,
                                   const llvm::BitVector &prefix,
                                   llvm::ArrayRef<NodeId> instances,
                                   llvm::ArrayRef<VarId> roots);

} // namespace detc::analysis

#endif // DETC_LIB_ANALYSIS_RESTOREDALIASES_H

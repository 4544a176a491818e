//===- ResultImpl.h - What PointsToResult holds -----------------*- C++ -*-===//

#ifndef DETC_LIB_FRONTEND_LOWERING_POINTSTO_RESULTIMPL_H
#define DETC_LIB_FRONTEND_LOWERING_POINTSTO_RESULTIMPL_H

#include "Program.h"
#include "Solver.h"

#include "detc/frontend/PointsTo.h"

#include "llvm/ADT/DenseMap.h"

#include <map>

namespace detc::frontend {

struct PointsToResult::Impl {
  pta::Solver solver;
  std::vector<AbstractObject> objects;
  /// scope -> variable -> node (ordered: the printed form is stable).
  std::map<std::string, std::map<std::string, pta::Node>> vars;
  llvm::DenseMap<const ast::Expr *, pta::Node> exprs;
  std::unique_ptr<pta::Program> program;
  PointsToStats stats;
  /// (real path, line, column) -> objects allocated there (built lazily).
  std::map<std::tuple<std::string, unsigned, unsigned>, std::vector<ObjectId>>
      bySite;

  /// Ascending object ids (the solver keeps arrival order).
  std::vector<ObjectId> toVector(llvm::ArrayRef<pta::Obj> set) const {
    std::vector<ObjectId> out(set.begin(), set.end());
    llvm::sort(out);
    return out;
  }
};

} // namespace detc::frontend

#endif // DETC_LIB_FRONTEND_LOWERING_POINTSTO_RESULTIMPL_H

//===- ResultImpl.h - What PointsToResult holds -----------------*- C++ -*-===//

#ifndef DETC_LIB_FRONTEND_LOWERING_POINTSTO_RESULTIMPL_H
#define DETC_LIB_FRONTEND_LOWERING_POINTSTO_RESULTIMPL_H

#include "Program.h"
#include "Solver.h"

#include "detc/frontend/PointsTo.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/StringSaver.h"

#include <map>
#include <tuple>

namespace detc::frontend {

struct PointsToResult::Impl {
  pta::Solver solver;
  std::vector<AbstractObject> objects;
  /// The objects' labels, one copy of each.
  llvm::BumpPtrAllocator labelStorage;
  llvm::UniqueStringSaver labels{labelStorage};
  /// scope -> variable -> node (print() sorts them; the lowering asks for
  /// every name it sees, in every pass).
  llvm::StringMap<llvm::StringMap<pta::Node>> vars;
  llvm::DenseMap<const ast::Expr *, pta::Node> exprs;
  std::unique_ptr<pta::Program> program;
  PointsToStats stats;
  /// The objects with a site, ordered by (file, line, column, id); files
  /// are numbered in `siteFiles` by real path (built lazily).
  struct SiteEntry {
    unsigned file, line, column;
    ObjectId object;
    bool operator<(const SiteEntry &o) const {
      return std::tie(file, line, column, object) <
             std::tie(o.file, o.line, o.column, o.object);
    }
  };
  std::vector<SiteEntry> bySite;
  llvm::StringMap<unsigned> siteFiles;
  /// Real paths of the file names objectsAt() was asked about (a syscall
  /// per path component each).
  llvm::StringMap<std::string> realPaths;

  /// Once solved: forgets the expressions and variables that hold nothing
  /// (they read the same) and the objects' spare capacity.
  void dropEmpty();

  /// Ascending object ids (the solver keeps arrival order).
  std::vector<ObjectId> toVector(llvm::ArrayRef<pta::Obj> set) const {
    std::vector<ObjectId> out(set.begin(), set.end());
    llvm::sort(out);
    return out;
  }
};

} // namespace detc::frontend

#endif // DETC_LIB_FRONTEND_LOWERING_POINTSTO_RESULTIMPL_H

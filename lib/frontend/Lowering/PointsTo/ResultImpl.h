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
  /// While the constraints are built: scope -> variable -> node, and the
  /// node of each expression. freeze() moves them into the sorted arrays
  /// below, which the queries read.
  llvm::StringMap<llvm::StringMap<pta::Node>> vars;
  llvm::DenseMap<const ast::Expr *, pta::Node> exprs;
  struct VarEntry {
    llvm::StringRef scope, name; ///< Saved in `labels`.
    pta::Node node;
  };
  /// By (scope, name); by address. Only entries that hold something.
  std::vector<VarEntry> frozenVars;
  std::vector<std::pair<const ast::Expr *, pta::Node>> frozenExprs;
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

  /// Once solved: the variables and expressions that hold something into
  /// sorted arrays (the others read the same without an entry: most
  /// expressions, many variables), the maps freed; the objects' spare
  /// capacity freed. A hashed map cost ~3 times the entries it held.
  void freeze();

  /// Ascending object ids (the solver keeps arrival order).
  std::vector<ObjectId> toVector(llvm::ArrayRef<pta::Obj> set) const {
    std::vector<ObjectId> out(set.begin(), set.end());
    llvm::sort(out);
    return out;
  }
};

} // namespace detc::frontend

#endif // DETC_LIB_FRONTEND_LOWERING_POINTSTO_RESULTIMPL_H

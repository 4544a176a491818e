//===- ResultImpl.h - What PointsToResult holds -----------------*- C++ -*-===//

#ifndef DETC_LIB_FRONTEND_LOWERING_POINTSTO_RESULTIMPL_H
#define DETC_LIB_FRONTEND_LOWERING_POINTSTO_RESULTIMPL_H

#include "Program.h"
#include "Solver.h"

#include "detc/frontend/PointsTo.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
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
  /// While the constraints are built: scope -> variable -> node. freeze()
  /// moves it into the sorted array below, which the queries read. The
  /// node of each expression is an annotation on the expression
  /// (ast::Expr::getPointsToNode) of the ASTs this result claimed.
  llvm::StringMap<llvm::StringMap<pta::Node>> vars;
  /// A variable that holds something: its name (saved in `labels`, so
  /// NUL-terminated) and node. 16 bytes where two StringRefs and a node
  /// took 40.
  struct VarEntry {
    const char *name;
    pta::Node node;
  };
  /// Each scope's variables, by name, in frozenVars[begin .. end).
  struct ScopeVars {
    llvm::StringRef scope; ///< Saved in `labels`.
    unsigned begin, end;
  };
  /// By scope; their variables by name. Only variables that hold
  /// something.
  std::vector<ScopeVars> frozenScopes;
  std::vector<VarEntry> frozenVars;
  std::unique_ptr<pta::Program> program;
  /// The definitions a call of a name factory also calls, by call
  /// (NamedFactories.cpp), in the order found.
  llvm::DenseMap<const ast::Node *, std::vector<ObjectId>> namedAt;
  /// The definitions (defs, lambdas) whose function objects were made:
  /// the module's and class bodies' ones, and those of functions that
  /// may run (Frame::ran).
  llvm::DenseSet<const ast::Node *> made;
  /// `eval`s of a computed string taken as any name their module defines
  /// or imports (PointsToOptions::evalAnyNameAsUnknown).
  unsigned evalsOfAnyName = 0;
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

  Impl();
  ~Impl();
  /// Makes `context`'s annotations this result's: false when another live
  /// result holds them (two results over one AST would read each other's
  /// nodes). Annotations a result gone before left are cleared (`root`
  /// reaches every node).
  bool claim(const ast::ASTContext &context, const ast::Module *root);
  const uint64_t id; ///< Never reused (ASTContext::getAnnotator).

  /// Once solved: the variables that hold something into a sorted array
  /// (the others read the same without an entry), the map freed; the
  /// objects' spare capacity freed. A hashed map cost ~3 times the entries
  /// it held.
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

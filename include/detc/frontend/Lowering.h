//===- Lowering.h - Lower a Python training script to the detc dialect ----===//

#ifndef DETC_FRONTEND_LOWERING_H
#define DETC_FRONTEND_LOWERING_H

#include "detc/base/PhaseStats.h"
#include "detc/frontend/ApiModel.h"
#include "detc/frontend/Diagnostics.h"
#include "detc/frontend/LibrarySource.h"
#include "detc/frontend/ParseCache.h"

#include <string>
#include <vector>

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace detc::frontend {

/// Where the lowering's time went (`detc analyze --stats`).
struct LoweringStats {
  /// `parse`, `points-to`, one `lowering-pass` per pass of the facts'
  /// fixpoint, `verify`.
  std::vector<base::PhaseStat> phases;
  /// Library files summarised (LibrarySource.h), and how many of those
  /// summaries came from the on-disk cache.
  unsigned libraryFiles = 0;
  unsigned libraryFilesCached = 0;
};

struct LoweringOptions {
  /// API model to use; null means the built-in tables.
  const ApiModel *api = nullptr;
  /// Follow `import m` / `from . import m` into `m.py` next to the script.
  bool followLocalImports = true;
  /// More directories for local modules (`--path`; then PYTHONPATH).
  std::vector<std::string> searchPath;
  /// Where the source of libraries no table models is read from (the
  /// interpreter's search path) and its summaries cached; no `python`:
  /// such libraries are unread (detc-may-draw).
  LibrarySourceOptions librarySource;
  /// Where the script and its modules are parsed (shared with the caller,
  /// which may have parsed the script already); null: the lowering's own.
  /// It must outlive the lowered module's users of AST pointers.
  ParseCache *parseCache = nullptr;
  /// The oldest Python the script must run on (for the lowering's own
  /// ParseCache; a shared one has its own).
  PythonVersion targetVersion = kNewestPythonVersion;
  /// The points-to analysis's limit on its sets' members in all (0: its
  /// default); past it the lowering refuses the program.
  size_t pointsToMemberLimit = 0;
  /// Filled in when not null.
  LoweringStats *stats = nullptr;
  /// Verify the lowered module before returning it. A caller that turns this
  /// off must run verifyLoweredModule() itself before trusting the module
  /// (`detc analyze` runs it alongside the first analyses).
  bool verify = true;
};

/// The MLIR verifier and the build-reference check on a lowered module;
/// on failure, the internal-error diagnostic for `path` in `diags`.
mlir::LogicalResult verifyLoweredModule(mlir::ModuleOp module,
                                        llvm::StringRef path,
                                        DiagnosticEngine &diags);

/// Parses the script at `path` (and the local modules it imports) and lowers
/// it to a module of the detc dialect. Syntax errors and modelling problems
/// are reported to `diags`; returns null when the script cannot be parsed.
/// Constructs the lowering cannot model are warnings tagged
/// [detc-unknown-construct]; unknown calls are opaque statements, never
/// errors.
mlir::OwningOpRef<mlir::ModuleOp> lowerScript(mlir::MLIRContext &context,
                                              llvm::StringRef path,
                                              DiagnosticEngine &diags,
                                              const LoweringOptions &options);

} // namespace detc::frontend

#endif // DETC_FRONTEND_LOWERING_H

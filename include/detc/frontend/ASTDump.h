//===- ASTDump.h - Readable and JSON dumps of the Python AST --------------===//

#ifndef DETC_FRONTEND_ASTDUMP_H
#define DETC_FRONTEND_ASTDUMP_H

#include "detc/frontend/AST.h"

#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace detc::frontend {
class SourceFile;
} // namespace detc::frontend

namespace detc::ast {

/// Indented tree, one node per line with its range `<line:col-line:col>`
/// (1-based columns) and its scalar fields. `file` is the node's (ends are
/// offsets into it).
void dumpText(const Node *node, const frontend::SourceFile &file,
              llvm::raw_ostream &os);

/// JSON in the shape of CPython's ast: {"_type": "Call", "func": ..., ...,
/// "lineno", "col_offset", "end_lineno", "end_col_offset"} plus byte offsets
/// "offset"/"end_offset". Documented in docs/frontend.md.
void dumpJSON(const Node *node, const frontend::SourceFile &file,
              llvm::raw_ostream &os);

/// Calls `fn(fieldName, child)` for every child node of `node`, in source
/// order of CPython's field list. Lists call once per element.
void forEachChild(const Node *node,
                  llvm::function_ref<void(llvm::StringRef, const Node *)> fn);

/// Calls `fn` on each statement list nested directly in `s` (the bodies,
/// `else`s, handlers and `finally` of compound statements, a `def`'s or
/// `class`'s body).
void forEachBody(const Stmt *s,
                 llvm::function_ref<void(NodeList<Stmt>)> fn);

/// Whether `s` is `if __name__ == "__main__":` (either operand order): its
/// body runs only when the file runs as the program, not when it is
/// imported.
bool isMainGuard(const Stmt *s);

/// The statements of `module`'s body that run: all of them for the
/// program (`isProgram`), and for an imported module the body with each
/// `if __name__ == "__main__":` replaced by its `else` (the lowering and
/// the points-to analysis read modules alike).
std::vector<Stmt *> runningBody(const Module &module, bool isProgram);

} // namespace detc::ast

#endif // DETC_FRONTEND_ASTDUMP_H

//===- BlockAssembler.h - Join the statements of a file's pieces -*- C++
//-*-===//
//
// Internal to lib/frontend. A file is parsed in pieces (ChunkSplit.h); a
// piece at depth d holds statements that continue the block d indentation
// levels down that the statements so far end with — the rest of a long
// function body, say. The assembler keeps those blocks open while pieces
// arrive and, when one closes, stores its statements in the node that owns
// it and moves the end of that node (and of every node that ended with the
// block) to the end of its last statement, as if it had been parsed whole.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_FRONTEND_BLOCKASSEMBLER_H
#define DETC_LIB_FRONTEND_BLOCKASSEMBLER_H

#include "detc/frontend/AST.h"

#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace detc::frontend {

class BlockAssembler {
public:
  explicit BlockAssembler(ast::ASTContext &ctx);

  /// Where the statements of a piece at `depth` go. Null when the
  /// statements so far do not end with a block that deep (the splitter and
  /// the parser disagree; the caller reports it).
  llvm::SmallVectorImpl<ast::Stmt *> *blockAt(unsigned depth);

  /// Closes every open block; the module's statements.
  llvm::ArrayRef<ast::Stmt *> finish();

private:
  struct OpenBlock {
    ast::NodeList<ast::Stmt> *field = nullptr; ///< Null for the module.
    llvm::SmallVector<ast::Node *, 2> owners;  ///< End where it ends.
    llvm::SmallVector<ast::Stmt *, 16> stmts;
  };

  bool open();
  void close();

  ast::ASTContext &ctx;
  std::vector<OpenBlock> blocks; ///< [0] is the module's body.
};

} // namespace detc::frontend

#endif // DETC_LIB_FRONTEND_BLOCKASSEMBLER_H

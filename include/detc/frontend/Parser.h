//===- Parser.h - Parse Python 3.11 source into the detc AST --------------===//

#ifndef DETC_FRONTEND_PARSER_H
#define DETC_FRONTEND_PARSER_H

#include "detc/frontend/AST.h"
#include "detc/frontend/Diagnostics.h"
#include "detc/frontend/SourceFile.h"

#include <memory>

namespace detc::frontend {

struct ParseStats {
  /// The SLL pass failed and the file was parsed again with full LL.
  bool usedLLFallback = false;
  size_t numTokens = 0;
};

/// The AST of one file. Owns its nodes.
struct ParsedModule {
  std::unique_ptr<ast::ASTContext> context;
  ast::Module *module = nullptr;
  ParseStats stats;
};

/// Parses `file`. Returns null after reporting the first syntax error to
/// `diags` (CPython also stops at the first one). Never throws and never
/// crashes on any input; deep nesting is reported, not overflowed.
std::unique_ptr<ParsedModule> parseModule(const SourceFile &file,
                                          DiagnosticEngine &diags);

} // namespace detc::frontend

#endif // DETC_FRONTEND_PARSER_H

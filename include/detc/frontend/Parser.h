//===- Parser.h - Parse Python 3.11-3.13 source into the detc AST ---------===//

#ifndef DETC_FRONTEND_PARSER_H
#define DETC_FRONTEND_PARSER_H

#include "detc/frontend/AST.h"
#include "detc/frontend/Diagnostics.h"
#include "detc/frontend/PythonVersion.h"
#include "detc/frontend/SourceFile.h"

#include <memory>
#include <vector>

namespace detc::frontend {

struct ParseStats {
  /// The SLL pass failed and the file was parsed again with full LL.
  bool usedLLFallback = false;
  size_t numTokens = 0;
};

/// The AST of one file. Owns its nodes; their names and literals may point
/// into the file's bytes, so the SourceFile must outlive it.
struct ParsedModule {
  std::unique_ptr<ast::ASTContext> context;
  ast::Module *module = nullptr;
  ParseStats stats;
  /// Where the file uses syntax newer than Python 3.11, in file order.
  std::vector<NewerSyntax> newerSyntax;
};

/// The deepest AST nesting detc accepts (nodes on a path from the module).
/// CPython compiles up to about 3,000 levels; every pass after the parser
/// may recurse once per level, within the stack the tools run on
/// (base::kToolStackBytes).
constexpr unsigned kMaxNestingDepth = 4000;

/// A file is parsed in pieces of whole top-level statements of at least
/// this many code points, each piece's parse tree freed once its AST is
/// built: ANTLR's trees take ~200 bytes per byte of source.
constexpr size_t kParsePieceCodePoints = 64u << 10;

/// Parses `file`. Returns null after reporting the first syntax error to
/// `diags` (CPython also stops at the first one). Never throws and never
/// crashes on any input; deep nesting is reported, not overflowed.
/// `pieceCodePoints` (tests): the piece size; the AST does not depend on it.
/// `file` must outlive the result.
std::unique_ptr<ParsedModule>
parseModule(const SourceFile &file, DiagnosticEngine &diags,
            size_t pieceCodePoints = kParsePieceCodePoints);

/// Reports, as an error, the file's first use of syntax newer than `target`
/// ("... is Python 3.12 syntax; the target version is 3.11"). Returns
/// whether there was none.
bool checkTargetVersion(const ParsedModule &parsed, const SourceFile &file,
                        PythonVersion target, DiagnosticEngine &diags);

} // namespace detc::frontend

#endif // DETC_FRONTEND_PARSER_H

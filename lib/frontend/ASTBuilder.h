//===- ASTBuilder.h - ANTLR parse tree to detc AST -------------*- C++ -*-===//
//
// Internal to lib/frontend. Walks the parse tree of one ParseRun and builds
// typed AST nodes with exact source ranges. It also performs the checks that
// the LL-friendly grammar leaves out (assignment targets, parameter order,
// call argument order, dict/set displays) with CPython's wording, and parses
// string literals, including f-string replacement fields (via nested runs).
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_FRONTEND_ASTBUILDER_H
#define DETC_LIB_FRONTEND_ASTBUILDER_H

#include "ParseRun.h"
#include "StringScan.h"

#include "detc/frontend/AST.h"
#include "detc/frontend/Diagnostics.h"
#include "detc/frontend/PythonVersion.h"
#include "detc/frontend/SourceFile.h"

namespace detc::frontend {

class ASTBuilder {
public:
  ASTBuilder(const SourceFile &file, ast::ASTContext &ctx,
             DiagnosticEngine &diags, const StackBudget &budget)
      : file(file), ctx(ctx), diags(diags), budget(budget) {}

  /// Builds the statements of a piece of the file (parsed on its own,
  /// starting at code point `base`) into `body`.
  void appendStatements(PythonParser::FileInputContext *tree, size_t base,
                        llvm::SmallVectorImpl<ast::Stmt *> &body);
  /// The module of all pieces' statements (null after an error).
  ast::Module *finishModule(llvm::ArrayRef<ast::Stmt *> body);
  bool hadError() const { return failed; }
  /// The uses of syntax newer than Python 3.11 met so far, in file order.
  std::vector<NewerSyntax> takeNewerSyntax();

  using P = PythonParser;

private:
  // ---- Positions --------------------------------------------------------
  ast::SourcePos startOf(antlr4::Token *tok) const;
  ast::SourcePos endOf(antlr4::Token *tok) const;
  ast::SourceRange rangeOf(antlr4::ParserRuleContext *c) const {
    return {startOf(c->getStart()), endOf(c->getStop())};
  }
  ast::SourceRange rangeOf(antlr4::tree::TerminalNode *t) const {
    return {startOf(t->getSymbol()), endOf(t->getSymbol())};
  }
  static ast::SourceRange join(const ast::SourceRange &a,
                               const ast::SourceRange &b) {
    return {a.begin, b.end};
  }
  template <typename T, typename... Args>
  T *make(ast::SourceRange r, Args &&...args) {
    T *n = ctx.create<T>(std::forward<Args>(args)...);
    n->setRange(r);
    return n;
  }
  template <typename T> ast::NodeList<T> list(llvm::ArrayRef<T *> items) {
    return ctx.copy(items);
  }
  /// A token's text; an identifier's in NFKC.
  llvm::StringRef text(antlr4::Token *tok);
  llvm::StringRef tokenText(antlr4::Token *tok);
  llvm::StringRef text(antlr4::tree::TerminalNode *t) {
    return text(t->getSymbol());
  }

  /// Reports an error (only the first one is kept, like CPython).
  void error(ast::SourcePos pos, const std::string &message);
  void error(const ast::Node *n, const std::string &message) {
    error(n->getRange().begin, message);
  }

  // ---- Statements -------------------------------------------------------
  void stmt(P::StmtContext *c, llvm::SmallVectorImpl<ast::Stmt *> &out);
  ast::Stmt *simpleStmt(P::SimpleStmtContext *c);
  ast::Stmt *typeAlias(P::TypeAliasContext *c);
  ast::NodeList<ast::Node> typeParams(P::TypeParamsContext *c);
  ast::Stmt *exprStmt(P::ExprStmtContext *c);
  ast::Stmt *flowStmt(P::FlowStmtContext *c);
  ast::Stmt *importStmt(P::ImportStmtContext *c);
  ast::Stmt *compoundStmt(P::CompoundStmtContext *c);
  ast::NodeList<ast::Stmt> block(P::BlockContext *c);
  ast::Stmt *ifStmt(P::IfStmtContext *c);
  ast::Stmt *whileStmt(P::WhileStmtContext *c);
  ast::Stmt *forStmt(P::ForStmtContext *c, antlr4::Token *asyncTok);
  ast::Stmt *tryStmt(P::TryStmtContext *c);
  ast::Stmt *withStmt(P::WithStmtContext *c, antlr4::Token *asyncTok);
  ast::Stmt *funcDef(P::FuncDefContext *c, antlr4::Token *asyncTok,
                     ast::NodeList<ast::Expr> decorators);
  ast::Stmt *classDef(P::ClassDefContext *c,
                      ast::NodeList<ast::Expr> decorators);
  ast::Stmt *decorated(P::DecoratedContext *c);
  ast::Stmt *matchStmt(P::MatchStmtContext *c);
  ast::Arguments *parameters(P::ParamListContext *c);
  ast::Arguments *lambdaParameters(P::LambdaParamListContext *c);
  ast::NodeList<ast::Stmt> elseBlock(P::ElseClauseContext *c) {
    return c ? block(c->block()) : ast::NodeList<ast::Stmt>();
  }
  /// End of a compound statement whose last block is `body`: its last
  /// statement's end, or the `;` after it (CPython ends a node at its last
  /// token, and a trailing `;` is one).
  ast::SourceEnd endOfBody(ast::NodeList<ast::Stmt> body) const {
    ast::SourceEnd end = body.back()->getRange().end;
    llvm::StringRef bytes = file.getBytes();
    size_t k = end.offset;
    while (k < bytes.size() && (bytes[k] == ' ' || bytes[k] == '\t' ||
                                bytes[k] == '\f'))
      ++k;
    if (k < bytes.size() && bytes[k] == ';')
      end.offset = static_cast<uint32_t>(k + 1);
    return end;
  }

  // ---- Patterns ---------------------------------------------------------
  ast::Pattern *patterns(P::PatternsContext *c, bool forceSequence);
  ast::Pattern *pattern(P::PatternContext *c);
  ast::Pattern *closedPattern(P::ClosedPatternContext *c);
  ast::Pattern *literalPattern(P::LiteralPatternContext *c);
  ast::Expr *literalPatternExpr(P::LiteralPatternContext *c);
  ast::Expr *dottedNameExpr(const std::vector<P::NameContext *> &names);

  // ---- Expressions ------------------------------------------------------
  ast::Expr *test(P::TestContext *c);
  ast::Expr *testNoCond(P::TestNoCondContext *c);
  ast::Expr *namedExprTest(P::NamedExprTestContext *c);
  ast::Expr *logicExpr(P::LogicExprContext *c);
  ast::Expr *bitExpr(P::BitExprContext *c);
  ast::Expr *primary(P::PrimaryContext *c);
  ast::Expr *atom(P::AtomContext *c);
  ast::Expr *starExpr(P::StarExprContext *c);
  ast::Expr *lambdef(antlr4::ParserRuleContext *c,
                     P::LambdaParamListContext *params, ast::Expr *body);
  ast::Expr *yieldExpr(P::YieldExprContext *c);
  /// Elements of a comma list: a single element without a comma is returned
  /// as is, otherwise a Tuple with the range of `c`.
  ast::Expr *tupleOrSingle(antlr4::ParserRuleContext *c,
                           llvm::ArrayRef<ast::Expr *> elts, bool hasComma);
  ast::Expr *testlistStarExpr(P::TestlistStarExprContext *c);
  ast::Expr *exprlist(P::ExprlistContext *c,
                      llvm::SmallVectorImpl<ast::Expr *> *elements = nullptr);
  ast::Expr *anyExpr(antlr4::tree::ParseTree *c); ///< By rule index.
  ast::Expr *subscriptList(P::SubscriptListContext *c);
  ast::Expr *sliceOf(P::SubscriptContext *c);
  ast::Expr *braceAtom(P::BraceAtomContext *c);
  void callArguments(P::ArgListContext *c, antlr4::Token *open,
                     antlr4::Token *close,
                     llvm::SmallVectorImpl<ast::Expr *> &args,
                     llvm::SmallVectorImpl<ast::Keyword *> &keywords);
  ast::NodeList<ast::Comprehension> comprehensions(P::CompForContext *c);
  ast::Expr *number(antlr4::Token *tok);

  // ---- Targets ------------------------------------------------------------
  /// Notes a use of syntax Python 3.11 cannot read (an error only for an
  /// older target version: checkTargetVersion).
  void newerSyntax(ast::SourcePos pos, PythonVersion since, std::string what) {
    newer.push_back({pos, since, std::move(what)});
  }
  enum class TargetUse { Assign, AugAssign, Delete, For, With, Comprehension };
  /// Checks `e` is a valid target and sets Store/Del contexts.
  bool setTarget(ast::Expr *e, TargetUse use);
  static const char *describe(const ast::Expr *e);

  // ---- Strings (StringLiterals.cpp) ----------------------------------------
  ast::Expr *strings(P::StringsContext *c);
  /// Parses the body of an f-string (or of a format spec) between
  /// code-point indices [begin, end) into Constant/FormattedValue parts.
  /// Scans f-string text from `begin` (code-point index in the file) up to
  /// `end`, or in a format spec up to the first unmatched '}'. Literal text
  /// is accumulated (undecoded) in `literal`; every replacement field flushes
  /// it and appends a FormattedValue. Returns where it stopped, or npos after
  /// an error.
  size_t fstringBody(size_t begin, size_t end, strscan::Quote quote, bool raw,
                     int depth, bool inSpec, ast::SourceRange whole,
                     llvm::SmallVectorImpl<ast::Expr *> &parts,
                     std::u32string &literal);
  size_t fstringField(size_t begin, size_t end, strscan::Quote quote,
                      bool raw, int depth, ast::SourceRange whole,
                      llvm::SmallVectorImpl<ast::Expr *> &parts);
  ast::Expr *fstringExpression(size_t begin, size_t end);
  ast::Expr *makeJoinedStr(ast::SourceRange r,
                           llvm::ArrayRef<ast::Expr *> parts);
  /// Decodes `literal` (escapes, unless raw) and appends it to `out`.
  bool decodeLiteral(const std::u32string &literal, bool raw, bool bytes,
                     size_t at, std::string &out);
  void appendLiteralText(llvm::StringRef decoded, ast::SourceRange r,
                         llvm::SmallVectorImpl<ast::Expr *> &parts);
  void flushLiteral(std::u32string &literal, bool raw, size_t at,
                    ast::SourceRange r,
                    llvm::SmallVectorImpl<ast::Expr *> &parts);

  const SourceFile &file;
  ast::ASTContext &ctx;
  DiagnosticEngine &diags;
  const StackBudget &budget;
  /// Code-point index of the current run's input within the file: 0 for the
  /// file itself, the start of the expression text inside f-strings.
  size_t cpBase = 0;
  /// Inside nested runs the lexer's line numbers are relative; look lines up.
  bool nestedRun = false;
  bool failed = false;
  std::string scratch;
  std::vector<NewerSyntax> newer;
};

} // namespace detc::frontend

#endif // DETC_LIB_FRONTEND_ASTBUILDER_H

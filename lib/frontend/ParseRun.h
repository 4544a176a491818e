//===- ParseRun.h - One ANTLR lexer+parser over a range of code points ----===//
//
// Internal to lib/frontend. A ParseRun owns the ANTLR objects for one input
// (a whole file, or the expression of an f-string replacement field) and
// implements the two-stage strategy: SLL prediction with bail-out first, full
// LL with error reporting only when SLL fails.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_FRONTEND_PARSERUN_H
#define DETC_LIB_FRONTEND_PARSERUN_H

#include "ExclusiveSimulators.h"
#include "PythonLexer.h"
#include "PythonParser.h"
#include "PythonParserBase.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>

namespace detc::frontend {

/// An ANTLR char stream over code points we already decoded.
class CodePointStream : public antlr4::ANTLRInputStream {
public:
  CodePointStream(const char32_t *begin, const char32_t *end) {
    _data.assign(begin, end);
    p = 0;
  }
};

/// The first syntax error of a run, as a code-point index (relative to the
/// run's input) and a message.
struct SyntaxError {
  size_t index = 0;
  size_t line = 0; ///< Lexer line (relative to the run's input).
  std::string message;
};

class ParseRun {
public:
  /// `firstLine`: the line number of `begin` in its file (a piece of a
  /// file starts on a later line); token lines are then the file's.
  /// `indent`, `levels`: a piece of a block (PythonLexerBase::
  /// setBaseIndentation).
  ParseRun(const char32_t *begin, const char32_t *end, bool implicitJoining,
           const StackBudget &budget, size_t firstLine = 1, size_t indent = 0,
           size_t levels = 0);

  /// Parses with `entry` (a member function of PythonParser returning a
  /// context). Returns null on error; then getError() says why.
  template <typename Ctx> Ctx *run(Ctx *(PythonParser::*entry)()) {
    return static_cast<Ctx *>(runImpl([&] { return (parser.*entry)(); }));
  }

  const std::optional<SyntaxError> &getError() const { return error; }
  bool usedLLFallback() const { return llFallback; }
  size_t getNumTokens() { return tokens.size(); }

private:
  antlr4::ParserRuleContext *
  runImpl(llvm::function_ref<antlr4::ParserRuleContext *()> entry);
  void noteParseError(antlr4::Token *offending, std::string message);

  /// Held from before the lexer exists until after the parser is gone.
  ExclusiveParse exclusive;
  CodePointStream input;
  PythonLexer lexer;
  antlr4::CommonTokenStream tokens;
  PythonParser parser;
  std::optional<SyntaxError> error;
  bool llFallback = false;

  friend class SyntaxErrorListener;
};

} // namespace detc::frontend

#endif // DETC_LIB_FRONTEND_PARSERUN_H

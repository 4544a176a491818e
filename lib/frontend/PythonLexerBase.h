//===- PythonLexerBase.h - Context-sensitive part of the Python lexer ------===//
//
// The generated PythonLexer derives from this class. Everything that depends
// on context lives here so that the generated lexer has no semantic
// predicates and keeps its DFA cache: INDENT/DEDENT, implicit line joining
// inside brackets, blank and comment-only lines, string bodies, and lexical
// errors with CPython's wording.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_FRONTEND_PYTHONLEXERBASE_H
#define DETC_LIB_FRONTEND_PYTHONLEXERBASE_H

#include "antlr4-runtime.h"

#include <deque>
#include <string>
#include <vector>

namespace detc::frontend {

/// A lexical error at a code-point index of the lexer's input.
struct LexError {
  size_t index = 0; ///< Code-point index into the input.
  size_t line = 0;  ///< 1-based line (as counted by the lexer).
  std::string message;
};

class PythonLexerBase : public antlr4::Lexer {
public:
  explicit PythonLexerBase(antlr4::CharStream *input);

  std::unique_ptr<antlr4::Token> nextToken() override;
  void notifyListeners(const antlr4::LexerNoViableAltException &e) override;

  /// Lex as if inside brackets: no NEWLINE/INDENT/DEDENT at all. Used for the
  /// expressions of f-string replacement fields.
  void setImplicitLineJoining(bool on) { alwaysJoined = on; }

  /// Lex a piece of a block: the input's lines are indented by `column`
  /// spaces, `levels` blocks deep in their file. Its statements then start
  /// at that column without an INDENT and end without a DEDENT; the depth
  /// still counts towards kMaxIndentLevels.
  void setBaseIndentation(size_t column, size_t levels) {
    indents.assign(1, column);
    altIndents.assign(1, column);
    baseLevels = levels;
  }

  const std::vector<LexError> &getLexErrors() const { return lexErrors; }

  /// CPython's limits; beyond them CPython refuses the file as well.
  static constexpr size_t kMaxBracketDepth = 200;
  static constexpr size_t kMaxIndentLevels = 100;

private:
  struct OpenBracket {
    size_t type;
    size_t index;
    size_t line;
  };

  std::unique_ptr<antlr4::Token> makeToken(size_t type, size_t start,
                                           size_t stop, size_t line,
                                           size_t column);
  std::unique_ptr<antlr4::Token> scanStringBody(const antlr4::Token &start);
  /// Turns the NEWLINE token into NEWLINE/INDENT/DEDENT tokens in `pending`.
  void handleNewline(std::unique_ptr<antlr4::Token> newline);
  void handleEOF(std::unique_ptr<antlr4::Token> eof);
  bool handleBracket(const antlr4::Token &tok);
  void error(size_t index, size_t line, std::string message);

  std::deque<std::unique_ptr<antlr4::Token>> pending;
  std::vector<size_t> indents{0};    ///< Tabs to multiples of 8.
  std::vector<size_t> altIndents{0}; ///< Tabs as 1 (to detect TabError).
  std::vector<OpenBracket> brackets;
  std::vector<LexError> lexErrors;
  size_t baseLevels = 0; ///< Blocks outside the input (setBaseIndentation).
  bool alwaysJoined = false;
  bool emittedAny = false;
  bool lastWasNewline = true;
  bool finished = false;
};

} // namespace detc::frontend

#endif // DETC_LIB_FRONTEND_PYTHONLEXERBASE_H

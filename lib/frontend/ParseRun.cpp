//===- ParseRun.cpp - SLL-then-LL parsing with CPython-style messages -----===//

#include "ParseRun.h"

using namespace antlr4;

namespace detc::frontend {

/// Records the first syntax error of the LL pass with a readable message.
class SyntaxErrorListener : public BaseErrorListener {
public:
  explicit SyntaxErrorListener(ParseRun &run) : run(run) {}

  void syntaxError(Recognizer *recognizer, Token *offending, size_t line,
                   size_t charPositionInLine, const std::string &msg,
                   std::exception_ptr e) override {
    if (run.error)
      return;
    auto *parser = static_cast<Parser *>(recognizer);
    misc::IntervalSet expected;
    try {
      expected = parser->getExpectedTokens();
    } catch (...) {
      // getExpectedTokens() can throw for states without a follow set.
    }
    std::string newer = newerSyntax(parser->getTokenStream(), offending);
    run.noteParseError(offending,
                       !newer.empty()
                           ? newer
                           : describe(parser->getVocabulary(), offending,
                                      expected));
  }

private:
  /// Python 3.12 syntax detc does not read yet, recognised at the error:
  /// the message says which version detc reads instead of a bare
  /// "invalid syntax" (PEP 695 type parameters and `type` aliases, PEP 701
  /// f-strings nesting their own quotes).
  static std::string newerSyntax(TokenStream *tokens, Token *offending) {
    size_t at = offending ? offending->getTokenIndex() : 0;
    if (!tokens || at < 1 || at == INVALID_INDEX)
      return "";
    Token *prev = tokens->get(at - 1);
    Token *before = at >= 2 ? tokens->get(at - 2) : nullptr;
    const char *what = nullptr;
    if (offending->getType() == PythonLexer::LSQB &&
        prev->getType() == PythonLexer::NAME && before &&
        (before->getType() == PythonLexer::DEF ||
         before->getType() == PythonLexer::CLASS))
      what = "type parameters (`def f[T](x: T)`, `class C[T]`: PEP 695)";
    else if (offending->getType() == PythonLexer::NAME &&
             prev->getType() == PythonLexer::NAME && prev->getText() == "type")
      what = "a `type X = ...` alias (PEP 695)";
    else if (prev->getType() == PythonLexer::STRING &&
             cutInsideField(prev->getText()))
      what = "a replacement field holding the f-string's own quote "
             "(`f\"{x[\"a\"]}\"`: PEP 701)";
    if (!what)
      return "";
    return std::string("invalid syntax: ") + what +
           " is Python 3.12 syntax; detc reads Python 3.11";
  }

  /// Whether `text` is an f-string that ends inside a replacement field:
  /// in Python 3.11 its quote closed it early, where 3.12 (PEP 701) reads
  /// on to the field's end.
  static bool cutInsideField(const std::string &text) {
    size_t quote = text.find_first_of("'\"");
    if (quote == std::string::npos ||
        text.substr(0, quote).find_first_of("fF") == std::string::npos)
      return false;
    int depth = 0;
    for (size_t i = quote + 1; i < text.size(); ++i) {
      char c = text[i];
      if (depth == 0 && (c == '{' || c == '}') && i + 1 < text.size() &&
          text[i + 1] == c) {
        ++i; // `{{` or `}}`: a literal brace
        continue;
      }
      depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    }
    return depth > 0;
  }

  static std::string tokenName(const dfa::Vocabulary &vocab, size_t type) {
    std::string lit = vocab.getLiteralName(type);
    if (!lit.empty())
      return lit; // Already quoted: 'if'
    switch (type) {
    case PythonLexer::NAME:
      return "a name";
    case PythonLexer::NUMBER:
      return "a number";
    case PythonLexer::STRING:
      return "a string";
    case PythonLexer::NEWLINE:
      return "a new line";
    case PythonLexer::INDENT:
      return "an indented block";
    default:
      return vocab.getDisplayName(type);
    }
  }

  static std::string describe(const dfa::Vocabulary &vocab, Token *offending,
                              const misc::IntervalSet &exp) {
    size_t type = offending ? offending->getType() : Token::EOF;
    if (type == PythonLexer::INDENT)
      return "unexpected indent";
    if (exp.contains(static_cast<size_t>(PythonLexer::INDENT)) && type != PythonLexer::INDENT)
      return "expected an indented block";
    if (type == PythonLexer::DEDENT && !exp.contains(static_cast<size_t>(PythonLexer::DEDENT)))
      return "invalid syntax: unexpected end of block";
    if (type == Token::EOF)
      return "unexpected end of file";
    std::string msg = "invalid syntax";
    if (exp.size() == 1)
      return msg + ": expected " + tokenName(vocab, exp.getMinElement());
    if (type == PythonLexer::NEWLINE) {
      // `def f(x)` / `if x` without the colon: the colon is what is missing.
      if (exp.contains(static_cast<size_t>(PythonLexer::COLON)))
        return msg + ": expected ':'";
      return msg + ": unexpected end of line";
    }
    return msg + ": unexpected " + tokenName(vocab, type) +
           (type == PythonLexer::NAME || type == PythonLexer::NUMBER
                ? " '" + offending->getText() + "'"
                : "");
  }

  ParseRun &run;
};

ParseRun::ParseRun(const char32_t *begin, const char32_t *end,
                   bool implicitJoining, const StackBudget &budget,
                   size_t firstLine, size_t indent, size_t levels)
    : input(begin, end), lexer(&input), tokens(&lexer), parser(&tokens) {
  useExclusiveSimulators(lexer, parser);
  lexer.setImplicitLineJoining(implicitJoining);
  if (indent || levels)
    lexer.setBaseIndentation(indent, levels);
  lexer.setLine(firstLine);
  parser.removeErrorListeners();
  parser.setStackBudget(&budget);
}

void ParseRun::noteParseError(Token *offending, std::string message) {
  SyntaxError err;
  err.index = offending ? offending->getStartIndex() : 0;
  err.line = offending ? offending->getLine() : 1;
  err.message = std::move(message);
  error = std::move(err);
}

ParserRuleContext *
ParseRun::runImpl(llvm::function_ref<ParserRuleContext *()> entry) {
  ParserRuleContext *tree = nullptr;
  try {
    // Stage 1: SLL, give up at the first error.
    tokens.fill();
    parser.getInterpreter<atn::ParserATNSimulator>()->setPredictionMode(
        atn::PredictionMode::SLL);
    parser.setErrorHandler(std::make_shared<BailErrorStrategy>());
    try {
      tree = entry();
    } catch (ParseCancellationException &) {
      tree = nullptr;
    }
    if (!tree) {
      // Stage 2: full LL with error reporting. Also decides real errors.
      llFallback = true;
      tokens.seek(0);
      parser.reset();
      parser.getInterpreter<atn::ParserATNSimulator>()->setPredictionMode(
          atn::PredictionMode::LL);
      parser.setErrorHandler(std::make_shared<DefaultErrorStrategy>());
      SyntaxErrorListener listener(*this);
      parser.addErrorListener(&listener);
      tree = entry();
      parser.removeErrorListeners();
    }
  } catch (NestingTooDeep &deep) {
    noteParseError(deep.at, "too many nested expressions or blocks");
    return nullptr;
  } catch (std::exception &e) {
    // The ANTLR runtime should not throw anything else; if it does, the
    // input is not parsed, but the process survives.
    noteParseError(parser.getCurrentToken(),
                   std::string("internal parser error: ") + e.what());
    return nullptr;
  }

  // Lexical errors come first when they are not after the parse error: a
  // bad token usually causes the parse error.
  const std::vector<LexError> &lexErrors = lexer.getLexErrors();
  if (!lexErrors.empty() &&
      (!error || lexErrors.front().index <= error->index)) {
    error = SyntaxError{lexErrors.front().index, lexErrors.front().line,
                        lexErrors.front().message};
  }
  if (error)
    return nullptr;
  return tree;
}

} // namespace detc::frontend

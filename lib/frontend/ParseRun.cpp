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
    run.noteParseError(offending,
                       describe(parser->getVocabulary(), offending, expected));
  }

private:
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

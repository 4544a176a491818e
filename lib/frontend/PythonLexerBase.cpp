//===- PythonLexerBase.cpp - Context-sensitive part of the Python lexer ---===//

#include "PythonLexerBase.h"
#include "PythonLexer.h"
#include "StringScan.h"

using namespace antlr4;

namespace detc::frontend {

PythonLexerBase::PythonLexerBase(CharStream *input) : Lexer(input) {
  // Errors are collected in lexErrors; nothing goes to stderr.
  removeErrorListeners();
}

void PythonLexerBase::error(size_t index, size_t line, std::string message) {
  lexErrors.push_back({index, line, std::move(message)});
}

std::unique_ptr<Token> PythonLexerBase::makeToken(size_t type, size_t start,
                                                  size_t stop, size_t line,
                                                  size_t column) {
  return _factory->create({this, _input}, type, "",
                          Token::DEFAULT_CHANNEL, start, stop, line, column);
}

void PythonLexerBase::notifyListeners(const LexerNoViableAltException &e) {
  // ERROR_CHAR matches any single character, so the generated lexer never
  // fails; keep a message anyway in case the grammar changes.
  error(tokenStartCharIndex, tokenStartLine, "invalid token");
}

std::unique_ptr<Token> PythonLexerBase::nextToken() {
  while (pending.empty()) {
    if (finished) {
      // Callers may ask again after EOF; keep answering EOF.
      size_t at = _input->index();
      return makeToken(Token::EOF, at, at - 1, getLine(),
                       getCharPositionInLine());
    }
    std::unique_ptr<Token> tok = Lexer::nextToken();
    size_t type = tok->getType();
    switch (type) {
    case PythonLexer::NEWLINE:
      handleNewline(std::move(tok));
      continue;
    case Token::EOF:
      handleEOF(std::move(tok));
      continue;
    case PythonLexer::STRING_START:
      tok = scanStringBody(*tok);
      break;
    case PythonLexer::LPAR:
    case PythonLexer::LSQB:
    case PythonLexer::LBRACE:
    case PythonLexer::RPAR:
    case PythonLexer::RSQB:
    case PythonLexer::RBRACE:
      if (!handleBracket(*tok)) {
        // Too deeply nested: stop here (CPython refuses such files too) so
        // that the parser's recursion stays bounded.
        finished = true;
        size_t at = tok->getStartIndex();
        pending.push_back(makeToken(Token::EOF, at, at - 1, tok->getLine(),
                                    tok->getCharPositionInLine()));
        continue;
      }
      break;
    case PythonLexer::ERROR_CHAR: {
      std::string text = tok->getText();
      if (text == "\\")
        error(tok->getStartIndex(), tok->getLine(),
              "unexpected character after line continuation character");
      else if (static_cast<unsigned char>(text[0]) >= 0x80) {
        char buf[16];
        // Report the code point like CPython: invalid character '€' (U+20AC)
        std::u32string one = antlrcpp::utf8_to_utf32(text.data(),
                                                     text.data() + text.size());
        snprintf(buf, sizeof(buf), "U+%04X",
                 one.empty() ? 0u : static_cast<unsigned>(one[0]));
        error(tok->getStartIndex(), tok->getLine(),
              "invalid character '" + text + "' (" + buf + ")");
      } else if (text == "\t" || text == " ") {
        error(tok->getStartIndex(), tok->getLine(), "invalid whitespace");
      } else {
        error(tok->getStartIndex(), tok->getLine(),
              "invalid character '" + text + "' in source");
      }
      break;
    }
    default:
      break;
    }
    if (!emittedAny && !alwaysJoined &&
        tok->getCharPositionInLine() != indents.front() &&
        tok->getType() != Token::EOF)
      error(tok->getStartIndex(), tok->getLine(), "unexpected indent");
    emittedAny = true;
    lastWasNewline = false;
    return tok;
  }
  std::unique_ptr<Token> tok = std::move(pending.front());
  pending.pop_front();
  if (tok->getType() != Token::EOF)
    emittedAny = true;
  lastWasNewline = tok->getType() == PythonLexer::NEWLINE;
  return tok;
}

bool PythonLexerBase::handleBracket(const Token &tok) {
  size_t type = tok.getType();
  if (type == PythonLexer::LPAR || type == PythonLexer::LSQB ||
      type == PythonLexer::LBRACE) {
    if (brackets.size() >= kMaxBracketDepth) {
      error(tok.getStartIndex(), tok.getLine(), "too many nested parentheses");
      return false;
    }
    brackets.push_back({type, tok.getStartIndex(), tok.getLine()});
    return true;
  }
  std::string closing = tok.getText();
  if (brackets.empty()) {
    error(tok.getStartIndex(), tok.getLine(), "unmatched '" + closing + "'");
    return true;
  }
  OpenBracket open = brackets.back();
  brackets.pop_back();
  size_t expected = open.type == PythonLexer::LPAR   ? PythonLexer::RPAR
                    : open.type == PythonLexer::LSQB ? PythonLexer::RSQB
                                                     : PythonLexer::RBRACE;
  if (type != expected) {
    const char *openText = open.type == PythonLexer::LPAR   ? "("
                           : open.type == PythonLexer::LSQB ? "["
                                                            : "{";
    std::string msg = "closing parenthesis '" + closing +
                      "' does not match opening parenthesis '" + openText + "'";
    if (open.line != tok.getLine())
      msg += " on line " + std::to_string(open.line);
    error(tok.getStartIndex(), tok.getLine(), msg);
  }
  return true;
}

namespace {
/// The lexer's input as a strscan cursor.
class LexerCursor {
public:
  LexerCursor(CharStream *input, atn::LexerATNSimulator *sim)
      : input(input), sim(sim) {}
  char32_t peek(size_t k) const {
    size_t c = input->LA(static_cast<ssize_t>(k) + 1);
    return c == IntStream::EOF ? strscan::kEnd : static_cast<char32_t>(c);
  }
  void advance() { sim->consume(input); }

private:
  CharStream *input;
  atn::LexerATNSimulator *sim;
};
} // namespace

std::unique_ptr<Token> PythonLexerBase::scanStringBody(const Token &start) {
  // The token holds the prefix and the opening quote(s). Scan to the closing
  // quote(s) by hand. Backslash escapes the next character in every kind of
  // string, raw ones included (r'\'' is a valid raw string). An f-string's
  // replacement fields are followed (PEP 701: they may hold its quote).
  std::string opening = start.getText();
  strscan::Quote quote{static_cast<char32_t>(opening.back()), false};
  quote.triple = opening.size() >= 3 &&
                 opening[opening.size() - 2] == opening.back() &&
                 opening[opening.size() - 3] == opening.back();
  bool fstring = false, raw = false;
  for (char ch : opening) {
    fstring |= (ch | 0x20) == 'f';
    raw |= (ch | 0x20) == 'r';
  }
  LexerCursor cursor(_input, getInterpreter<atn::LexerATNSimulator>());
  strscan::Scanner<LexerCursor> scanner(cursor);
  strscan::Status status = scanner.body(quote, fstring, raw, 0);
  if (status == strscan::Status::TooDeep)
    error(start.getStartIndex(), start.getLine(), "too many nested f-strings");
  else if (status != strscan::Status::Closed)
    error(start.getStartIndex(), start.getLine(),
          std::string(quote.triple ? "unterminated triple-quoted string literal"
                                   : "unterminated string literal") +
              " (detected at line " + std::to_string(getLine()) + ")");
  return makeToken(PythonLexer::STRING, start.getStartIndex(),
                   _input->index() - 1, start.getLine(),
                   start.getCharPositionInLine());
}

void PythonLexerBase::handleNewline(std::unique_ptr<Token> newline) {
  if (alwaysJoined || !brackets.empty())
    return; // Implicit line joining.
  size_t next = _input->LA(1);
  // Blank and comment-only lines do not end a logical line; neither does the
  // end of the file here (handleEOF adds the final NEWLINE).
  if (next == '\n' || next == '\r' || next == '#' || next == IntStream::EOF)
    return;
  // A backslash continuation on an otherwise empty line joins with the next.
  if (next == '\\')
    return;

  // Indentation of the next line: the whitespace after the line break.
  std::string text = newline->getText();
  size_t col = 0, altCol = 0;
  for (char ch : text) {
    if (ch == ' ') {
      ++col;
      ++altCol;
    } else if (ch == '\t') {
      col = (col / 8 + 1) * 8;
      ++altCol;
    } else if (ch == '\f') {
      col = altCol = 0;
    } else {
      col = altCol = 0; // The line break itself.
    }
  }

  size_t start = newline->getStartIndex();
  size_t line = newline->getLine();
  size_t column = newline->getCharPositionInLine();
  size_t nextStart = newline->getStopIndex() + 1;
  size_t nextLine = getLine();
  size_t nextColumn = getCharPositionInLine();
  if (emittedAny && !lastWasNewline)
    pending.push_back(
        makeToken(PythonLexer::NEWLINE, start, start, line, column));

  if (col > indents.back()) {
    if (altCol <= altIndents.back())
      error(nextStart, nextLine,
            "inconsistent use of tabs and spaces in indentation");
    if (indents.size() + baseLevels > kMaxIndentLevels) {
      error(nextStart, nextLine, "too many levels of indentation");
      finished = true;
      pending.push_back(makeToken(Token::EOF, nextStart, nextStart - 1,
                                  nextLine, nextColumn));
      return;
    }
    if (!emittedAny)
      error(nextStart, nextLine, "unexpected indent");
    indents.push_back(col);
    altIndents.push_back(altCol);
    pending.push_back(makeToken(PythonLexer::INDENT, nextStart, nextStart - 1,
                                nextLine, nextColumn));
    return;
  }
  // (Never below the base: a piece of a block holds none of its dedents.)
  while (col < indents.back() && indents.size() > 1) {
    indents.pop_back();
    altIndents.pop_back();
    pending.push_back(makeToken(PythonLexer::DEDENT, nextStart, nextStart - 1,
                                nextLine, nextColumn));
  }
  if (col != indents.back())
    error(nextStart, nextLine,
          "unindent does not match any outer indentation level");
  else if (altCol != altIndents.back())
    error(nextStart, nextLine,
          "inconsistent use of tabs and spaces in indentation");
}

void PythonLexerBase::handleEOF(std::unique_ptr<Token> eof) {
  finished = true;
  size_t at = eof->getStartIndex();
  if (!brackets.empty() && !alwaysJoined) {
    const OpenBracket &open = brackets.back();
    const char *text = open.type == PythonLexer::LPAR   ? "("
                       : open.type == PythonLexer::LSQB ? "["
                                                        : "{";
    error(open.index, open.line, std::string("'") + text + "' was never closed");
  }
  if (!alwaysJoined) {
    if (emittedAny && !lastWasNewline)
      pending.push_back(makeToken(PythonLexer::NEWLINE, at, at - 1,
                                  eof->getLine(),
                                  eof->getCharPositionInLine()));
    for (size_t i = 1; i < indents.size(); ++i)
      pending.push_back(makeToken(PythonLexer::DEDENT, at, at - 1,
                                  eof->getLine(),
                                  eof->getCharPositionInLine()));
    indents.resize(1);
    altIndents.resize(1);
  }
  pending.push_back(std::move(eof));
}

} // namespace detc::frontend

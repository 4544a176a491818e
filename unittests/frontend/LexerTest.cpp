//===- LexerTest.cpp - Token streams of the Python lexer ------------------===//

#include "PythonLexer.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace detc::frontend;

namespace {

struct Lexed {
  std::vector<std::string> tokens; ///< Symbolic name, or NAME:text etc.
  std::vector<LexError> errors;
};

Lexed lex(const std::string &source) {
  antlr4::ANTLRInputStream input(source);
  PythonLexer lexer(&input);
  Lexed out;
  while (true) {
    std::unique_ptr<antlr4::Token> tok = lexer.nextToken();
    size_t type = tok->getType();
    if (type == antlr4::Token::EOF)
      break;
    std::string name(lexer.getVocabulary().getSymbolicName(type));
    if (type == PythonLexer::NAME || type == PythonLexer::NUMBER ||
        type == PythonLexer::STRING)
      name += ":" + tok->getText();
    out.tokens.push_back(name);
    if (out.tokens.size() > 10000)
      break;
  }
  out.errors = lexer.getLexErrors();
  return out;
}

using Tokens = std::vector<std::string>;

TEST(LexerTest, IndentAndDedent) {
  Lexed l = lex("if x:\n    y\n    if z:\n        w\nv\n");
  EXPECT_EQ(l.tokens,
            (Tokens{"IF", "NAME:x", "COLON", "NEWLINE", "INDENT", "NAME:y",
                    "NEWLINE", "IF", "NAME:z", "COLON", "NEWLINE", "INDENT",
                    "NAME:w", "NEWLINE", "DEDENT", "DEDENT", "NAME:v",
                    "NEWLINE"}));
  EXPECT_TRUE(l.errors.empty());
}

TEST(LexerTest, DedentsAtEndOfFileWithoutNewline) {
  Lexed l = lex("def f():\n  if a:\n    b");
  EXPECT_EQ(l.tokens, (Tokens{"DEF", "NAME:f", "LPAR", "RPAR", "COLON",
                              "NEWLINE", "INDENT", "IF", "NAME:a", "COLON",
                              "NEWLINE", "INDENT", "NAME:b", "NEWLINE",
                              "DEDENT", "DEDENT"}));
}

TEST(LexerTest, BlankAndCommentLinesAreIgnored) {
  Lexed l = lex("a\n\n   \n  # comment\n\t\nb  # trailing\n");
  EXPECT_EQ(l.tokens, (Tokens{"NAME:a", "NEWLINE", "NAME:b", "NEWLINE"}));
  EXPECT_TRUE(l.errors.empty());
}

TEST(LexerTest, ImplicitLineJoiningInsideBrackets) {
  Lexed l = lex("f(a,\n      b,\n  [c,\n d])\n");
  EXPECT_EQ(l.tokens, (Tokens{"NAME:f", "LPAR", "NAME:a", "COMMA", "NAME:b",
                              "COMMA", "LSQB", "NAME:c", "COMMA", "NAME:d",
                              "RSQB", "RPAR", "NEWLINE"}));
}

TEST(LexerTest, BackslashContinuation) {
  Lexed l = lex("x = 1 + \\\n    2\n");
  EXPECT_EQ(l.tokens, (Tokens{"NAME:x", "ASSIGN", "NUMBER:1", "PLUS",
                              "NUMBER:2", "NEWLINE"}));
}

TEST(LexerTest, StringsOfEveryKind) {
  Lexed l = lex("a = 'x' \"y\" r'\\'' b'\\x00' Rb'q' f'{a!r:>{w}}' "
                "'''tri\nple''' \"\"\"q\"\"\"\n");
  EXPECT_EQ(l.tokens,
            (Tokens{"NAME:a", "ASSIGN", "STRING:'x'", "STRING:\"y\"",
                    "STRING:r'\\''", "STRING:b'\\x00'", "STRING:Rb'q'",
                    "STRING:f'{a!r:>{w}}'", "STRING:'''tri\nple'''",
                    "STRING:\"\"\"q\"\"\"", "NEWLINE"}));
  EXPECT_TRUE(l.errors.empty());
}

TEST(LexerTest, FStringWithNestedQuotesIsOneToken) {
  Lexed l = lex("f\"{d['key']!r} {x:{'>'}10}\"\n");
  ASSERT_EQ(l.tokens.size(), 2u);
  EXPECT_EQ(l.tokens[0], "STRING:f\"{d['key']!r} {x:{'>'}10}\"");
}

TEST(LexerTest, PrefixLettersAloneAreNames) {
  Lexed l = lex("rb = f + u\n");
  EXPECT_EQ(l.tokens, (Tokens{"NAME:rb", "ASSIGN", "NAME:f", "PLUS",
                              "NAME:u", "NEWLINE"}));
}

TEST(LexerTest, NumbersOfEveryForm) {
  Lexed l = lex("0 00 1_000 0xFF 0o17 0b1_0 1.5 1. .5 1e10 1.5E-3 1_0.0_1 "
                "3j 1.5J 1e3j\n");
  EXPECT_EQ(l.tokens,
            (Tokens{"NUMBER:0", "NUMBER:00", "NUMBER:1_000", "NUMBER:0xFF",
                    "NUMBER:0o17", "NUMBER:0b1_0", "NUMBER:1.5", "NUMBER:1.",
                    "NUMBER:.5", "NUMBER:1e10", "NUMBER:1.5E-3",
                    "NUMBER:1_0.0_1", "NUMBER:3j", "NUMBER:1.5J",
                    "NUMBER:1e3j", "NEWLINE"}));
}

TEST(LexerTest, KeywordsSoftKeywordsAndUnicodeNames) {
  Lexed l = lex("match = case; café = λ\n");
  EXPECT_EQ(l.tokens, (Tokens{"MATCH", "ASSIGN", "CASE", "SEMI",
                              "NAME:café", "ASSIGN", "NAME:λ", "NEWLINE"}));
}

TEST(LexerTest, CRLFLineEnds) {
  Lexed l = lex("if a:\r\n    b\r\nc\r\n");
  EXPECT_EQ(l.tokens, (Tokens{"IF", "NAME:a", "COLON", "NEWLINE", "INDENT",
                              "NAME:b", "NEWLINE", "DEDENT", "NAME:c",
                              "NEWLINE"}));
  EXPECT_TRUE(l.errors.empty());
}

TEST(LexerTest, TabsCountToMultiplesOfEight) {
  // A tab and eight spaces are the same level when used consistently.
  Lexed ok = lex("if a:\n\tb\n\tc\n");
  EXPECT_TRUE(ok.errors.empty());
  Lexed mixed = lex("if a:\n\tb\n        c\n");
  ASSERT_EQ(mixed.errors.size(), 1u);
  EXPECT_EQ(mixed.errors[0].message,
            "inconsistent use of tabs and spaces in indentation");
}

TEST(LexerTest, OperatorsLongestMatch) {
  Lexed l = lex("a **= b // c ->d := e != f ... <<= >>= @=\n");
  EXPECT_EQ(l.tokens,
            (Tokens{"NAME:a", "POWER_ASSIGN", "NAME:b", "DSLASH", "NAME:c",
                    "ARROW", "NAME:d", "WALRUS", "NAME:e", "NE", "NAME:f",
                    "ELLIPSIS", "LSHIFT_ASSIGN", "RSHIFT_ASSIGN", "AT_ASSIGN",
                    "NEWLINE"}));
}

TEST(LexerTest, ErrorsAreReportedWithPositions) {
  Lexed unterminated = lex("x = 'abc\n");
  ASSERT_FALSE(unterminated.errors.empty());
  EXPECT_EQ(unterminated.errors[0].index, 4u);
  EXPECT_EQ(unterminated.errors[0].message,
            "unterminated string literal (detected at line 1)");

  Lexed dedent = lex("if a:\n    b\n  c\n");
  ASSERT_FALSE(dedent.errors.empty());
  EXPECT_EQ(dedent.errors[0].message,
            "unindent does not match any outer indentation level");

  Lexed closed = lex("f(a]\n");
  ASSERT_FALSE(closed.errors.empty());
  EXPECT_EQ(closed.errors[0].message,
            "closing parenthesis ']' does not match opening parenthesis '('");

  Lexed open = lex("f(a,\n");
  ASSERT_FALSE(open.errors.empty());
  EXPECT_EQ(open.errors[0].message, "'(' was never closed");
}

} // namespace

//===- LineSplitTest.cpp - statements sharing a line, split ---------------===//

#include "detc/codegen/LineSplit.h"

#include "gtest/gtest.h"

using namespace detc;
using namespace detc::codegen;

namespace {

/// `src` with the lines of the statements starting at the first byte of
/// each of `at` split; "" when splitShared refuses.
std::string split(llvm::StringRef src, std::vector<llvm::StringRef> at) {
  std::vector<uint32_t> offsets;
  for (llvm::StringRef s : at) {
    size_t o = src.find(s);
    EXPECT_NE(o, llvm::StringRef::npos) << s.str();
    offsets.push_back(uint32_t(o));
  }
  Relayout r(src);
  if (!r.splitShared(offsets))
    return "";
  return r.text().str();
}

TEST(LineSplit, SemicolonsBecomeLinesAtTheStatementsIndentation) {
  EXPECT_EQ(split("for x in y:\n    a(); b() ;c()  # note\n    d()\n",
                  {"b()"}),
            "for x in y:\n    a()\n    b()\n    c()  # note\n    d()\n");
  // Only the lines asked for.
  EXPECT_EQ(split("a(); b()\nc(); d()\n", {"d()"}), "a(); b()\nc()\nd()\n");
}

TEST(LineSplit, ABodyOnItsHeadersLineMovesUnderItWhole) {
  EXPECT_EQ(split("if c: a(); b()\n", {"b()"}), "if c:\n    a()\n    b()\n");
  // `elif`, `else`, `except` and `finally` bodies sit below their own
  // clause, whose indentation is the statement's.
  EXPECT_EQ(split("def f():\n  if c: a()\n  elif d: b(); e()\n  else: g()\n",
                  {"e()", "g()"}),
            "def f():\n  if c: a()\n  elif d:\n      b()\n      e()\n"
            "  else:\n      g()\n");
  EXPECT_EQ(split("try: a()\nexcept E: b(); c()\nfinally: d()\n",
                  {"a()", "c()", "d()"}),
            "try:\n    a()\nexcept E:\n    b()\n    c()\nfinally:\n    d()\n");
  // Bodies nested in a body that moved keep their place.
  EXPECT_EQ(split("while c: a(); b()\nelse: d()\n", {"a()"}),
            "while c:\n    a()\n    b()\nelse: d()\n");
}

TEST(LineSplit, IndentationFollowsTheFile) {
  // Tabs stay tabs; a header continued on a line that starts further left
  // than the statement indents below the statement.
  EXPECT_EQ(split("if c:\n\tif d: a(); b()\n", {"b()"}),
            "if c:\n\tif d:\n\t\ta()\n\t\tb()\n");
  EXPECT_EQ(split("def f():\n        if (c and\n d): a(); b()\n", {"b()"}),
            "def f():\n        if (c and\n d):\n            a()\n"
            "            b()\n");
  // CRLF files get CRLF breaks.
  EXPECT_EQ(split("a(); b()\r\nc()\r\n", {"b()"}), "a()\r\nb()\r\nc()\r\n");
}

TEST(LineSplit, MultiLineStatementsMoveWhole) {
  EXPECT_EQ(split("x = [1,\n     2]; save(x,\n  'f')\n", {"save"}),
            "x = [1,\n     2]\nsave(x,\n  'f')\n");
}

TEST(LineSplit, RefusesWhatItCannotSplit) {
  // Nothing shares the line.
  EXPECT_EQ(split("a()\nb()\n", {"b()"}), "");
  // The next statement is on a continuation line: nothing to move.
  EXPECT_EQ(split("a(); \\\n  b()\n", {"a()"}), "");
  // Not Python.
  EXPECT_EQ(split("a(); b(\n", {"b("}), "");
}

TEST(LineSplit, DiagnosticsAndLinesAreTheUsers) {
  std::string src = "import t\nif c: a(); bad()\nlast()\n";
  Relayout r(src);
  ASSERT_TRUE(r.splitShared({uint32_t(src.find("bad"))}));
  ASSERT_EQ(r.text(), "import t\nif c:\n    a()\n    bad()\nlast()\n");
  EXPECT_EQ(r.userLine(1), 1u);
  EXPECT_EQ(r.userLine(3), 2u);
  EXPECT_EQ(r.userLine(4), 2u);
  EXPECT_EQ(r.userLine(5), 3u);
  EXPECT_EQ(r.movedLines(), (std::vector<unsigned>{3, 4}));
  EXPECT_EQ(r.userOffset(uint32_t(r.text().find("bad"))),
            uint32_t(src.find("bad")));
  frontend::Diagnostic d;
  d.file = "x.py";
  d.pos = {4, 4, 0}; // `bad` in the split text
  d.lineText = "    bad()";
  frontend::Diagnostic u = r.toUser(d, "x.py");
  EXPECT_EQ(u.pos.line, 2u);
  EXPECT_EQ(u.pos.column, 11u);
  EXPECT_EQ(u.lineText, "if c: a(); bad()");
  // Another file's diagnostic is left alone.
  EXPECT_EQ(r.toUser(d, "y.py").pos.line, 4u);
  // A line of detc's own has no user line; the lines after it keep theirs.
  r.insertLine(uint32_t(r.text().find("last")), "hint()");
  EXPECT_EQ(r.userLine(5), 0u);
  EXPECT_EQ(r.userLine(6), 3u);
  EXPECT_EQ(r.userText(), src);
}

TEST(Reindent, TwoSpaceBlocksGetThreeColumnsOrMoreStringsKeepTheirBytes) {
  std::string src = "def f(x):\n"
                    "  s = '''a\n"
                    "  b'''\n"
                    "  y = g(1,\n"
                    " 2)\n"
                    "\n"
                    "  # c\n"
                    "  if x: \\\n"
                    "  return 1\n"
                    "  return y\n";
  Relayout r(src);
  ASSERT_TRUE(r.widenIndentation(3));
  EXPECT_EQ(r.text(), "def f(x):\n"
                      "    s = '''a\n"
                      "  b'''\n"
                      "    y = g(1,\n"
                      " 2)\n"
                      "\n"
                      "  # c\n"
                      "    if x: \\\n"
                      "  return 1\n"
                      "    return y\n");
  // Re-indented lines are no statements moved to lines of their own.
  EXPECT_TRUE(r.movedLines().empty());
  EXPECT_EQ(r.userLine(10), 10u);
  EXPECT_EQ(r.userOffset(uint32_t(r.text().find("return y"))),
            uint32_t(src.find("return y")));
  frontend::Diagnostic d;
  d.file = "x.py";
  d.pos = {10, 11, 0}; // `y` of `return y` in the re-indented text
  frontend::Diagnostic u = r.toUser(d, "x.py");
  EXPECT_EQ(u.pos.line, 10u);
  EXPECT_EQ(u.pos.column, 9u);
  EXPECT_EQ(u.lineText, "  return y");
}

TEST(Reindent, TabsExpandAndWideScriptsStayAsTheyAre) {
  Relayout tabs("if a:\n\tb()\n\tif c:\n\t\td()\n");
  ASSERT_TRUE(tabs.widenIndentation(3));
  EXPECT_EQ(tabs.text(),
            "if a:\n        b()\n        if c:\n                d()\n");
  // One space: three times as wide.
  Relayout one("if a:\n b()\n");
  ASSERT_TRUE(one.widenIndentation(3));
  EXPECT_EQ(one.text(), "if a:\n   b()\n");
  Relayout wide("if a:\n    b()\n");
  EXPECT_FALSE(wide.widenIndentation(3));
  EXPECT_TRUE(wide.identity());
  // A form feed in an indentation resets Python's column count: left alone.
  Relayout feed("if a:\n\f  b()\n");
  EXPECT_FALSE(feed.widenIndentation(3));
}

} // namespace

//===- PiecewiseParseTest.cpp - Parsing a file in pieces ------------------===//
//
// The parser cuts large files into pieces of whole top-level statements
// (ChunkSplit.h). The AST, positions and syntax errors must not depend on
// where the cuts fall: every test parses with pieces of one code point
// (cut at every possible boundary) and with the whole file at once.
//
//===----------------------------------------------------------------------===//

#include "ChunkSplit.h"

#include "detc/frontend/ASTDump.h"
#include "detc/frontend/Parser.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

using namespace detc;
using namespace detc::frontend;

namespace {

/// The AST dump (with positions) or the diagnostics of parsing `src`.
std::string parseWith(const std::string &src, size_t piece) {
  DiagnosticEngine diags;
  auto file = SourceFile::fromBytes("t.py", src, diags);
  std::string out;
  llvm::raw_string_ostream os(out);
  if (file)
    if (auto m = parseModule(*file, diags, piece))
      ast::dumpJSON(m->module, *file, os);
  diags.printAll(os);
  return out;
}

/// Where pieces start (at any depth).
std::vector<size_t> cuts(const std::string &src) {
  std::u32string s(src.begin(), src.end()); // ASCII tests
  std::vector<size_t> starts;
  for (const Piece &p : splitPieces(s, 1))
    starts.push_back(p.start);
  return starts;
}

TEST(ChunkSplit, CutsBeforeEachTopLevelStatement) {
  EXPECT_EQ(cuts("a = 1\nb = 2\n\nc = 3\n"), (std::vector<size_t>{0, 6, 13}));
}

TEST(ChunkSplit, NeverCutsInsideAStatement) {
  // Brackets, strings (triple-quoted, escaped quotes, '#' inside),
  // backslash continuations, comments and indented lines at column 0 of
  // nothing.
  EXPECT_EQ(cuts("x = (1,\n2)\ny = 1\n"), (std::vector<size_t>{0, 11}));
  EXPECT_EQ(cuts("s = '''\nz = 1\n'''\nq = 2\n"),
            (std::vector<size_t>{0, 18}));
  EXPECT_EQ(cuts("s = 'a\\'#\\\nz'\nq = 2\n"), (std::vector<size_t>{0, 14}));
  EXPECT_EQ(cuts("x = 1 + \\\n2\ny = 3\n"), (std::vector<size_t>{0, 12}));
  EXPECT_EQ(cuts("# c\nx = 1\n# d\n"), (std::vector<size_t>{0, 4}));
}

TEST(ChunkSplit, KeepsClausesAndDecoratorsWithTheirStatement) {
  EXPECT_EQ(cuts("if a:\n  b\nelse:\n  c\nd\n"),
            (std::vector<size_t>{0, 20}));
  EXPECT_EQ(cuts("try:\n  a\nexcept E:\n  b\nfinally:\n  c\nelsewhere = 1\n"),
            (std::vector<size_t>{0, 36}));
  EXPECT_EQ(cuts("@dec\n@dec2\ndef f():\n  pass\nx = 1\n"),
            (std::vector<size_t>{0, 27}));
}

TEST(ChunkSplit, StopsCuttingAtWhatItCannotFollow) {
  // Unterminated string, unbalanced bracket: the rest is one piece.
  EXPECT_EQ(cuts("a = 1\ns = 'x\nb = 2\n"), (std::vector<size_t>{0, 6}));
  EXPECT_EQ(cuts("a = 1\nb = (\nc = 2\n"), (std::vector<size_t>{0, 6}));
  EXPECT_EQ(cuts("a = 1\nb = )\nc = 2\n"), (std::vector<size_t>{0, 6}));
}

} // namespace

namespace detc::frontend {
void PrintTo(const Piece &p, std::ostream *os) {
  *os << "{" << p.start << ", depth " << p.depth << ", indent " << p.indent
      << "}";
}
} // namespace detc::frontend

namespace {

std::vector<Piece> pieces(const std::string &src) {
  std::u32string s(src.begin(), src.end());
  return splitPieces(s, 1);
}

TEST(ChunkSplit, CutsInsideTheBlockALargeStatementEndsWith) {
  // Not before a block's first statement (the header would have none), not
  // before `b` (the `else` after it dedents out of the piece); after a
  // piece inside a block, the next top-level statement starts one.
  const char *src = "def main():\n"       // 0
                    "    a = 1\n"         // 12
                    "    b = 2\n"         // 22
                    "    if x:\n"         // 32
                    "        c = 3\n"     // 42
                    "        d = 4\n"     // 56
                    "y = 5\n";            // 70
  EXPECT_EQ(pieces(src), (std::vector<Piece>{{0, 0, 0},
                                             {22, 1, 4},
                                             {32, 1, 4},
                                             {56, 2, 8},
                                             {70, 0, 0}}));
  EXPECT_EQ(pieces("if a:\n  b\n  c\nelse:\n  d\n  e\n"),
            (std::vector<Piece>{{0, 0, 0}, {24, 1, 2}}));
  // Clauses and a decorated method stay with their statement.
  EXPECT_EQ(pieces("class A:\n    x = 1\n    @dec\n    def f(self):\n"
                   "        pass\n    try:\n        a\n    finally:\n"
                   "        b\n"),
            (std::vector<Piece>{{0, 0, 0}, {19, 1, 4}, {58, 1, 4}}));
}

TEST(ChunkSplit, DoesNotCutWhereTheLexerWouldSeeSomethingElse) {
  // case lines are not statements; tabs; inconsistent dedent; a header
  // with no block; an unterminated string after the statement began.
  for (const char *src : {
           "match p:\n    case 1:\n        a\n        b\n",
           "def f():\n\ta\n\tb\n",
           "def f():\n    a\n    b\n  c\n",
           "def f():\n    a\n    if b:\n    c\n",
           "def f():\n    a\n    b\n    s = 'x\n",
       })
    EXPECT_EQ(pieces(src), (std::vector<Piece>{{0, 0, 0}})) << src;
}

TEST(PiecewiseParse, SameASTWhereverTheCutsFall) {
  const char *sources[] = {
      "import os\n\n@dec(1)\nclass A(B):\n    x = '''\ny = 2\n'''\n\n"
      "    def f(self, *a, **k):\n        return [i for i in a]\n\n"
      "if x:\n    pass\nelif y:\n    pass\nelse:\n    z = (1,\n2)\n"
      "try:\n    q = 1\nexcept E as e:\n    raise\nfinally:\n    r = 2\n"
      "v = 1 + \\\n  2\nw = f'{v!r:>10}' 'tail'\n# trailing comment\n",
      "async def g():\n    async with a as b:\n        await b\n"
      "match p:\n    case [1, *rest]:\n        pass\n    case _:\n"
      "        pass\nlambda x: x\n",
      "x = 1\r\ny = 2\r\nif x:\r\n    y = 3\r\n",
      // Long blocks of every kind, cut inside.
      "def main():\n    a = 1\n    for i in x:\n        b = i\n"
      "        c = i\n    else:\n        d = 1\n        e = 2\n"
      "    while y:\n        f = 1\n        g = 2\n"
      "    if p:\n        h = 1\n    elif q:\n        i = 1\n"
      "        j = 2\n    elif r:\n        k = 1\n        l = 2\n"
      "    with m as n:\n        o = 1\n        p = 2\n"
      "    try:\n        q = 1\n    except E:\n        r = 1\n"
      "        s = 2\n    try:\n        t = 1\n    except E:\n"
      "        pass\n    else:\n        u = 1\n        v = 2\n"
      "    class C:\n        w = 1\n        @property\n"
      "        def z(self):\n            return 1\n"
      "            # comment\n\n            return 2\n"
      "    async def g():\n        await h\n        await i\n"
      "x = main()\n",
      "if a:\n    b = 1\nelse:\n    if c:\n        d = 1\n"
      "        e = 2\n    else:\n        f = 1\n        g = 2\n",
  };
  for (const char *src : sources)
    EXPECT_EQ(parseWith(src, 1), parseWith(src, kParsePieceCodePoints)) << src;
}

TEST(PiecewiseParse, SameErrorsWhereverTheCutsFall) {
  const char *sources[] = {
      "a = 1\nb = (2,\nc = 3\n",    // never closed
      "a = 1\nb = 2)\n",            // unmatched
      "a = 1\n  b = 2\n",           // unexpected indent
      "a = 1\nelse:\n    pass\n",   // else without if
      "a = 1\ns = 'abc\nb = 2\n",   // unterminated string
      "def f(:\n    pass\nx = 1\n", // error in the first piece
      "x = 1\ny = 2\nz = = 3\n",    // error in the last piece
      // Errors inside a block that is cut.
      "def f():\n    a = 1\n    b = = 2\n",
      "def f():\n    a = 1\n  b = 2\n",
      "def f():\n    a = 1\n        b = 2\n",
      "def f():\n    a = 1\n    if x:\n    b = 2\n",
      "def f():\n    a = 1\n    else:\n        pass\n",
      "def f():\n    a = 1\n    @dec\n    b = 2\n",
      "class A:\n    def f(self):\n        a = (1,\n        b = 2\n",
      "def f():\n    a = 1\n    b = 2\nif x:\n",
  };
  for (const char *src : sources) {
    std::string whole = parseWith(src, kParsePieceCodePoints);
    EXPECT_NE(whole.find("error:"), std::string::npos) << src;
    EXPECT_EQ(parseWith(src, 1), whole) << src;
  }
}

TEST(PiecewiseParse, IndentationLimitCountsTheBlocksAroundAPiece) {
  // 101 nested blocks, each with a statement before the next: pieces start
  // deep inside, and the lexer still counts the levels outside them.
  std::string src;
  for (int d = 0; d <= 101; ++d) {
    std::string pad(4 * d, ' ');
    src += pad + "a = 1\n" + pad + "if a:\n";
  }
  src += std::string(4 * 102, ' ') + "pass\n";
  std::string whole = parseWith(src, kParsePieceCodePoints);
  EXPECT_NE(whole.find("too many levels of indentation"), std::string::npos);
  EXPECT_EQ(parseWith(src, 1), whole);
}

TEST(PiecewiseParse, StandardLibraryParsesTheSameInPieces) {
  // Real code: every module of the standard library's top directory.
  std::error_code ec;
  unsigned files = 0;
  for (llvm::sys::fs::directory_iterator it("/usr/lib/python3.11", ec), end;
       it != end && !ec; it.increment(ec)) {
    if (llvm::sys::path::extension(it->path()) != ".py")
      continue;
    auto buf = llvm::MemoryBuffer::getFile(it->path());
    if (!buf)
      continue;
    std::string src = (*buf)->getBuffer().str();
    EXPECT_EQ(parseWith(src, 1), parseWith(src, kParsePieceCodePoints))
        << it->path();
    ++files;
  }
  EXPECT_GT(files, 100u);
}

} // namespace

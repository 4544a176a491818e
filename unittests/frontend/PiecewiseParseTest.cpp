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
      ast::dumpJSON(m->module, os);
  diags.printAll(os);
  return out;
}

std::vector<size_t> cuts(const std::string &src) {
  std::u32string s(src.begin(), src.end()); // ASCII tests
  return chunkStarts(s, 1);
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
  };
  for (const char *src : sources) {
    std::string whole = parseWith(src, kParsePieceCodePoints);
    EXPECT_NE(whole.find("error:"), std::string::npos) << src;
    EXPECT_EQ(parseWith(src, 1), whole) << src;
  }
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

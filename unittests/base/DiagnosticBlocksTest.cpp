//===- DiagnosticBlocksTest.cpp - Merging files' diagnostics --------------===//

#include "detc/base/DiagnosticBlocks.h"

#include "gtest/gtest.h"

using namespace detc::base;

namespace {

const char *kTrain =
    "conf/__init__.py:12:17: warning: 'setattr' changes the program\n"
    "    setattr(self, a, b)\n"
    "    ^\n"
    "train.py:3:1: warning: cannot resolve import 'x'\n"
    "train.py:3:1: note: looked in .\n";
const char *kTest =
    "conf/__init__.py:12:17: warning: 'setattr' changes the program\n"
    "    setattr(self, a, b)\n"
    "    ^\n"
    "test.py:9:2: error: invalid syntax\n"
    "conf/__init__.py:2:8: warning: cannot resolve import 'y'\n"
    "conf/__init__.py:2:8: note: looked for it in ., conf\n";
// The same module imported by a script in another folder: the same
// warning, another note.
const char *kTools =
    "conf/__init__.py:2:8: warning: cannot resolve import 'y'\n"
    "conf/__init__.py:2:8: note: looked for it in tools, conf\n";

TEST(DiagnosticBlocks, ABlockIsALocatedDiagnosticWithItsExcerptAndNotes) {
  std::vector<llvm::StringRef> blocks = splitDiagnosticBlocks(kTrain);
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_TRUE(blocks[0].ends_with("    ^\n"));
  EXPECT_TRUE(blocks[1].starts_with("train.py:3:1: warning:"));
  EXPECT_TRUE(blocks[1].ends_with("note: looked in .\n"));
}

TEST(DiagnosticBlocks, AModulesWarningIsPrintedOncePerProject) {
  llvm::StringSet<> seen;
  std::string out;
  appendNewDiagnostics(kTrain, seen, out);
  appendNewDiagnostics(kTest, seen, out);
  appendNewDiagnostics(kTools, seen, out);
  EXPECT_EQ(out, std::string(kTrain) + "test.py:9:2: error: invalid syntax\n" +
                     "conf/__init__.py:2:8: warning: cannot resolve import "
                     "'y'\nconf/__init__.py:2:8: note: looked for it in ., "
                     "conf\n");
}

TEST(DiagnosticBlocks, TextWithoutALocationIsKeptWhole) {
  // A colon-separated message that is no FILE:LINE:COL stays in its block.
  const char *text = "detc: note: a: b: warning: c\nmore\n";
  std::vector<llvm::StringRef> blocks = splitDiagnosticBlocks(text);
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0], text);
  EXPECT_TRUE(splitDiagnosticBlocks("").empty());
}

} // namespace

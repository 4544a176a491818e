//===- SourceEditsTest.cpp - byte-exact edits and their diff --------------===//

#include "detc/codegen/SourceEdits.h"

#include "gtest/gtest.h"

using namespace detc::codegen;

namespace {

TEST(SourceEdits, NoEditsIsTheIdentity) {
  std::string src = "a = 1\r\n\r\nb = '\\xff'  # c\n  last";
  EditList e(src);
  EXPECT_EQ(e.apply(), src);
  EXPECT_EQ(e.diff("a", "b"), "--- a\n+++ b\n");
}

TEST(SourceEdits, WrapsNestAtSharedPositions) {
  std::string src = "y = f(g(x))\n";
  EditList e(src);
  // Outer span f(g(x)) = [4, 11), inner g(x) = [6, 10), both wrapped, and a
  // second wrap starting where the outer one does.
  e.wrap(6, 10, "<", ">");
  e.wrap(4, 11, "[", "]");
  e.wrap(4, 5, "(", ")");
  e.note(1, "why");
  EXPECT_EQ(e.apply(), "y = [(f)(<g(x)>)]  # detc: why\n");
}

TEST(SourceEdits, InsertedLinesAndNotesKeepLineBreaks) {
  std::string src = "#!/usr/bin/env python3\r\nimport os\r\nx = os.sep\r\n";
  EditList e(src);
  EXPECT_EQ(e.lineBreak(), "\r\n");
  e.insertLines(2, {"import a", "a.go()"}, "runtime");
  e.note(3, "one");
  e.note(3, "two");
  e.note(3, "one"); // repeated notes appear once
  EXPECT_EQ(e.apply(), "#!/usr/bin/env python3\r\n"
                       "import a  # detc: runtime\r\n"
                       "a.go()  # detc: runtime\r\n"
                       "import os\r\n"
                       "x = os.sep  # detc: one; two\r\n");
}

TEST(SourceEdits, LinesOfTheNextStatementComeAfterTheOthers) {
  // A checkpoint's announcement belongs to the statement it precedes; the
  // restore code after a hint (inserted at the same line, even later)
  // belongs to the statement before, and runs first. `global` goes ahead
  // of both.
  EditList e("hint()\nif t:\n    save()\n");
  e.insertLinesOfNext(2, {"announce()"}, "a");
  e.insertLines(2, {"if restoring():", "    load()"}, "r");
  e.insertNotedLines(2, {{"global g", "g"}});
  EXPECT_EQ(e.apply(), "hint()\n"
                       "global g  # detc: g\n"
                       "if restoring():  # detc: r\n"
                       "    load()  # detc: r\n"
                       "announce()  # detc: a\n"
                       "if t:\n    save()\n");
  std::vector<EditList::NotedLine> taken = e.takeLines(2);
  ASSERT_EQ(taken.size(), 4u);
  EXPECT_EQ(taken.back().first, "announce()");
}

TEST(SourceEdits, DiffShowsOnlyTheEdits) {
  std::string src;
  for (int i = 1; i <= 20; ++i)
    src += "line" + std::to_string(i) + "\n";
  EditList e(src);
  e.wrap(src.find("line3"), src.find("line3") + 5, "<", ">");
  e.insertLines(18, {"new"}, "n");
  std::string d = e.diff("old", "new");
  EXPECT_EQ(d, "--- old\n+++ new\n"
               "@@ -1,6 +1,6 @@\n line1\n line2\n-line3\n+<line3>\n"
               " line4\n line5\n line6\n"
               "@@ -15,6 +15,7 @@\n line15\n line16\n line17\n"
               "+new  # detc: n\n line18\n line19\n line20\n");
}

TEST(SourceEdits, DiffShowsLinesDetcAddedAsAdded) {
  // Line 11 ("hint") is detc's (placed before editing) and edited: the diff
  // is against the user's file, without it, and numbers the user's lines.
  std::string src;
  for (int i = 1; i <= 20; ++i)
    src += i == 11 ? "hint\n" : "line" + std::to_string(i) + "\n";
  EditList e(src);
  e.markAdded(11);
  e.wrap(src.find("hint"), src.find("hint") + 4, "<", ">");
  e.wrap(src.find("line19"), src.find("line19") + 6, "[", "]");
  EXPECT_EQ(e.diff("old", "new"),
            "--- old\n+++ new\n"
            "@@ -8,6 +8,7 @@\n line8\n line9\n line10\n+<hint>\n"
            " line12\n line13\n line14\n"
            "@@ -15,5 +16,5 @@\n line16\n line17\n line18\n-line19\n"
            "+[line19]\n line20\n");
}

TEST(SourceEdits, LineOf) {
  EditList e("a\nbb\n\nc");
  EXPECT_EQ(e.lineOf(0), 1u);
  EXPECT_EQ(e.lineOf(1), 1u);
  EXPECT_EQ(e.lineOf(2), 2u);
  EXPECT_EQ(e.lineOf(5), 3u);
  EXPECT_EQ(e.lineOf(6), 4u);
}

} // namespace

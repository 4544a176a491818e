//===- PathPatternsTest.cpp - .gitignore-style patterns -------------------===//

#include "detc/base/ProjectFiles.h"

#include "gtest/gtest.h"

using namespace detc::base;
using Match = PathPatterns::Match;

namespace {
PathPatterns patterns(llvm::StringRef text, llvm::StringRef base = "/p") {
  PathPatterns p;
  llvm::Error e = p.addLines(text, base, ".gitignore");
  EXPECT_FALSE(bool(e)) << llvm::toString(std::move(e));
  return p;
}
} // namespace

TEST(PathPatterns, ANameWithoutSlashMatchesAtAnyDepth) {
  PathPatterns p = patterns("generated_*.py\n");
  EXPECT_EQ(p.match("/p/generated_a.py", false), Match::Excluded);
  EXPECT_EQ(p.match("/p/a/b/generated_b.py", false), Match::Excluded);
  EXPECT_EQ(p.match("/p/a/generated", false), Match::None);
  // Not below the folder that declares it.
  EXPECT_EQ(p.match("/q/generated_a.py", false), Match::None);
  EXPECT_EQ(p.match("/pq/generated_a.py", false), Match::None);
}

TEST(PathPatterns, ASlashAnchorsAtTheDeclaringFolder) {
  PathPatterns p = patterns("/build\ndoc/conf.py\n");
  EXPECT_EQ(p.match("/p/build", true), Match::Excluded);
  EXPECT_EQ(p.match("/p/src/build", true), Match::None);
  EXPECT_EQ(p.match("/p/doc/conf.py", false), Match::Excluded);
  EXPECT_EQ(p.match("/p/x/doc/conf.py", false), Match::None);
  // `*` does not cross a folder.
  PathPatterns star = patterns("src/*.py\n");
  EXPECT_EQ(star.match("/p/src/a.py", false), Match::Excluded);
  EXPECT_EQ(star.match("/p/src/sub/a.py", false), Match::None);
}

TEST(PathPatterns, ATrailingSlashMatchesOnlyFolders) {
  PathPatterns p = patterns("out/\n");
  EXPECT_EQ(p.match("/p/a/out", true), Match::Excluded);
  EXPECT_EQ(p.match("/p/a/out", false), Match::None);
}

TEST(PathPatterns, DoubleStarTakesAnyNumberOfFolders) {
  PathPatterns p = patterns("a/**/z.py\nlogs/**\n");
  EXPECT_EQ(p.match("/p/a/z.py", false), Match::Excluded);
  EXPECT_EQ(p.match("/p/a/b/c/z.py", false), Match::Excluded);
  EXPECT_EQ(p.match("/p/b/z.py", false), Match::None);
  EXPECT_EQ(p.match("/p/logs/x/y.py", false), Match::Excluded);
}

TEST(PathPatterns, TheLastMatchingPatternDecides) {
  PathPatterns p = patterns("*.py\n!keep.py\n# a comment\n\n");
  EXPECT_EQ(p.match("/p/a.py", false), Match::Excluded);
  EXPECT_EQ(p.match("/p/x/keep.py", false), Match::Included);
  PathPatterns again = patterns("!keep.py\n*.py\n");
  EXPECT_EQ(again.match("/p/keep.py", false), Match::Excluded);
}

TEST(PathPatterns, CopiesKeepTheirPatternsAfterTheTextIsGone) {
  PathPatterns copy;
  {
    std::string text = "temp_*.py\n";
    PathPatterns p = patterns(text);
    text.assign(text.size(), 'x');
    copy = p;
  }
  EXPECT_EQ(copy.match("/p/temp_1.py", false), Match::Excluded);
}

TEST(PathPatterns, AnInvalidGlobIsAnErrorAtItsLine) {
  PathPatterns p;
  llvm::Error e = p.addLines("ok.py\n[]\n", "/p", "sub/.gitignore");
  ASSERT_TRUE(bool(e));
  EXPECT_NE(llvm::toString(std::move(e)).find("sub/.gitignore:2: error: bad "
                                              "pattern '[]'"),
            std::string::npos);
}

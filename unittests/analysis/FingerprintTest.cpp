//===- FingerprintTest.cpp - Positions taken out of finding messages ------===//
//
// messageWithoutPositions scans by hand what the fingerprints first matched
// with two regular expressions; baselines written before must keep their
// fingerprints. The regexes are the oracle here, on real message shapes and
// on random strings over the characters that matter.
//
//===----------------------------------------------------------------------===//

#include "detc/analysis/Suppressions.h"

#include "llvm/Support/Regex.h"

#include "gtest/gtest.h"

#include <random>

using namespace detc::analysis;

namespace {

std::string byRegex(llvm::StringRef message) {
  static const llvm::Regex position("[^ ():]+\\.py:[0-9]+(:[0-9]+)?");
  static const llvm::Regex line("(line|lines) [0-9]+");
  std::string out = message.str();
  for (int i = 0; i < 64 && position.match(out); ++i)
    out = position.sub("<pos>", out);
  for (int i = 0; i < 64 && line.match(out); ++i)
    out = line.sub("<line>", out);
  return out;
}

TEST(FingerprintTest, RealMessages) {
  const char *messages[] = {
      "generator 'np' (global) is used inside the per-example data-parallel "
      "region that starts at train.py:41:9",
      "reached through the call to 'augment' here (train.py:43:19)",
      "skipped in fast-forward: forward (line 17), batch loading (lines 41)",
      "see /home/u/proj/utils/aug.py:120:4 and aug.py:7",
      "pipeline 5 in helpers.py:3:2: no position here.py: nor here.py:x",
      "a.py:1.py:2 (b.py:3:4:5)",
      "",
  };
  for (const char *m : messages)
    EXPECT_EQ(messageWithoutPositions(m), byRegex(m)) << m;
  EXPECT_EQ(messageWithoutPositions("at train.py:41:9, line 3"),
            "at <pos>, <line>");
}

TEST(FingerprintTest, RandomStringsMatchTheRegexes) {
  // Pieces that make and break matches: file names, `.py:`, digits,
  // separators, the words `line`/`lines`.
  const char *pieces[] = {"a", "x/y", ".py", ":", "1", "42", " ", "(", ")",
                          "line", "lines", "s", ".", "<", "py"};
  std::mt19937 rng(17);
  std::uniform_int_distribution<size_t> piece(0, std::size(pieces) - 1);
  std::uniform_int_distribution<int> length(0, 24);
  for (int i = 0; i < 20000; ++i) {
    std::string m;
    for (int n = length(rng); n > 0; --n)
      m += pieces[piece(rng)];
    ASSERT_EQ(messageWithoutPositions(m), byRegex(m)) << "'" << m << "'";
  }
}

} // namespace

//===- PointsToResultTest.cpp - Results over a shared parse ---------------===//
//
// A points-to result keeps each expression's node on the expression itself
// (ast::Expr::getPointsToNode), so two results over one parse must not
// read each other's: while one lives a second is refused (an error, not
// wrong answers); once it is gone a new one may analyse the same parse.
//
//===----------------------------------------------------------------------===//

#include "detc/frontend/ParseCache.h"
#include "detc/frontend/PointsTo.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace detc;
using namespace detc::frontend;

namespace {

/// A script in a fresh directory; removed with the fixture.
class SharedParse : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("detc-pta", dir));
    path = (dir + "/train.py").str();
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << "import torch\n"
          "def pick(x):\n"
          "    return x\n"
          "g = torch.Generator()\n"
          "h = pick(g)\n";
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }

  std::optional<PointsToResult> analyse(ParseCache &cache,
                                        DiagnosticEngine &diags) {
    PointsToOptions options;
    options.parseCache = &cache;
    return analyzePointsTo(path, options, ApiModel::getBuiltin(), diags);
  }

  /// What the expression `pick(g)` may hold, described.
  static std::vector<std::string> callResult(const PointsToResult &r,
                                             const ParseCache::Entry &e) {
    const auto *assign = llvm::cast<ast::Assign>(e.parsed->module->body[3]);
    std::vector<std::string> out;
    for (PointsToResult::ObjectId o : r.pointsTo(assign->value))
      out.push_back(r.describe(o));
    return out;
  }

  llvm::SmallString<128> dir;
  std::string path;
};

TEST_F(SharedParse, ASecondResultWaitsForTheFirst) {
  ParseCache cache;
  DiagnosticEngine diags;
  const ParseCache::Entry &entry = cache.get(path, diags);
  std::optional<PointsToResult> first = analyse(cache, diags);
  ASSERT_TRUE(first);
  EXPECT_EQ(callResult(*first, entry),
            std::vector<std::string>{"torch.Generator@4:5"});

  DiagnosticEngine second;
  EXPECT_FALSE(analyse(cache, second));
  EXPECT_TRUE(second.hasErrors());
  // The first still reads its own nodes.
  EXPECT_EQ(callResult(*first, entry),
            std::vector<std::string>{"torch.Generator@4:5"});
}

TEST_F(SharedParse, ALaterResultMayAnalyseTheSameParse) {
  ParseCache cache;
  DiagnosticEngine diags;
  const ParseCache::Entry &entry = cache.get(path, diags);
  std::vector<std::string> before;
  {
    std::optional<PointsToResult> first = analyse(cache, diags);
    ASSERT_TRUE(first);
    before = callResult(*first, entry);
  }
  std::optional<PointsToResult> again = analyse(cache, diags);
  ASSERT_TRUE(again);
  EXPECT_FALSE(diags.hasErrors());
  EXPECT_EQ(callResult(*again, entry), before);
}

} // namespace

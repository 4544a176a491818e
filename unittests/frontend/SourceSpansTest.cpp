//===- SourceSpansTest.cpp - Lowered ops' spans outside the context -------===//
//
// The lowering keeps each op's source span outside the MLIR context, behind
// an OpaqueLoc (detc/ir/SourceSpans.h), and restarts its spans with every
// pass that throws its module away. These tests hold it to what the
// uniqued `#detc.src` form gave: every op of the final module names its
// own source text, however many passes ran; a restarted region hands out
// the same locations again; the printable form carries the same fields;
// and the verifier's messages keep their positions.
//
//===----------------------------------------------------------------------===//

#include "detc/ir/SourceSpans.h"
#include "detc/frontend/Lowering.h"
#include "detc/ir/DetcDialect.h"
#include "detc/ir/DetcOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace detc;

namespace {

/// Helpers defined before the helpers they call, so the lowering's facts
/// grow over several passes (each one's module and spans thrown away).
const char *const kScript = R"py(import torch
from torch.utils.data import DataLoader


def a(ds):
    return b(ds)


def b(ds):
    return c(ds)


def c(ds):
    return DataLoader(ds, batch_size=4, shuffle=True, num_workers=2)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 2)
        self.drop = torch.nn.Dropout(0.5)

    def forward(self, x):
        return self.drop(self.fc(x))


model = Net()
loader = a(list(range(8)))
for x in loader:
    y = model(x + torch.rand(4))
)py";

class LoweredSpans : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("detc-spans", dir));
    path = (dir + "/train.py").str();
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << kScript;
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }

  llvm::SmallString<128> dir;
  std::string path;
};

/// The (1-based) line and column of byte `offset` of `text`.
std::pair<unsigned, unsigned> lineColumn(llvm::StringRef text,
                                         uint32_t offset) {
  llvm::StringRef before = text.take_front(offset);
  size_t lineStart = before.rfind('\n');
  lineStart = lineStart == llvm::StringRef::npos ? 0 : lineStart + 1;
  return {unsigned(before.count('\n') + 1), unsigned(offset - lineStart + 1)};
}

TEST_F(LoweredSpans, EveryOpNamesItsOwnTextAfterManyPasses) {
  mlir::MLIRContext ctx;
  frontend::DiagnosticEngine diags;
  frontend::LoweringStats stats;
  frontend::LoweringOptions options;
  options.stats = &stats;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      frontend::lowerScript(ctx, path, diags, options);
  ASSERT_TRUE(module);
  ASSERT_FALSE(diags.hasErrors());
  unsigned passes = llvm::count_if(
      stats.phases, [](const auto &p) { return p.name == "lowering-pass"; });
  ASSERT_GE(passes, 3u) << "the script should need several passes";

  unsigned withSpan = 0;
  module->walk([&](mlir::Operation *op) {
    std::optional<ir::SourceSpan> s = ir::getSourceSpan(op->getLoc());
    if (!s)
      return;
    ++withSpan;
    SCOPED_TRACE(op->getName().getStringRef().str());
    EXPECT_EQ(s->file.getValue(), path);
    ASSERT_LE(s->stmtBegin, s->exprBegin);
    ASSERT_LE(s->exprBegin, s->exprEnd);
    ASSERT_LE(s->exprEnd, s->stmtEnd);
    ASSERT_LE(s->stmtEnd, llvm::StringRef(kScript).size());
    EXPECT_EQ(lineColumn(kScript, s->exprBegin),
              std::make_pair(s->line, s->column));
    // A span starts at a token, not in the spaces before it.
    EXPECT_FALSE(llvm::isSpace(kScript[s->exprBegin]));
  });
  // Every op lowered from the script has one (the module has none).
  EXPECT_GT(withSpan, 20u);

  // The calls the rules care about name exactly their text.
  std::vector<std::string> draws;
  module->walk([&](ir::DrawOp op) {
    std::optional<ir::SourceSpan> s = ir::getSourceSpan(op->getLoc());
    ASSERT_TRUE(s);
    draws.push_back(
        llvm::StringRef(kScript).slice(s->exprBegin, s->exprEnd).str());
  });
  EXPECT_NE(llvm::find(draws, "torch.rand(4)"), draws.end());
  EXPECT_NE(llvm::find(draws, "torch.nn.Dropout(0.5)"), draws.end());
}

TEST(SourceSpanRegion, RestartReusesLocations) {
  mlir::MLIRContext ctx;
  ir::SourceSpanRegion &region = ir::newSourceSpanRegion(&ctx);
  auto file = mlir::StringAttr::get(&ctx, "t.py");
  ir::SourceSpan first{file, 1, 1, 0, 10, 0, 10};
  ir::SourceSpan second{file, 2, 5, 11, 30, 15, 29};
  mlir::Location a = region.get(first);
  mlir::Location b = region.get(second);
  EXPECT_NE(a, b);
  EXPECT_EQ(ir::getSourceSpan(b)->exprBegin, 15u);

  // The next pass: its first span takes the first slot, and its location.
  region.restart();
  mlir::Location c = region.get(second);
  EXPECT_EQ(c, a);
  std::optional<ir::SourceSpan> s = ir::getSourceSpan(c);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->line, 2u);
  EXPECT_EQ(s->stmtEnd, 30u);

  // Another lowering into the same context has spans of its own.
  ir::SourceSpanRegion &other = ir::newSourceSpanRegion(&ctx);
  EXPECT_NE(other.get(first), a);
  EXPECT_EQ(ir::getSourceSpan(c)->line, 2u);
}

TEST(SourceSpans, PrintableFormHasTheSameFields) {
  mlir::MLIRContext ctx;
  ctx.getOrLoadDialect<ir::DetcDialect>();
  const char *text = "detc.stmt \"assign\" defs [\"x\"]\n";
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, &ctx);
  ASSERT_TRUE(module);
  mlir::Operation *op = &module->getBody()->front();
  auto file = mlir::StringAttr::get(&ctx, "t.py");
  ir::SourceSpan span{file, 3, 7, 20, 41, 26, 40};
  op->setLoc(ir::newSourceSpanRegion(&ctx).get(span));
  ASSERT_TRUE(llvm::isa<mlir::OpaqueLoc>(op->getLoc()));

  ir::materializeSourceSpans(*module);
  ASSERT_TRUE(llvm::isa<mlir::FusedLoc>(op->getLoc()));
  std::optional<ir::SourceSpan> s = ir::getSourceSpan(op->getLoc());
  ASSERT_TRUE(s);
  EXPECT_EQ(s->file, file);
  EXPECT_EQ(std::make_tuple(s->line, s->column, s->stmtBegin, s->stmtEnd,
                            s->exprBegin, s->exprEnd),
            std::make_tuple(3u, 7u, 20u, 41u, 26u, 40u));
  std::optional<ir::SourcePosition> at = ir::getSourcePosition(op->getLoc());
  ASSERT_TRUE(at);
  EXPECT_EQ(at->line, 3u);
}

TEST(SourceSpans, VerifierMessagesKeepTheirPositions) {
  mlir::MLIRContext ctx;
  ctx.getOrLoadDialect<ir::DetcDialect>();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(
          "detc.stmt \"assign\" defs [\"x\"]\n", &ctx);
  ASSERT_TRUE(module);
  mlir::Operation *op = &module->getBody()->front();
  auto file = mlir::StringAttr::get(&ctx, "lowered.py");
  op->setLoc(
      ir::newSourceSpanRegion(&ctx).get({file, 12, 5, 100, 120, 104, 120}));
  // Not a variable name: the verifier rejects it.
  mlir::Builder b(&ctx);
  op->setAttr("defs", b.getStrArrayAttr({"1 bad"}));

  frontend::DiagnosticEngine diags;
  ASSERT_TRUE(mlir::failed(
      frontend::verifyLoweredModule(*module, "lowered.py", diags)));
  const std::vector<frontend::Diagnostic> &all = diags.getDiagnostics();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].file, "lowered.py");
  EXPECT_EQ(all[0].pos.line, 12u);
  EXPECT_EQ(all[0].pos.column, 4u); // 0-based
  EXPECT_NE(all[0].message.find("is not a variable name"), std::string::npos);
  EXPECT_NE(all[1].message.find("does not verify"), std::string::npos);
}

} // namespace

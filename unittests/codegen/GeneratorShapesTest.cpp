//===- GeneratorShapesTest.cpp - generators passing items through ---------===//

#include "detc/codegen/GeneratorShapes.h"
#include "detc/frontend/Parser.h"
#include "detc/frontend/SourceFile.h"

#include "gtest/gtest.h"

using namespace detc;
using namespace detc::codegen;

namespace {

/// What passedThroughParameter says of the first function of `src`:
/// the parameter, or "-".
std::string passed(llvm::StringRef src) {
  frontend::DiagnosticEngine diags;
  auto file = frontend::SourceFile::fromBytes("t.py", src.str(), diags);
  auto parsed = file ? frontend::parseModule(*file, diags) : nullptr;
  if (!parsed || !parsed->module)
    return "<no parse>";
  for (const ast::Stmt *s : parsed->module->body)
    if (auto *def = llvm::dyn_cast<ast::FunctionDef>(s)) {
      std::optional<llvm::StringRef> p = passedThroughParameter(*def);
      return p ? p->str() : "-";
    }
  return "<no def>";
}

TEST(GeneratorShapes, MetricLoggersPassTheirIterableThrough) {
  // DeiT's, DETR's and MAE's log_every, shortened.
  EXPECT_EQ(passed("def log_every(self, iterable, print_freq, header=None):\n"
                   "    i = 0\n"
                   "    for obj in iterable:\n"
                   "        data_time.update(time.time() - end)\n"
                   "        yield obj\n"
                   "        if i % print_freq == 0:\n"
                   "            for k in meters:\n"
                   "                if k: break\n"
                   "            print(header, i)\n"
                   "        i += 1\n"),
            "iterable");
}

TEST(GeneratorShapes, AnythingElseIsNoPassThrough) {
  // Stops early.
  EXPECT_EQ(passed("def f(it):\n"
                   "    for x in it:\n"
                   "        yield x\n"
                   "        if x is None: break\n"),
            "-");
  EXPECT_EQ(passed("def f(it):\n"
                   "    for x in it:\n"
                   "        if x is None: return\n"
                   "        yield x\n"),
            "-");
  // Yields twice, or something else, or a changed item.
  EXPECT_EQ(passed("def f(it):\n"
                   "    for x in it:\n"
                   "        yield x\n"
                   "        yield x\n"),
            "-");
  EXPECT_EQ(passed("def f(it):\n"
                   "    for x in it:\n"
                   "        yield x * 2\n"),
            "-");
  EXPECT_EQ(passed("def f(it):\n"
                   "    for x in it:\n"
                   "        x = x[0]\n"
                   "        yield x\n"),
            "-");
  // Skips items, or iterates something else than a parameter.
  EXPECT_EQ(passed("def f(it):\n"
                   "    for x in it:\n"
                   "        if x:\n"
                   "            yield x\n"),
            "-");
  EXPECT_EQ(passed("def f(n):\n"
                   "    for x in range(n):\n"
                   "        yield x\n"),
            "-");
  EXPECT_EQ(passed("def f(it):\n"
                   "    yield from it\n"),
            "-");
  // A nested function's yield is its own.
  EXPECT_EQ(passed("def f(it):\n"
                   "    def g():\n"
                   "        yield 1\n"
                   "    for x in it:\n"
                   "        yield x\n"),
            "it");
}

} // namespace

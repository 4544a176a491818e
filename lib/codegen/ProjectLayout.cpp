//===- ProjectLayout.cpp - What `detc transform PATH... -o DIR` writes ----===//

#include "detc/codegen/ProjectLayout.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using namespace detc;
using namespace detc::ast;

static bool isName(const Expr *e) {
  const auto *n = dyn_cast_or_null<Name>(e);
  return n && n->id == "__name__";
}

static bool isMain(const Expr *e) {
  const auto *c = dyn_cast_or_null<Constant>(e);
  return c && c->kind == ConstantKind::Str && c->value == "__main__";
}

bool codegen::runsAsScript(const Module &module) {
  for (const Stmt *s : module.body) {
    const auto *branch = dyn_cast<If>(s);
    if (!branch)
      continue;
    const auto *test = dyn_cast_or_null<Compare>(branch->test);
    if (!test || test->ops.size() != 1 || test->ops[0] != CmpOpKind::Eq ||
        test->comparators.size() != 1)
      continue;
    const Expr *left = test->left, *right = test->comparators[0];
    if ((isName(left) && isMain(right)) || (isMain(left) && isName(right)))
      return true;
  }
  return false;
}

bool codegen::writtenByDetc(const Module &module) {
  for (const Stmt *s : module.body) {
    if (const auto *i = dyn_cast<Import>(s))
      for (const Alias *a : i->names)
        if (a->name == "detc_runtime")
          return true;
    if (const auto *i = dyn_cast<ImportFrom>(s))
      if (i->level == 0 && i->module == "detc_runtime")
        return true;
  }
  return false;
}

Expected<std::string> codegen::projectOutputPath(StringRef spelled,
                                                 StringRef outDir) {
  SmallString<256> rel(spelled);
  sys::path::remove_dots(rel, /*remove_dot_dot=*/true);
  bool leaves = sys::path::is_absolute(rel) || StringRef(rel).starts_with("..");
  if (leaves)
    return createStringError(
        inconvertibleErrorCode(),
        "'" + spelled +
            "' is not inside the current folder: run detc from the "
            "project's top folder, so that the copy keeps its layout");
  SmallString<256> out(outDir);
  sys::path::append(out, rel);
  return std::string(out);
}

//===- ProjectLayout.cpp - What `detc transform PATH... -o DIR` writes ----===//

#include "detc/codegen/ProjectLayout.h"
#include "detc/frontend/ASTDump.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using namespace detc;
using namespace detc::ast;

bool codegen::runsAsScript(const Module &module) {
  return llvm::any_of(module.body,
                      [](const Stmt *s) { return isMainGuard(s); });
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

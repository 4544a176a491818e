//===- ParseCache.cpp - Source files parsed once per run ------------------===//

#include "detc/frontend/ParseCache.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

using namespace detc::frontend;

const ParseCache::Entry &ParseCache::get(llvm::StringRef path,
                                         DiagnosticEngine &diags) {
  llvm::SmallString<256> real;
  llvm::StringRef key =
      llvm::sys::fs::real_path(path, real) ? path : llvm::StringRef(real);
  auto [it, inserted] = entries.try_emplace(key);
  if (inserted) {
    it->second = std::make_unique<Entry>();
    Entry &e = *it->second;
    DiagnosticEngine local;
    e.file = SourceFile::load(path, local);
    if (e.file)
      e.parsed = parseModule(*e.file, local);
    e.diagnostics = local.getDiagnostics();
  }
  Entry &e = *it->second;
  if (llvm::is_contained(e.told, &diags))
    return e;
  e.told.push_back(&diags);
  for (const Diagnostic &d : e.diagnostics)
    diags.add(d);
  return e;
}

//===- ParseCache.cpp - Source files parsed once per run ------------------===//

#include "detc/frontend/ParseCache.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

using namespace detc::frontend;

/// The cache's key of `path`: the file's real path when it exists.
static std::string keyOf(llvm::StringRef path) {
  llvm::SmallString<256> real;
  return llvm::sys::fs::real_path(path, real) ? path.str() : real.str().str();
}

const ParseCache::Entry &ParseCache::get(llvm::StringRef path,
                                         DiagnosticEngine &diags) {
  auto [it, inserted] = entries.try_emplace(keyOf(path));
  if (inserted) {
    it->second = std::make_unique<Entry>();
    Entry &e = *it->second;
    DiagnosticEngine local;
    e.file = SourceFile::load(path, local);
    parse(e, local);
    e.diagnostics = local.getDiagnostics();
  }
  return tell(*it->second, diags);
}

const ParseCache::Entry &ParseCache::put(llvm::StringRef path,
                                         llvm::StringRef bytes,
                                         DiagnosticEngine &diags) {
  std::unique_ptr<Entry> &slot = entries[keyOf(path)];
  slot = std::make_unique<Entry>();
  Entry &e = *slot;
  DiagnosticEngine local;
  e.file = SourceFile::fromBytes(path, bytes.str(), local);
  parse(e, local);
  e.diagnostics = local.getDiagnostics();
  return tell(e, diags);
}

void ParseCache::parse(Entry &e, DiagnosticEngine &local) {
  if (!e.file)
    return;
  e.parsed = parseModule(*e.file, local);
  if (e.parsed && !checkTargetVersion(*e.parsed, *e.file, target, local))
    e.parsed.reset();
  e.file->releaseCodePoints();
}

const ParseCache::Entry &ParseCache::tell(Entry &e, DiagnosticEngine &diags) {
  if (llvm::is_contained(e.told, &diags))
    return e;
  e.told.push_back(&diags);
  for (const Diagnostic &d : e.diagnostics)
    diags.add(d);
  return e;
}

std::vector<std::string> ParseCache::files() const {
  std::vector<std::string> out;
  for (const auto &entry : entries)
    out.push_back(entry.getKey().str());
  return out;
}

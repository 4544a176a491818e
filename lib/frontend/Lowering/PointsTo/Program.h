//===- Program.h - The Python files the points-to analysis reads -*- C++ -*-===//
//
// The main script and the local modules it imports, found the way CPython
// finds them: next to the importing file (and the script), in packages
// (`pkg/__init__.py`, relative imports), in `--path` directories and
// PYTHONPATH entries, and in directories a script adds with a constant
// `sys.path.insert(0, 'dir')` / `sys.path.append('dir')`.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_FRONTEND_LOWERING_POINTSTO_PROGRAM_H
#define DETC_LIB_FRONTEND_LOWERING_POINTSTO_PROGRAM_H

#include "detc/frontend/Parser.h"
#include "detc/frontend/SourceFile.h"

#include "llvm/ADT/StringMap.h"

#include <memory>
#include <string>
#include <vector>

namespace detc::frontend::pta {

struct ProgramModule {
  std::string name; ///< "__main__" or the dotted module name.
  std::string path;
  bool isPackage = false; ///< An `__init__.py`.
  std::unique_ptr<SourceFile> file;
  std::unique_ptr<ParsedModule> parsed;
};

class Program {
public:
  Program(DiagnosticEngine &diags, std::vector<std::string> searchPath)
      : diags(diags), searchPath(std::move(searchPath)) {}

  /// Loads the main script; null after a read or syntax error.
  ProgramModule *loadMain(llvm::StringRef path);

  /// The local module `dotted` imported from `from` (relative imports
  /// count `level` leading dots), loaded on first use; null when it is not
  /// a local module. `looked` receives the directories searched.
  ProgramModule *resolve(const ProgramModule &from, llvm::StringRef dotted,
                         unsigned level, std::vector<std::string> *looked);

  /// True when the last resolve() found the module in installed library
  /// code (the standard library, site/dist-packages), which is not
  /// analysed: the API tables model it.
  bool resolvedToLibrary() const { return skippedLibrary; }

  /// A directory the program adds to sys.path (relative to the script's).
  void addSearchDir(llvm::StringRef dir);

  const std::vector<std::unique_ptr<ProgramModule>> &modules() const {
    return all;
  }
  llvm::StringRef scriptDir() const { return mainDir; }

private:
  ProgramModule *load(const std::string &path, const std::string &name,
                      bool isPackage);

  DiagnosticEngine &diags;
  std::vector<std::string> searchPath;
  std::string mainDir;
  bool skippedLibrary = false;
  std::vector<std::unique_ptr<ProgramModule>> all;
  llvm::StringMap<ProgramModule *> byPath;
};

} // namespace detc::frontend::pta

#endif // DETC_LIB_FRONTEND_LOWERING_POINTSTO_PROGRAM_H

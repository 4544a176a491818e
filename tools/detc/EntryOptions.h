//===- EntryOptions.h - Analysis flags of analyze and transform -*- C++ -*-===//
//
// `--max-statements=N` bounds the statement graph's expansion.
// `--entry=NAME` names a function (`train_model`) or method (`Trainer.fit`)
// of the script to analyse as an entry called with unknown arguments; the
// statement graph runs the entries after the module body
// (StatementGraphOptions::entries).
//
//===----------------------------------------------------------------------===//

#ifndef DETC_TOOLS_DETC_ENTRYOPTIONS_H
#define DETC_TOOLS_DETC_ENTRYOPTIONS_H

#include "detc/analysis/Findings.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace detc::tool {

/// --entry and --max-statements of one subcommand.
struct EntryFlag {
  explicit EntryFlag(llvm::cl::SubCommand &sub);
  llvm::cl::list<std::string> names;
  /// StatementGraphOptions::maxNodes (a machine with the memory may raise
  /// it; tests lower it).
  llvm::cl::opt<size_t> maxStatements;

  /// Runs the analyses from the entries; nullopt after an error on `errs`
  /// when a name denotes nothing in the script.
  /// `alongside`: see ProgramAnalysis::run.
  std::optional<analysis::ProgramAnalysis>
  analyse(mlir::ModuleOp module, llvm::StringRef file, llvm::raw_ostream &errs,
          llvm::function_ref<void()> alongside = {},
          bool keepSolutions = true) const;
};

} // namespace detc::tool

#endif // DETC_TOOLS_DETC_ENTRYOPTIONS_H

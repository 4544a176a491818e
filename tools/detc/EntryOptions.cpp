//===- EntryOptions.cpp - Analysis flags of analyze and transform ---------===//

#include "EntryOptions.h"

#include "llvm/Support/WithColor.h"

using namespace detc;

tool::EntryFlag::EntryFlag(llvm::cl::SubCommand &sub)
    : names("entry",
            llvm::cl::desc("Analyse function NAME (or Class.method) as an "
                           "entry called with unknown arguments after the "
                           "module body (repeatable; default: every public "
                           "one when the module body runs none)"),
            llvm::cl::value_desc("NAME"), llvm::cl::sub(sub)),
      maxStatements(
          "max-statements",
          llvm::cl::desc("Stop (exit 2) when expanding the program's calls "
                         "makes more than N statements (each call path "
                         "into a function is analysed on its own; ~1 KB of "
                         "memory each)"),
          llvm::cl::value_desc("N"),
          llvm::cl::init(analysis::StatementGraphOptions().maxNodes),
          llvm::cl::sub(sub)) {}

std::optional<analysis::ProgramAnalysis>
tool::EntryFlag::analyse(mlir::ModuleOp module, llvm::StringRef file,
                         llvm::raw_ostream &errs,
                         llvm::function_ref<void()> alongside,
                         bool keepSolutions) const {
  analysis::StatementGraphOptions options;
  options.keepSolutions = keepSolutions;
  options.maxNodes = maxStatements;
  for (const std::string &name : names) {
    std::string symbol = analysis::findEntry(module, name);
    if (symbol.empty()) {
      llvm::WithColor::error(errs, "detc")
          << file << ": --entry=" << name
          << ": the script defines no function or method of that name "
             "(write a method as Class.method)\n";
      return std::nullopt;
    }
    options.entries.push_back(symbol);
  }
  return analysis::ProgramAnalysis::run(module, options, alongside);
}

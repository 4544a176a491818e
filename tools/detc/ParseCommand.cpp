//===- ParseCommand.cpp - `detc parse` ------------------------------------===//
//
// Parses Python files and prints their AST (readable or JSON), or only checks
// them (`--emit=none`, with `--stats` for throughput). Several files and
// `--files-from` lists are accepted so that corpus tests and benchmarks run
// in one process.
//
//===----------------------------------------------------------------------===//

#include "ParseCommand.h"

#include "detc/base/Process.h"
#include "FileList.h"
#include "TargetVersionFlag.h"

#include "detc/frontend/ASTDump.h"
#include "detc/frontend/Parser.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace llvm;
using namespace detc;

cl::SubCommand detc::tool::parseCommand("parse",
                                        "Parse Python files and dump the AST");

namespace {
enum class EmitKind { AST, JSON, None };

cl::list<std::string> inputFiles(cl::Positional, cl::desc("<file.py>..."),
                                 cl::sub(tool::parseCommand));
cl::opt<std::string>
    filesFrom("files-from",
              cl::desc("Also parse every file listed (one path per line)"),
              cl::value_desc("list"), cl::sub(tool::parseCommand));
cl::opt<EmitKind> emit(
    "emit", cl::desc("What to print"), cl::init(EmitKind::AST),
    cl::values(clEnumValN(EmitKind::AST, "ast", "readable AST dump"),
               clEnumValN(EmitKind::JSON, "json",
                          "AST as JSON in the shape of CPython's ast module"),
               clEnumValN(EmitKind::None, "none", "nothing (syntax check)")),
    cl::sub(tool::parseCommand));
cl::opt<bool> stats("stats",
                    cl::desc("Print files, lines, tokens, time and the "
                             "number of files that needed the LL fallback"),
                    cl::sub(tool::parseCommand));
tool::TargetVersionFlag targetVersion(tool::parseCommand);
} // namespace

int detc::tool::runParse() {
  base::PhaseScope phase(std::string("parsing the input files"));
  std::vector<std::string> files(inputFiles.begin(), inputFiles.end());
  if (!filesFrom.empty() && !tool::appendFileList(filesFrom, files))
    return 2;
  if (files.empty()) {
    WithColor::error(errs(), "detc") << "parse: no input files\n";
    return 2;
  }
  std::optional<frontend::PythonVersion> target = targetVersion.get(errs());
  if (!target)
    return 2;

  size_t numLines = 0, numTokens = 0, numFallback = 0, numFailed = 0;
  auto start = std::chrono::steady_clock::now();
  for (const std::string &path : files) {
    frontend::DiagnosticEngine diags;
    std::unique_ptr<frontend::SourceFile> file =
        frontend::SourceFile::load(path, diags);
    std::unique_ptr<frontend::ParsedModule> parsed;
    if (file)
      parsed = frontend::parseModule(*file, diags);
    if (parsed && !frontend::checkTargetVersion(*parsed, *file, *target, diags))
      parsed.reset();
    diags.printAll(errs());
    if (!parsed) {
      ++numFailed;
      continue;
    }
    numLines += file->getNumLines();
    numTokens += parsed->stats.numTokens;
    numFallback += parsed->stats.usedLLFallback;
    if (emit == EmitKind::AST)
      ast::dumpText(parsed->module, *file, outs());
    else if (emit == EmitKind::JSON)
      ast::dumpJSON(parsed->module, *file, outs());
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (stats)
    errs() << "files: " << files.size() << "\nfailed: " << numFailed
           << "\nlines: " << numLines << "\ntokens: " << numTokens
           << "\nll-fallback: " << numFallback
           << "\nseconds: " << format("%.3f", seconds) << "\nlines-per-second: "
           << format("%.0f", seconds > 0 ? numLines / seconds : 0.0) << "\n";
  return numFailed ? 2 : 0;
}

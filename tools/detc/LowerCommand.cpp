//===- LowerCommand.cpp - `detc FILE --emit=mlir` -------------------------===//
//
// Lowers a training script to the detc dialect and prints the module. Used by
// the lit tests of the lowering and by anyone who wants to see the model detc
// builds of their script.
//
//===----------------------------------------------------------------------===//

#include "LowerCommand.h"

#include "ApiTableFlag.h"
#include "LibraryFlags.h"
#include "PointsToLimitFlag.h"
#include "TargetVersionFlag.h"

#include "FileList.h"
#include "detc/base/Process.h"

#include "detc/base/FileIO.h"
#include "detc/frontend/Lowering.h"
#include "detc/frontend/PointsTo.h"
#include "detc/ir/DetcDialect.h"
#include "detc/ir/SourceSpans.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace detc;

cl::OptionCategory
    detc::tool::loweringCategory("detc FILE.py (lower to the detc dialect)");

namespace {
enum class EmitKind { MLIR, PointsTo, None };

cl::list<std::string> inputFiles(cl::Positional, cl::desc("<script.py>..."),
                                 cl::cat(tool::loweringCategory));
cl::opt<std::string>
    filesFrom("files-from",
              cl::desc("Also lower every file listed (one path per line)"),
              cl::value_desc("list"), cl::cat(tool::loweringCategory));
cl::opt<EmitKind> emit(
    "emit", cl::desc("What to print for the script"), cl::init(EmitKind::MLIR),
    cl::values(clEnumValN(EmitKind::MLIR, "mlir", "the detc dialect module"),
               clEnumValN(EmitKind::PointsTo, "points-to",
                          "what each variable and object field may hold "
                          "(docs/pointsto.md)"),
               clEnumValN(EmitKind::None, "none",
                          "nothing (check that the script lowers)")),
    cl::cat(tool::loweringCategory));
cl::list<std::string>
    searchPath("path",
               cl::desc("Also look for the script's local modules in DIR "
                        "(repeatable; then PYTHONPATH)"),
               cl::value_desc("DIR"), cl::cat(tool::loweringCategory));
cl::opt<bool> pointsToStats("points-to-stats",
                            cl::desc("With --emit=points-to: print the "
                                     "solver's sizes and time on stderr"),
                            cl::cat(tool::loweringCategory));
cl::opt<bool> debugInfo("debug-info",
                        cl::desc("Print source locations and byte ranges"),
                        cl::cat(tool::loweringCategory));
tool::ApiTableFlag apiTables(cl::SubCommand::getTopLevel(),
                            &tool::loweringCategory);
tool::TargetVersionFlag targetVersion(cl::SubCommand::getTopLevel(),
                                      &tool::loweringCategory);
tool::LibraryFlags libraries(cl::SubCommand::getTopLevel());
tool::PointsToLimitFlag pointsToLimit(cl::SubCommand::getTopLevel());
cl::opt<bool> noFollow("no-follow-imports",
                       cl::desc("Do not lower local modules the script "
                                "imports"),
                       cl::cat(tool::loweringCategory));
} // namespace

bool detc::tool::hasTopLevelInput() {
  return !inputFiles.empty() || !filesFrom.empty();
}

int detc::tool::runLower() {
  base::PhaseScope phase(std::string("lowering the input files"));
  std::optional<frontend::ApiModel> model = apiTables.load(errs());
  if (!model)
    return 2;
  std::vector<std::string> files(inputFiles.begin(), inputFiles.end());
  if (!filesFrom.empty() && !tool::appendFileList(filesFrom, files))
    return 2;
  std::optional<frontend::PythonVersion> target = targetVersion.get(errs());
  if (!target)
    return 2;
  frontend::LoweringOptions options;
  options.api = &*model;
  options.targetVersion = *target;
  options.followLocalImports = !noFollow;
  options.searchPath.assign(searchPath.begin(), searchPath.end());
  options.librarySource = libraries.get();
  options.pointsToMemberLimit = pointsToLimit.members;
  unsigned failed = 0;
  bool internal = false; // a failure that is detc's bug: status 3
  for (const std::string &file : files) {
    if (emit == EmitKind::PointsTo) {
      frontend::DiagnosticEngine diags;
      frontend::PointsToOptions ptOptions;
      ptOptions.searchPath.assign(searchPath.begin(), searchPath.end());
      ptOptions.profileSources = pointsToStats;
      ptOptions.memberLimit = pointsToLimit.members;
      std::optional<frontend::PointsToResult> result =
          frontend::analyzePointsTo(file, ptOptions, *model, diags);
      diags.printAll(errs());
      if (!result) {
        ++failed;
        continue;
      }
      // The solver's own figures, before printing adds to the peak.
      if (pointsToStats) {
        const frontend::PointsToStats &s = result->getStats();
        errs() << formatv("points-to: {0} objects, {1} nodes, {2} copy "
                          "edges, {3} handlers, {4} node visits, {5} set "
                          "members, {6:f3} s, peak {7:f1} MB\n",
                          s.objects, s.nodes, s.copyEdges, s.complexConstraints,
                          s.iterations, s.members, s.seconds,
                          base::peakResidentBytes() / 1048576.0);
        for (const auto &[where, count] : s.topSources)
          errs() << formatv("  {0,10} constraints made by {1}\n", count,
                            where);
      }
      result->print(outs());
      continue;
    }
    // One context per file keeps memory flat over large corpora.
    mlir::MLIRContext context;
    frontend::DiagnosticEngine diags;
    mlir::OwningOpRef<mlir::ModuleOp> module =
        frontend::lowerScript(context, file, diags, options);
    diags.printAll(errs());
    if (!module) {
      ++failed;
      internal |= diags.hasInternalErrors();
      continue;
    }
    if (emit == EmitKind::MLIR) {
      mlir::OpPrintingFlags flags;
      if (debugInfo) {
        ir::materializeSourceSpans(*module);
        flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
      }
      module->print(outs(), flags);
      outs() << "\n";
    }
  }
  if (failed)
    return internal ? 3 : 2;
  return 0;
}

//===- AnalysisTestSupport.h - Parse a module and analyse it -----*- C++ -*-===//

#ifndef DETC_UNITTESTS_ANALYSIS_ANALYSISTESTSUPPORT_H
#define DETC_UNITTESTS_ANALYSIS_ANALYSISTESTSUPPORT_H

#include "detc/analysis/Findings.h"
#include "detc/ir/DetcDialect.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

namespace detc::testing {

/// A parsed module and its analyses; the module text must be valid.
struct AnalysedModule {
  mlir::MLIRContext ctx;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  analysis::ProgramAnalysis a;

  explicit AnalysedModule(llvm::StringRef text) {
    ctx.loadDialect<ir::DetcDialect>();
    module = mlir::parseSourceString<mlir::ModuleOp>(text, &ctx);
    if (module)
      a = analysis::ProgramAnalysis::run(*module);
  }
  bool ok() const { return static_cast<bool>(module); }

  /// A local of the program's entry function by its source name.
  analysis::VarId mainVar(llvm::StringRef name) const {
    return a.graph.vars.lookup(a.graph.instances.front().qualifier + "/" +
                               name.str());
  }

  /// The node of the op at `line` of "rand"/"t" locations (first one).
  analysis::NodeId nodeAtLine(unsigned line) const {
    for (analysis::NodeId n = 0; n < a.graph.numNodes(); ++n)
      if (a.graph.node(n).op &&
          analysis::sourcePoint(a.graph.node(n).op).line == line)
        return n;
    return analysis::kNoNode;
  }
};

} // namespace detc::testing

#endif // DETC_UNITTESTS_ANALYSIS_ANALYSISTESTSUPPORT_H

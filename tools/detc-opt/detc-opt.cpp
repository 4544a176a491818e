//===- detc-opt.cpp - mlir-opt for the detc dialect -----------------------===//
//
// Parses, verifies, prints and transforms `.mlir` files that use the detc
// dialect. The lit tests of the dialect and of the analyses run through it
// (`--test-thread-safety`, `--test-needed`, `--test-liveness`,
// `--test-statement-graph` print the analyses' results).
//
//===----------------------------------------------------------------------===//

#include "detc/analysis/Passes.h"
#include "detc/ir/DetcDialect.h"
#include "detc/ir/DetcOps.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  detc::analysis::registerDetcAnalysisPasses();
  mlir::DialectRegistry registry;
  registry.insert<detc::ir::DetcDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "detc optimizer driver\n", registry));
}

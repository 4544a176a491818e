//===- DetcOps.h - Operations of the detc dialect ---------------*- C++ -*-===//

#ifndef DETC_IR_DETCOPS_H
#define DETC_IR_DETCOPS_H

#include "detc/ir/DetcDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace detc::ir::detail {
/// The variable list attribute `name` of `op` (empty if absent).
llvm::ArrayRef<mlir::Attribute> getVarList(mlir::Operation *op,
                                           llvm::StringRef name);
/// Checks that every entry of defs/updates/uses is a well-formed variable.
mlir::LogicalResult verifyVarAccess(mlir::Operation *op);
} // namespace detc::ir::detail

#include "detc/ir/DetcInterfaces.h.inc"

#define GET_OP_CLASSES
#include "detc/ir/DetcOps.h.inc"

namespace detc::ir {
/// True if `name` follows the dialect's variable naming convention
/// (see the dialect description).
bool isValidVarName(llvm::StringRef name);

/// The libraries whose generators the dialect models.
bool isKnownRngLibrary(llvm::StringRef library);

/// Name of the implicit global generator variable of `library` ("<torch>").
std::string globalGeneratorVar(llvm::StringRef library);

/// Whether `loop` (a `detc.for` or `detc.while`) takes a batch each
/// iteration: its body fetches from a loader or is a per-batch region.
bool takesBatches(mlir::Operation *loop);

/// Module-wide check that every build a `detc.forward` names exists in the
/// module (one walk; the per-op verifier would make verification
/// quadratic). detc runs it on every module it analyses and lowers.
mlir::LogicalResult verifyBuildReferences(mlir::ModuleOp module);
} // namespace detc::ir

#endif // DETC_IR_DETCOPS_H

//===- DetcDialect.h - The detc dialect -------------------------*- C++ -*-===//

#ifndef DETC_IR_DETCDIALECT_H
#define DETC_IR_DETCDIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"

namespace detc::ir {
class SourceSpanStore;
} // namespace detc::ir

#include "detc/ir/DetcOpsDialect.h.inc"
#include "detc/ir/DetcEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "detc/ir/DetcAttrs.h.inc"

#include <optional>

namespace detc::ir {

/// A position in a source file (1-based line and column).
struct SourcePosition {
  llvm::StringRef file;
  unsigned line = 0, column = 0;
};
/// The position of a location: its span's (SourceSpans.h), else that of the
/// first `FileLineColLoc` in it (IR written by hand); none for other locations.
std::optional<SourcePosition> getSourcePosition(mlir::Location loc);

} // namespace detc::ir

#endif // DETC_IR_DETCDIALECT_H

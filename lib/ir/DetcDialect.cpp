//===- DetcDialect.cpp - The detc dialect ---------------------------------===//

#include "detc/ir/DetcDialect.h"
#include "detc/ir/DetcOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace detc::ir;

#include "detc/ir/DetcOpsDialect.cpp.inc"
#include "detc/ir/DetcEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "detc/ir/DetcAttrs.cpp.inc"

void DetcDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "detc/ir/DetcOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "detc/ir/DetcAttrs.cpp.inc"
      >();
}

LogicalResult
SourceSpanAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       uint32_t stmtBegin, uint32_t stmtEnd,
                       uint32_t exprBegin, uint32_t exprEnd) {
  if (stmtBegin > stmtEnd || exprBegin > exprEnd)
    return emitError() << "source range ends before it begins";
  if (exprBegin < stmtBegin || exprEnd > stmtEnd)
    return emitError() << "expression range [" << exprBegin << ":" << exprEnd
                       << "] is not inside its statement [" << stmtBegin
                       << ":" << stmtEnd << "]";
  return success();
}

//===- DetcDialect.h - The detc dialect -------------------------*- C++ -*-===//

#ifndef DETC_IR_DETCDIALECT_H
#define DETC_IR_DETCDIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"

#include "detc/ir/DetcOpsDialect.h.inc"
#include "detc/ir/DetcEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "detc/ir/DetcAttrs.h.inc"

#endif // DETC_IR_DETCDIALECT_H

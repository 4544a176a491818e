//===- DetcInterfaces.td - Interfaces of the detc dialect -------*- tablegen -*-===//

#ifndef DETC_IR_DETCINTERFACES_TD
#define DETC_IR_DETCINTERFACES_TD

include "mlir/IR/OpBase.td"

def Detc_VarAccessOpInterface : OpInterface<"VarAccessOpInterface"> {
  let cppNamespace = "::detc::ir";
  let description = [{
    A statement that reads and writes named Python variables. `defs` are
    variables the statement assigns as a whole (a strong definition: the old
    value is dead afterwards); `updates` are variables modified in place or
    in part (`x[i] = v`, `x.append(v)`, `opt.step()` updating a model: a weak
    definition that also reads the old value); `uses` are variables read.
    The three lists are attributes named `defs`, `updates` and `uses`.
  }];
  let methods = [
    InterfaceMethod<"Variables this statement defines as a whole.",
      "::llvm::ArrayRef<::mlir::Attribute>", "getDefined", (ins), [{}],
      [{ return ::detc::ir::detail::getVarList($_op, "defs"); }]>,
    InterfaceMethod<"Variables this statement modifies in place.",
      "::llvm::ArrayRef<::mlir::Attribute>", "getUpdated", (ins), [{}],
      [{ return ::detc::ir::detail::getVarList($_op, "updates"); }]>,
    InterfaceMethod<"Variables this statement reads.",
      "::llvm::ArrayRef<::mlir::Attribute>", "getUsed", (ins), [{}],
      [{ return ::detc::ir::detail::getVarList($_op, "uses"); }]>,
  ];
  let verify = [{ return ::detc::ir::detail::verifyVarAccess($_op); }];
}

#endif // DETC_IR_DETCINTERFACES_TD

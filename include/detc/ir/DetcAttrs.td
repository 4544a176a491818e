//===- DetcAttrs.td - Attributes and enums of the detc dialect --*- tablegen -*-===//

#ifndef DETC_IR_DETCATTRS_TD
#define DETC_IR_DETCATTRS_TD

include "detc/ir/DetcDialect.td"

def Detc_SourceSpanAttr : AttrDef<Detc_Dialect, "SourceSpan"> {
  let mnemonic = "src";
  let summary = "Where in the Python source an op comes from";
  let description = [{
    The file and the `line:column` of the expression an op stands for (what
    reports print), and half-open byte ranges into the original source
    file: the statement the op was lowered from, and that expression
    (usually a call). For ops that represent a whole statement both ranges
    are the same. Code generation replaces exactly these bytes.

    It is the metadata of the op's location, a FusedLoc of no other
    location. That is the form IR takes in text; the lowering keeps the
    same fields outside the context behind an OpaqueLoc (one uniqued
    location per op, not two) and turns them into this form before
    printing. `ir::getSourceSpan` reads either form; `ir::getSourcePosition`
    also reads a plain `FileLineColLoc` (hand-written IR).

    Example: `loc(fused<#detc.src<"t.py":7:5, stmt 120 to 151, expr 128 to
    151>>[unknown])`
  }];
  let parameters = (ins "::mlir::StringAttr":$file, "unsigned":$line,
                        "unsigned":$column,
                        "uint32_t":$stmtBegin, "uint32_t":$stmtEnd,
                        "uint32_t":$exprBegin, "uint32_t":$exprEnd);
  // `<"file":line:column, stmt B to E, expr B to E>`, written by hand: a
  // declarative format would take the `:` after the string for its type.
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Detc_ParallelKind : I32EnumAttr<"ParallelKind",
    "what the concurrent units of a data-parallel region are", [
  I32EnumAttrCase<"PerExample", 0, "per_example">,
  I32EnumAttrCase<"PerBatch", 1, "per_batch">
]> {
  let cppNamespace = "::detc::ir";
  let genSpecializedAttr = 0;
}
def Detc_ParallelKindAttr : EnumAttr<Detc_Dialect, Detc_ParallelKind,
                                     "parallel_kind">;

def Detc_ClassRole : I32EnumAttr<"ClassRole",
    "what a user-defined class is to the training program", [
  I32EnumAttrCase<"Plain", 0, "plain">,
  I32EnumAttrCase<"Model", 1, "model">,
  I32EnumAttrCase<"Dataset", 2, "dataset">,
  I32EnumAttrCase<"Transform", 3, "transform">
]> {
  let cppNamespace = "::detc::ir";
  let genSpecializedAttr = 0;
}
def Detc_ClassRoleAttr : EnumAttr<Detc_Dialect, Detc_ClassRole, "class_role">;

def Detc_FuncKind : I32EnumAttr<"FuncKind",
    "where a function comes from in the Python source", [
  I32EnumAttrCase<"Module", 0, "module">,
  I32EnumAttrCase<"Function", 1, "function">,
  I32EnumAttrCase<"Method", 2, "method">,
  I32EnumAttrCase<"Lambda", 3, "lambda">
]> {
  let cppNamespace = "::detc::ir";
  let genSpecializedAttr = 0;
}
def Detc_FuncKindAttr : EnumAttr<Detc_Dialect, Detc_FuncKind, "func_kind">;

#endif // DETC_IR_DETCATTRS_TD

//===- DetcAttrs.td - Attributes and enums of the detc dialect --*- tablegen -*-===//

#ifndef DETC_IR_DETCATTRS_TD
#define DETC_IR_DETCATTRS_TD

include "detc/ir/DetcDialect.td"

def Detc_SourceSpanAttr : AttrDef<Detc_Dialect, "SourceSpan"> {
  let mnemonic = "src";
  let summary = "Byte ranges of a statement and of an expression in it";
  let description = [{
    Half-open byte ranges into the original source file: the statement an op
    was lowered from, and the expression (usually a call) the op stands for.
    For ops that represent a whole statement both ranges are the same. Code
    generation replaces exactly these bytes.

    Example: `loc(fused<#detc.src<stmt 120 to 151, expr 128 to 151>>["t.py":7:4])`
  }];
  let parameters = (ins "uint32_t":$stmtBegin, "uint32_t":$stmtEnd,
                        "uint32_t":$exprBegin, "uint32_t":$exprEnd);
  let assemblyFormat = [{
    `<` `stmt` $stmtBegin `to` $stmtEnd `,` `expr` $exprBegin `to` $exprEnd `>`
  }];
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

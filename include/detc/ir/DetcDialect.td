//===- DetcDialect.td - The detc dialect -------------------------*- tablegen -*-===//
//
// The dialect that models a Python training program the way DETrain's
// language does (SPEC.md §1): generators and their draws, data-parallel
// regions, model build/forward/backward, data loading, loops, checkpoints
// and checkpoint hints. Everything else is a generic statement whose defined
// and used variables are explicit.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_IR_DETCDIALECT_TD
#define DETC_IR_DETCDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Detc_Dialect : Dialect {
  let name = "detc";
  let cppNamespace = "::detc::ir";
  let summary = "A model of deep-learning training programs for "
                "determinism, replay and checkpointing";
  let description = [{
    The `detc` dialect represents one Python training script (and the local
    modules it imports) as statements that read and write *named variables*.
    Python values are not SSA values: a statement lists the variables it
    defines (`defs`), updates in place (`updates`) and reads (`uses`) as
    string attributes, which makes the dataflow problems of DETrain (the
    ThreadSafe/ERR and Needed analyses) and CheckHint (liveness) direct to
    state. Statement ops implement `VarAccessOpInterface`.

    Variable names follow one convention:

    | form      | meaning                                                      |
    |-----------|--------------------------------------------------------------|
    | `x`       | a local variable of the enclosing `detc.func`                |
    | `@x`      | a module-level (global) variable                             |
    | `^x`      | a variable of an enclosing function (closure cell)           |
    | `a.b.c`   | attribute path rooted at any of the above (`self.fc`)        |
    | `$3`      | a temporary made by the lowering for a sub-expression        |
    | `<torch>` | the implicit global generator of a library (`<numpy>`,       |
    |           | `<random>`, `<tensorflow>`)                                  |

    Every op carries the Python source position as its location: the file,
    the line and column of the expression the op stands for, and the byte
    ranges of the whole statement and of that expression (used by code
    generation to rewrite source text in place). In text it is a
    `#detc.src` attribute fused into the location; the lowering keeps it
    outside the context behind an OpaqueLoc and turns it into that form
    before printing. Print with `--mlir-print-debuginfo` to see them.
  }];
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Where the spans of lowered ops live (SourceSpans.h).
    SourceSpanStore &getSourceSpans() { return *sourceSpans; }

  private:
    std::unique_ptr<SourceSpanStore> sourceSpans;

  public:
  }];
}

#endif // DETC_IR_DETCDIALECT_TD

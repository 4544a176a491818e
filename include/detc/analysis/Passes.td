//===- Passes.td - Analysis test passes ---------------------*- tablegen -*-===//
//
// Passes that run one analysis on a detc module and print its result, so
// lit tests can check every rule of SPEC Tables 1 and 3 on small programs.
// Output goes to stdout, one line per statement of the expanded program:
//
//   [<node>] <kind> <file:line:col> <call path>: <lattice>
//
// where the call path lists the call/forward sites of the instance
// (`via 28:5`) so the two expansions of a helper are told apart.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_ANALYSIS_PASSES
#define DETC_ANALYSIS_PASSES

include "mlir/Pass/PassBase.td"

def TestStatementGraph : Pass<"test-statement-graph", "mlir::ModuleOp"> {
  let summary = "Print the expanded statement graph with dominators and loops";
  let description = [{
    Prints every node of the statement graph with its successors, its
    immediate dominator and the natural loop it belongs to (header and
    depth), then the loop forest. Example:

    ```
    detc-opt --test-statement-graph fig4.mlir
    [9] branch fig4:19:1: succ 10 45; idom 8; loop 9 depth 1
    loop 9 (fig4:19:1) depth 1 parent none latches 14
    ```
  }];
}

def TestThreadSafety : Pass<"test-thread-safety", "mlir::ModuleOp"> {
  let summary = "Print ThreadSafe before/after every statement and ERR";
  let description = [{
    Runs Analysis A (SPEC §2, Table 1) and prints, per statement, the
    generators that are thread-safe before and after it, then the unsafe
    uses and ERR. Example:

    ```
    [21] draw fig4:14:5 via 28:5: before {} after {}
    unsafe: fig4:14:5 'rng1' in region fig4:25:5
    unsafe: fig4:31:5 'rng3' in region fig4:25:5
    ERR: {'rng1', 'rng3'}
    ```
  }];
}

def TestNeeded : Pass<"test-needed", "mlir::ModuleOp"> {
  let summary = "Print Needed before/after every statement per checkpoint";
  let description = [{
    Runs Analysis B (SPEC §4, Table 3) and prints, for each user
    checkpoint, the variables needed before and after each statement of the
    part of the program that reaches it, marking the statements that
    fast-forward re-executes (`rerun`) and the skipped work (`skip`).
    Example:

    ```
    checkpoint fig4:45:5
    [11] stmt fig4:21:3 rerun: before {data, gen 'rng2', rng2, shuffle_mask} after {data, gen 'rng2', rng2}
    ```
  }];
}

def TestLiveness : Pass<"test-liveness", "mlir::ModuleOp"> {
  let summary = "Print the variables live after every statement";
  let description = [{
    Prints liveness (backward may-analysis) after each statement, including
    attributes (`obj.count`), module globals (`@best`) and closure
    variables (printed without their instance qualifier). Example:

    ```
    [5] hint t:5:1: live after {best, obj, obj.count}
    ```
  }];
}

#endif // DETC_ANALYSIS_PASSES

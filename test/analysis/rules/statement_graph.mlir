// The statement graph with dominators and the loop forest: a for loop with
// a nested while (break leaves the while, continue returns to its test),
// and a helper expanded once per call site.
// RUN: detc-opt %s --test-statement-graph -o /dev/null | FileCheck %s

// CHECK: [0] entry: succ 1; idom none
// CHECK: [1] branch g:1:1: succ 2 [[EXIT:[0-9]+]]; idom 0; loop 1 depth 1
// CHECK: [2] branch g:2:3: succ 3 1; idom 1; loop 2 depth 2
// CHECK: [3] branch g:3:5: succ 4 5; idom 2; loop 2 depth 2
// CHECK: [4] stmt g:4:7: succ 1; idom 3; loop 1 depth 1
// CHECK: [5] call_enter g:5:5: succ 6; idom 3; loop 2 depth 2
// CHECK: [6] stmt g:9:3 via 5:5: succ 7; idom 5; loop 2 depth 2
// CHECK: loop 1 (g:1:1) depth 1 parent none latches 2 4
// CHECK: loop 2 (g:2:3) depth 2 parent 1 latches 9
detc.func @helper kind function {
  detc.stmt "expr" uses ["x"] loc("g":9:3)
}
detc.func @__main__ kind module {
  detc.for defs ["epoch"] {
    detc.while uses ["more"] {
      detc.if uses ["done"] {
        detc.break loc("g":4:7)
      } loc("g":3:5)
      detc.call @helper loc("g":5:5)
      detc.continue loc("g":6:5)
    } loc("g":2:3)
  } loc("g":1:1)
}

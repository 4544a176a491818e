// Table 1 (SPEC §2), one rule per function, printed by --test-thread-safety.
// Each program is its own module (split-input-file).
// RUN: detc-opt %s --split-input-file --test-thread-safety -o /dev/null | FileCheck %s

// PARALLEL_REGION (begin): every generator is unsafe after the begin;
// (end): TS after the end is TS before the begin. RANDOM_USE: a draw with
// TS false puts its generator in ERR; TS passes through the draw.
// CHECK-LABEL: [0] entry
// CHECK: [1] create r:1:1: before {'g'} after {'g'}
// CHECK: [2] parallel_begin r:2:1: before {'g'} after {}
// CHECK: [3] draw r:3:1: before {} after {}
// CHECK: [4] parallel_end r:2:1: before {'g'} after {'g'}
// CHECK: [5] draw r:4:1: before {'g'} after {'g'}
// CHECK: unsafe: r:3:1 'g' in region r:2:1
// CHECK-NEXT: ERR: {'g'}
detc.func @__main__ kind module {
  detc.create_generator "numpy" seeded defs ["g"] loc("r":1:1)
  detc.parallel per_batch uses ["x"] {
    detc.draw "g" dist "normal" defs ["a"] loc("r":3:1)
  } loc("r":2:1)
  detc.draw "g" dist "normal" defs ["b"] loc("r":4:1)
}

// -----

// RANDOM_CREATE: the created generator is safe after its creation, even
// inside a region (thread-local); the others keep their value; a reseed of
// the global generator inside the region makes the global safe after it.
// CHECK-LABEL: [0] entry
// CHECK: [2] create r:11:1: before {} after {'local'}
// CHECK: [3] draw r:12:1: before {'local'} after {'local'}
// CHECK: [4] create r:13:1: before {'local'} after {'local', 'torch' (global)}
// CHECK: [5] draw r:14:1: before {'local', 'torch' (global)}
// CHECK-NOT: unsafe
// CHECK: ERR: {}
detc.func @__main__ kind module {
  detc.parallel per_example uses ["x"] {
    detc.create_generator "numpy" seeded defs ["local"] loc("r":11:1)
    detc.draw "local" dist "normal" defs ["a"] loc("r":12:1)
    detc.create_generator "torch" seeded defs ["<torch>"] loc("r":13:1)
    detc.draw "<torch>" dist "normal" defs ["b"] loc("r":14:1)
  } loc("r":10:1)
}

// -----

// DEFAULT and the meet over predecessors: a generator created in one branch
// of an if inside a region is unsafe after the join (the other branch
// leaves it unsafe); DEFAULT statements pass TS through.
// CHECK-LABEL: [0] entry
// CHECK: [2] branch r:21:1: before {} after {}
// CHECK: [3] create r:22:1: before {} after {'g'}
// CHECK: [4] stmt r:23:1: before {} after {}
// CHECK: [5] stmt r:24:1: before {} after {}
// CHECK: [6] draw r:25:1: before {} after {}
// CHECK: unsafe: r:25:1 'g' in region r:20:1
detc.func @__main__ kind module {
  detc.parallel per_batch uses ["x"] {
    detc.if uses ["c"] {
      detc.create_generator "numpy" seeded defs ["g"] loc("r":22:1)
    } else {
      detc.stmt "pass" loc("r":23:1)
    } loc("r":21:1)
    detc.stmt "assign" defs ["y"] loc("r":24:1)
    detc.draw "g" dist "normal" defs ["a"] loc("r":25:1)
  } loc("r":20:1)
}

// -----

// Loops reach their fixpoint: inside a region, a generator created at the
// end of the loop body is safe at the next iteration's draw only along the
// back edge; the first iteration makes the meet false.
// CHECK-LABEL: [0] entry
// CHECK: [2] branch r:41:1: before {} after {}
// CHECK: [3] draw r:42:1: before {} after {}
// CHECK: [4] create r:43:1: before {} after {'g'}
// CHECK: unsafe: r:42:1 'g' in region r:40:1
detc.func @__main__ kind module {
  detc.parallel per_batch uses ["x"] {
    detc.for defs ["i"] {
      detc.draw "g" dist "normal" defs ["a"] loc("r":42:1)
      detc.create_generator "numpy" seeded defs ["g"] loc("r":43:1)
    } loc("r":41:1)
  } loc("r":40:1)
}

// -----

// Calls: a helper called outside and inside a region has two instances;
// only the inside one is unsafe (its node shows the call site). Aliasing: the
// generator reaches the helper as an argument and through a copy.
// CHECK-LABEL: [0] entry
// CHECK: draw r:51:1 via 55:1: before {'g'} after {'g'}
// CHECK: draw r:51:1 via 57:1: before {} after {}
// CHECK: unsafe: r:51:1 'g' in region r:56:1
// CHECK-NEXT: ERR: {'g'}
detc.func @helper kind function params ["rng"] {
  detc.draw "rng" dist "normal" defs ["a"] loc("r":51:1)
}
detc.func @__main__ kind module {
  detc.create_generator "numpy" seeded defs ["g"] loc("r":53:1)
  detc.stmt "assign" copy defs ["alias"] uses ["g"] loc("r":54:1)
  detc.call @helper bind {rng = "g"} uses ["g"] loc("r":55:1)
  detc.parallel per_batch uses ["x"] {
    detc.call @helper bind {rng = "alias"} uses ["alias"] loc("r":57:1)
  } loc("r":56:1)
}

// -----

// Nested regions inside a loop: the inner end restores the state before the
// inner begin (the outer region's state, where the thread-local generator
// is safe), the outer end the state before the outer begin.
// CHECK-LABEL: [0] entry
// CHECK: draw r:32:1: before {'g', 'torch' (global)} after {'g', 'torch' (global)}
// CHECK: parallel_begin r:33:1: before {'g', 'torch' (global)} after {}
// CHECK: create r:34:1: before {} after {'g'}
// CHECK: parallel_begin r:35:1: before {'g'} after {}
// CHECK: draw r:36:1: before {} after {}
// CHECK: parallel_end r:35:1: {{.*}} after {'g'}
// CHECK: draw r:37:1: before {'g'} after {'g'}
// CHECK: parallel_end r:33:1: {{.*}} after {'g', 'torch' (global)}
// CHECK: unsafe: r:36:1 'g' in region r:35:1
// CHECK-NEXT: ERR: {'g'}
detc.func @__main__ kind module {
  detc.for defs ["epoch"] {
    detc.draw "<torch>" dist "permutation" defs ["perm"] loc("r":32:1)
    detc.parallel per_batch uses ["perm"] {
      detc.create_generator "numpy" seeded defs ["g"] loc("r":34:1)
      detc.parallel per_example uses ["perm"] {
        detc.draw "g" dist "normal" defs ["a"] loc("r":36:1)
      } loc("r":35:1)
      detc.draw "g" dist "normal" defs ["b"] loc("r":37:1)
    } loc("r":33:1)
  } loc("r":31:1)
}

// -----

// An exception raised inside a region leaves it, as a break or return does:
// through a region end of its own (the second parallel_end), so the outer
// handler and what follows see TS as it was before the begin, not the
// region's. A handler of a try inside the region stays in the region.
// CHECK-LABEL: [0] entry
// CHECK: parallel_begin r:22:1: before {'g'} after {}
// CHECK: draw r:26:1: before {} after {}
// CHECK: parallel_end r:22:1: before {'g'} after {'g'}
// CHECK: parallel_end r:22:1: before {'g'} after {'g'}
// CHECK: stmt r:28:1: before {'g'} after {'g'}
// CHECK: draw r:29:1: before {'g'} after {'g'}
// CHECK: unsafe: r:26:1 'g' in region r:22:1
// CHECK-NEXT: ERR: {'g'}
detc.func @__main__ kind module {
  detc.create_generator "numpy" seeded defs ["g"] loc("r":21:1)
  detc.try {
    detc.parallel per_example uses ["x"] {
      detc.try {
        detc.stmt "assign" defs ["y"] loc("r":24:1)
      } except {
        detc.draw "g" dist "normal" defs ["a"] loc("r":26:1)
      }
    } loc("r":22:1)
  } except {
    detc.stmt "except" loc("r":28:1)
  }
  detc.draw "g" dist "normal" defs ["b"] loc("r":29:1)
}

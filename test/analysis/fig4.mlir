// The paper's running example (DETrain Fig. 4) written in the dialect; each
// op carries the paper's line number. SPEC §2: ERR = {rng1, rng3}; the
// global generator rng0 and the shuffle generator rng2 are used outside
// the region. SPEC §4 / Table 4 at checkpoint(model1) (line 45): model1 is
// restored, so the forward/gradient/backward (28-30, 34-42) are skipped;
// `data` is needed along the back edge 45 -> 19 -> 21, so the shuffle
// (20-22) and what it depends on (2, 6, 7, 11, 18) are re-executed. After
// the transform, the draws from rng1 and rng3 are keyed: they read only the
// generators' seeds, so their seed calls (4, 9) re-run and no generator
// state is saved; rng2's shuffle is stateful and is re-derived.
// RUN: detc analyze %s | FileCheck %s
// RUN: detc analyze %s --format=json | FileCheck %s --check-prefix=JSON

// CHECK: fig4:14:5: warning: generator 'rng1' is used inside the per-batch data-parallel region that starts at fig4:25:5 [detc-unsafe-rng]
// CHECK: fig4:4:1: note: generator 'rng1' created here
// CHECK: fig4:25:5: note: the per-batch data-parallel region begins here
// CHECK: fig4:28:5: note: reached through the forward of 'model1' here
// CHECK: fig4:14:5: note: also unsafe on 2 other call path(s)
// CHECK: fig4:31:5: warning: generator 'rng3' is used inside the per-batch data-parallel region that starts at fig4:25:5 [detc-unsafe-rng]
// CHECK: fig4:9:1: note: generator 'rng3' created here
// CHECK-NOT: warning
// CHECK: fig4:45:5: note: replay from this checkpoint [detc-replay]
// CHECK-NEXT: saved by the checkpoint: model1
// CHECK-NEXT: saved by detc: generator states: (none)
// CHECK-NEXT: saved by detc: loop positions: epoch (line 19), i (line 23)
// CHECK-NEXT: saved by detc (needed, not re-derivable): (none)
// CHECK-NEXT: fast-forwarded: data, batch, generator 'rng2', seed of generator 'rng1', seed of generator 'rng3'
// CHECK-NEXT: re-executed in fast-forward: lines 2 4 6 7 9 11 18 19 20 21 22 23{{$}}
// CHECK-NEXT: skipped in fast-forward: forward (line 28), gradient (line 29), optimizer step (line 30), forward (line 34), gradient (line 35), forward (line 40), gradient (line 41), optimizer step (line 42)
// CHECK: 2 warning(s); unsafe generators (ERR): 'rng1', 'rng3'

// JSON: "unsafeGenerators": [
// JSON-NEXT: "'rng1'",
// JSON-NEXT: "'rng3'"
// JSON-NEXT: ]

module {
  detc.func @__main__ kind module {
    detc.create_generator "torch" seeded defs ["<torch>"] loc("fig4":2:1)
    detc.create_generator "torch" seeded defs ["rng1"] loc("fig4":4:1)
    detc.draw "<torch>" dist "integers" defs ["shuffle_seed"] loc("fig4":6:1)
    detc.create_generator "torch" seeded defs ["rng2"] uses ["shuffle_seed"] loc("fig4":7:1)
    detc.create_generator "torch" seeded defs ["rng3"] loc("fig4":9:1)
    detc.load_data defs ["ds1"] loc("fig4":11:1)
    detc.build "m1" defs ["model1"] {
      detc.stmt "assign" defs ["input"] loc("fig4":13:5)
      detc.draw "rng1" dist "dropout" defs ["drop_mask"] uses ["input"] loc("fig4":14:5)
      detc.stmt "assign" defs ["out"] uses ["input", "drop_mask"] loc("fig4":15:5)
    } loc("fig4":12:1)
    detc.stmt "assign" copy defs ["data"] uses ["ds1"] loc("fig4":18:1)
    detc.for defs ["epoch"] {
      detc.draw "rng2" dist "permutation" defs ["shuffle_mask"] uses ["data"] loc("fig4":20:3)
      detc.stmt "assign" defs ["data"] uses ["data", "shuffle_mask"] loc("fig4":21:3)
      detc.batches "data" workers "0" defs ["batch"] uses ["data"] loc("fig4":22:3)
      detc.for defs ["i"] uses ["batch"] {
        detc.stmt "assign" defs ["current_batch"] uses ["batch", "i"] loc("fig4":24:5)
        detc.parallel per_batch uses ["current_batch"] {
          detc.stmt "assign" defs ["X"] uses ["current_batch"] loc("fig4":26:5)
          detc.stmt "assign" defs ["Y"] uses ["current_batch"] loc("fig4":27:5)
          detc.forward "model1" builds ["m1"] defs ["loss"] uses ["model1", "X", "Y"] loc("fig4":28:5)
          detc.grad defs ["g"] uses ["loss", "model1"] loc("fig4":29:5)
          detc.update "B" updates ["model1"] uses ["model1", "g"] loc("fig4":30:5)
          detc.draw "rng3" dist "normal" defs ["noise"] uses ["current_batch"] loc("fig4":31:5)
          detc.stmt "assign" defs ["adv_sample"] uses ["X", "noise"] loc("fig4":32:5)
          detc.for defs ["k"] {
            detc.forward "model1" builds ["m1"] defs ["loss"] uses ["model1", "adv_sample", "Y"] loc("fig4":34:7)
            detc.grad defs ["g"] uses ["loss", "adv_sample"] loc("fig4":35:7)
            detc.stmt "assign" defs ["adv_sample"] uses ["adv_sample", "g"] loc("fig4":37:7)
          } loc("fig4":33:5)
          detc.forward "model1" builds ["m1"] defs ["loss"] uses ["model1", "adv_sample", "Y"] loc("fig4":40:5)
          detc.grad defs ["g"] uses ["loss", "model1"] loc("fig4":41:5)
          detc.update "B" updates ["model1"] uses ["model1", "g"] loc("fig4":42:5)
        } loc("fig4":25:5)
        detc.checkpoint saved ["model1"] uses ["model1"] loc("fig4":45:5)
      } loc("fig4":23:3)
    } loc("fig4":19:1)
  }
}

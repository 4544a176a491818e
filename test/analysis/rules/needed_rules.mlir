// Table 3 (SPEC §4) with detc's checkpoint rule (docs/analysis.md), printed
// by --test-needed: per checkpoint, Needed before/after each statement that
// reaches it, `rerun` for what fast-forward re-executes, `skip` for skipped
// work.
// RUN: detc-opt %s --split-input-file --test-needed -o /dev/null | FileCheck %s

// STATEMENTS `V = E`: V needed after, V ∉ vars(E) -> V not needed before,
// vars(E) needed before; a statement whose V is not needed passes Needed
// through and is not re-run (`unused = w` does not make w needed).
// `V[E1] = E2` (an update): V, E1 and E2 are needed before.
// CHECKPOINTING: what the user saves (`m`) is restored, so not needed.
// CHECK-LABEL: checkpoint r:9:1
// CHECK: [1] stmt r:1:1 rerun: before {} after {base}
// CHECK: [2] stmt r:2:1 rerun: before {base} after {lr}
// CHECK: [3] stmt r:3:1: before {lr} after {lr}
// CHECK: [4] stmt r:4:1 rerun: before {lr} after {i, lr}
// CHECK: [5] stmt r:5:1 rerun: before {i, lr} after {i, lr, v}
// CHECK: [6] stmt r:6:1 rerun: before {i, lr, v} after {lr}
// CHECK: [7] stmt r:7:1: before {lr} after {lr}
// CHECK: [8] checkpoint r:9:1: before {lr} after {}
// CHECK: fast-forwarded {lr} detc-saved {}
detc.func @__main__ kind module {
  detc.stmt "assign" defs ["base"] loc("r":1:1)
  detc.stmt "assign" defs ["lr"] uses ["base"] loc("r":2:1)
  detc.stmt "assign" defs ["unused"] uses ["w"] loc("r":3:1)
  detc.stmt "assign" defs ["i"] loc("r":4:1)
  detc.stmt "assign" defs ["v"] loc("r":5:1)
  detc.stmt "assign" updates ["lr"] uses ["i", "v"] loc("r":6:1)
  detc.stmt "assign" defs ["m"] loc("r":7:1)
  detc.checkpoint saved ["m"] uses ["m"] loc("r":9:1)
  detc.stmt "expr" uses ["lr", "m"] loc("r":10:1)
}

// -----

// B(M, V): the model is restored by the checkpoint, so Needed[M@a] is false
// and the step (with the forward and gradient that feed it) is skipped. A
// value derived from skipped work that is read after the checkpoint
// (`loss`) cannot be re-derived: detc saves it. The input `x` the next
// iteration reads is re-derived.
// CHECK-LABEL: checkpoint r:25:1
// CHECK: [1] stmt r:21:1: before {} after {}
// CHECK: [2] stmt r:19:1 rerun: before {} after {x}
// CHECK: [3] branch r:20:1 rerun: before {x} after {x}
// CHECK: [4] stmt r:22:1 skip: before {x} after {x}
// CHECK: [5] stmt r:23:1 skip: before {x} after {x}
// CHECK: [6] update r:24:1 skip: before {x} after {x}
// CHECK: fast-forwarded {x} detc-saved {loss}
detc.func @__main__ kind module {
  detc.stmt "assign" defs ["m"] loc("r":21:1)
  detc.stmt "assign" defs ["x"] loc("r":19:1)
  detc.for defs ["step"] {
    detc.forward "m" defs ["loss"] uses ["m", "x"] loc("r":22:1)
    detc.grad updates ["m"] uses ["loss"] loc("r":23:1)
    detc.update "opt" updates ["m"] uses ["m"] loc("r":24:1)
    detc.checkpoint saved ["m"] uses ["m"] loc("r":25:1)
    detc.stmt "expr" uses ["loss"] loc("r":26:1)
  } loc("r":20:1)
}

// -----

// FLOW: Needed after a statement is the union over its successors — after
// the if, `a` is needed on one branch and `b` on the other. Control
// dependence: the branch that decides whether `lr` is rescaled re-runs, so
// its test `c` is needed. Back edge: `lr` is needed at the loop head
// because the next iteration reads it.
// CHECK-LABEL: checkpoint r:36:1
// CHECK: [1] stmt r:30:1 rerun: before {} after {a}
// CHECK: [2] stmt r:31:1 rerun: before {a} after {a, b}
// CHECK: [3] stmt r:32:1 rerun: before {a, b} after {a, b, c}
// CHECK: [4] stmt r:33:1 rerun: before {a, b, c} after {a, b, c, lr}
// CHECK: [5] branch r:34:1 rerun: before {a, b, c, lr} after {a, b, c, lr}
// CHECK: [6] branch r:35:1 rerun: before {a, b, c, lr} after {a, b, c, lr}
// CHECK: [7] stmt r:37:1 rerun: before {a, b, c, lr} after {a, b, c, lr}
// CHECK: [8] checkpoint r:36:1: before {a, b, c, lr} after {a, b, c, lr}
// CHECK: [9] branch r:40:1: before
// CHECK: [10] stmt r:38:1: before {a, b, c, lr} after {a, b, c, lr}
// CHECK: [11] stmt r:39:1: before {a, b, c, lr} after {a, b, c, lr}
// CHECK: fast-forwarded {a, b, c, lr} detc-saved {}
detc.func @__main__ kind module {
  detc.stmt "assign" defs ["a"] loc("r":30:1)
  detc.stmt "assign" defs ["b"] loc("r":31:1)
  detc.stmt "assign" defs ["c"] loc("r":32:1)
  detc.stmt "assign" defs ["lr"] loc("r":33:1)
  detc.for defs ["epoch"] {
    detc.if uses ["c"] {
      detc.stmt "augassign" updates ["lr"] uses ["lr"] loc("r":37:1)
    } loc("r":35:1)
    detc.checkpoint saved ["m"] uses ["m"] loc("r":36:1)
    detc.if uses ["epoch"] {
      detc.stmt "expr" uses ["a", "lr"] loc("r":38:1)
    } else {
      detc.stmt "expr" uses ["b"] loc("r":39:1)
    } loc("r":40:1)
  } loc("r":34:1)
}

// -----

// GENERATORS, as `detc transform` leaves them. The draw from `g` in the
// batch region is unsafe, so the transform keys it: it reads g's seed and
// leaves its state alone — the seed call (51) re-runs, nothing is saved for
// g (Needed tracks a generator's seed apart from its state: a stateful
// draw inside skipped work does not make the seed call or the work re-run
// for a keyed draw's sake). The global generator is advanced by the jitter
// drawn inside the batch
// fetch (skipped) and read by the stateful draw after the checkpoint: its
// state cannot be re-derived, so detc saves it.
// CHECK-LABEL: checkpoint r:58:3
// CHECK: [1] create r:50:1: before {} after {}
// CHECK: [2] create r:51:1 rerun: before {} after {seed of generator 'g'}
// CHECK: [5] draw r:55:5: before {data, seed of generator 'g'} after {data, seed of generator 'g'}
// CHECK: [8] draw r:57:5: before {data, seed of generator 'g'} after {data, seed of generator 'g'}
// CHECK: [10] checkpoint r:58:3: before {data, seed of generator 'g'} after {data, seed of generator 'g'}
// CHECK: fast-forwarded {data, seed of generator 'g'} detc-saved {generator 'torch' (global)}
detc.func @__main__ kind module {
  detc.create_generator "torch" seeded defs ["<torch>"] loc("r":50:1)
  detc.create_generator "torch" seeded defs ["g"] loc("r":51:1)
  detc.stmt "assign" defs ["data"] loc("r":52:1)
  detc.for defs ["step"] {
    detc.fetch "data" defs ["x"] uses ["data"] {
      detc.draw "<torch>" dist "normal" defs ["jitter"] loc("r":55:5)
    } loc("r":54:3)
    detc.parallel per_batch uses ["x"] {
      detc.draw "g" dist "normal" defs ["noise"] uses ["x"] loc("r":57:5)
    } loc("r":56:3)
    detc.checkpoint saved ["m"] uses ["m"] loc("r":58:3)
    detc.draw "<torch>" dist "normal" defs ["z"] loc("r":59:3)
  } loc("r":53:1)
}

// -----

// JUMPS: a `break` decides whether the rest of the loop runs, so the test
// guarding it re-runs in fast-forward (the loop must stop where the
// original stopped), with what it reads.
// CHECK-LABEL: checkpoint r:76:3
// CHECK: [1] stmt r:70:1 rerun: before {} after {limit}
// CHECK: [2] stmt r:71:1 rerun: before {limit} after {limit, n}
// CHECK: [4] stmt r:73:3 rerun: before {limit, n} after {limit, n}
// CHECK: [5] branch r:74:3 rerun: before {limit, n} after {limit, n}
// CHECK: fast-forwarded {limit, n} detc-saved {}
detc.func @__main__ kind module {
  detc.stmt "assign" defs ["limit"] loc("r":70:1)
  detc.stmt "assign" defs ["n"] loc("r":71:1)
  detc.for defs ["i"] {
    detc.stmt "augassign" updates ["n"] uses ["n"] loc("r":73:3)
    detc.if uses ["n", "limit"] {
      detc.break loc("r":75:5)
    } loc("r":74:3)
    detc.checkpoint saved ["m"] uses ["m"] loc("r":76:3)
  } loc("r":72:1)
}

// -----

// JUMPS of a loop fast-forward does not run: the loop's statements are
// not needed (a loss's loop over pairs of views, in a forward fast-forward
// skips: DINO's), so its `continue` decides nothing there and its test
// does not re-run. A loop with a statement that re-runs (`acc`, read
// after L) runs, and so does the test of its `break`.
// CHECK-LABEL: checkpoint r:91:3
// CHECK: [1] stmt r:80:1 rerun: before {} after {acc}
// CHECK: [3] branch r:82:3: before {acc} after {acc}
// CHECK: [4] branch r:83:5: before {acc} after {acc}
// CHECK: [6] stmt r:85:5: before {acc} after {acc}
// CHECK: [7] branch r:86:3 rerun: before {acc} after {acc, w}
// CHECK: [8] branch r:87:5 rerun: before {acc, w} after {acc, w}
// CHECK: [10] stmt r:89:5 rerun: before {acc, w} after {acc}
// CHECK: fast-forwarded {acc} detc-saved {}
detc.func @__main__ kind module {
  detc.stmt "assign" defs ["acc"] loc("r":80:1)
  detc.for defs ["epoch"] {
    detc.for defs ["v"] {
      detc.if uses ["v"] {
        detc.continue loc("r":84:7)
      } loc("r":83:5)
      detc.stmt "assign" defs ["t"] uses ["v"] loc("r":85:5)
    } loc("r":82:3)
    detc.for defs ["w"] {
      detc.if uses ["w", "acc"] {
        detc.break loc("r":88:7)
      } loc("r":87:5)
      detc.stmt "augassign" updates ["acc"] uses ["acc", "w"] loc("r":89:5)
    } loc("r":86:3)
    detc.checkpoint saved ["m"] uses ["m"] loc("r":91:3)
    detc.stmt "expr" uses ["acc"] loc("r":92:3)
  } loc("r":81:1)
}

// -----

// ALIASES: of what Needed would have detc save, the other names of an
// object the checkpoint saves, at L on every path (RestoredAliases):
// `m2 = m` (a copy), the wrapper `w` of `m` and `inner = w.module`. `m3`
// was a copy too but holds another object since; `half` is one only on
// one path. A restore that loads `m` in place restores the aliases
// (ReplayPlan does not save them).
// CHECK-LABEL: checkpoint r:111:5
// CHECK: detc-saved {half, inner, m2, m3, w} aliases {m2 ~ m, w ~ m, inner ~ m}
detc.func @__main__ kind module {
  detc.stmt "assign" defs ["m"] loc("r":100:1)
  detc.stmt "assign" copy defs ["m2"] uses ["m"] loc("r":101:1)
  detc.stmt "assign" copy defs ["m3"] uses ["m"] loc("r":102:1)
  detc.stmt "assign" defs ["m3"] uses ["x"] loc("r":103:1)
  detc.build "b1" defs ["w"] uses ["m"] attributes {wraps = "m"} {
  } loc("r":104:1)
  detc.stmt "assign" copy defs ["inner"] uses ["w.module"] loc("r":105:1)
  detc.stmt "assign" defs ["half"] loc("r":106:1)
  detc.if uses ["x"] {
    detc.stmt "assign" copy defs ["half"] uses ["m"] loc("r":108:3)
  } loc("r":107:1)
  detc.for defs ["i"] {
    detc.grad updates ["m", "m2", "m3", "w", "inner", "half"] uses ["x"] loc("r":110:3)
    detc.checkpoint saved ["m"] uses ["m"] loc("r":111:5)
    detc.stmt "expr" uses ["m2", "m3", "w", "inner", "half"] loc("r":112:3)
  } loc("r":109:1)
}

// -----

// ALIASES THROUGH A HOLDER BUILT ON ONE PATH: `s = None`, then `if x:` a
// constructor stores `self.opt = opt` into `s` (timm's `saver = None; if
// is_primary(args): saver = CheckpointSaver(optimizer=optimizer, ...)`).
// The checkpoint saves `s.opt`: on the path that left `s` None it is not
// reached with `s.opt` (it reads it), so `opt ~ s.opt` holds at L; the
// session-67 first binary had none, and the sidecar saved the optimizer a
// second time. `half` is still a copy on one path only (its other path
// assigns it a literal, and no root is under it).
// CHECK-LABEL: checkpoint r:129:5
// CHECK: detc-saved {half, opt, s} aliases {opt ~ s.opt}
detc.func @__main__ kind module {
  detc.stmt "assign" defs ["opt"] loc("r":120:1)
  detc.stmt "assign" defs ["s"] loc("r":121:1)
  detc.stmt "assign" defs ["half"] loc("r":122:1)
  detc.if uses ["x"] {
    detc.stmt "assign" defs ["s"] uses ["x"] loc("r":124:3)
    detc.stmt "assign" copy defs ["s.opt"] uses ["opt"] loc("r":125:3)
    detc.stmt "assign" copy defs ["half"] uses ["s.opt"] loc("r":126:3)
  } loc("r":123:1)
  detc.for defs ["i"] {
    detc.grad updates ["opt", "s.opt", "half"] uses ["x"] loc("r":128:3)
    detc.checkpoint saved ["s.opt"] uses ["s.opt"] loc("r":129:5)
    detc.stmt "expr" uses ["opt", "half"] loc("r":130:3)
  } loc("r":127:1)
}

// -----

// ATTRIBUTE PATHS OF ANOTHER NAME of what the checkpoint restores in
// place (`m2.lr` of `m2 = m`) are restored with it, as the root's own
// are: neither saved nor re-derived (`m2.lr = i` re-runs for `m2`'s sake
// only). The session-67 first binary re-derived them (timm's
// `optimizer.param_groups`, of the optimizer its saver restores).
// CHECK-LABEL: checkpoint r:156:5
// CHECK: fast-forwarded {m2} detc-saved {opt, opt.count} aliases {m2 ~ m}
detc.class @Opt role plain bases ["torch.optim.optimizer.Optimizer"] {
  detc.func @step kind method params ["self"] {
    detc.stmt "augassign" defs ["self.count"] uses ["self.count"] loc("r":141:3)
  }
}
detc.func @__main__ kind module {
  detc.stmt "assign" defs ["opt"] loc("r":150:1)
  detc.stmt "assign" defs ["m"] loc("r":151:1)
  detc.stmt "assign" copy defs ["m2"] uses ["m"] loc("r":152:1)
  detc.for defs ["i"] {
    detc.call @Opt::@step bind {self = "opt"} uses ["opt"] loc("r":154:3)
    detc.update "opt" updates ["opt", "m"] uses ["opt", "m"] loc("r":154:3)
    detc.stmt "assign" defs ["m2.lr"] uses ["i"] loc("r":155:3)
    detc.checkpoint saved ["m"] uses ["m"] loc("r":156:5)
    detc.stmt "expr" uses ["opt.count", "m2.lr", "m"] loc("r":157:3)
  } loc("r":153:1)
}

// Every op of the dialect prints in a form that parses back to the same
// module (the second run must print exactly what the first one printed).
// RUN: detc-opt %s -mlir-print-debuginfo > %t.1.mlir
// RUN: detc-opt %t.1.mlir -mlir-print-debuginfo > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s < %t.1.mlir

// CHECK-LABEL: detc.class @Net role model bases ["torch.nn.Module"]
detc.class @Net role model bases ["torch.nn.Module"] {
  // CHECK: detc.func @__init__ kind method params ["self"]
  detc.func @__init__ kind method params ["self"] {
    // CHECK: detc.build "b1" defs ["self.drop"] {
    // CHECK-NEXT: detc.draw "<torch>" dist "dropout" defs ["$0"] {api = "torch.nn.Dropout"}
    detc.build "b1" defs ["self.drop"] {
      detc.draw "<torch>" dist "dropout" defs ["$0"] {api = "torch.nn.Dropout"}
    }
  }
  detc.func @forward kind method params ["self", "x"] {
    // CHECK: detc.forward "self.drop" builds ["b1"] defs ["$0"] uses ["self.drop", "x"]
    detc.forward "self.drop" builds ["b1"] defs ["$0"] uses ["self.drop", "x"]
    // CHECK: detc.return uses ["$0"]
    detc.return uses ["$0"]
  }
}

detc.class @Aug role dataset bases ["torch.utils.data.Dataset"] {
  detc.func @__getitem__ kind method params ["self", "i"] {
    detc.draw "<numpy>" dist "uniform" defs ["$0"] {api = "numpy.random.rand"}
    detc.return uses ["$0"]
  }
}

// CHECK-LABEL: detc.func @helper kind function params ["img", "rng"]
detc.func @helper kind function params ["img", "rng"] {
  // CHECK: detc.draw "rng" dist "normal" defs ["$0"] updates ["img"] uses ["img"]
  detc.draw "rng" dist "normal" defs ["$0"] updates ["img"] uses ["img"]
  detc.return uses ["img"]
}

// CHECK-LABEL: detc.func @__main__ kind module
detc.func @__main__ kind module {
  // CHECK: detc.global_generator "torch" defs ["<torch>"]
  detc.global_generator "torch" defs ["<torch>"]
  // CHECK: detc.create_generator "torch" seeded defs ["<torch>"] uses ["@seed"] {api = "torch.manual_seed"}
  detc.create_generator "torch" seeded defs ["<torch>"] uses ["@seed"] {api = "torch.manual_seed"}
  // CHECK: detc.create_generator "numpy" defs ["@g"]
  detc.create_generator "numpy" defs ["@g"]
  // CHECK: detc.stmt "assign" copy defs ["@g2"] uses ["@g"]
  detc.stmt "assign" copy defs ["@g2"] uses ["@g"]
  // CHECK: detc.stmt "assign" restores ["@g2", "@g"] defs ["@state"] uses ["@g2", "@g"]
  detc.stmt "assign" restores ["@g2", "@g"] defs ["@state"] uses ["@g2", "@g"]
  // CHECK: detc.stmt "def" symbol @helper defs ["@helper"]
  detc.stmt "def" symbol @helper defs ["@helper"]
  // CHECK: detc.load_data cls @Aug defs ["@ds"]
  detc.load_data cls @Aug defs ["@ds"]
  // CHECK: detc.batches "@ds" shuffle "<torch>" workers "unknown" defs ["@loader"] uses ["@ds", "@kw"]
  detc.batches "@ds" shuffle "<torch>" workers "unknown" defs ["@loader"] uses ["@ds", "@kw"]
  // CHECK: detc.build "b0" cls @Net defs ["@model"] {
  // CHECK-NEXT: detc.call @Net::@forward bind {x = "$0"}
  detc.build "b0" cls @Net defs ["@model"] {
    detc.call @Net::@forward bind {x = "$0"}
  }
  // CHECK: detc.lib_call "optimizer" defs ["@opt"] uses ["@model"] {api = "torch.optim.SGD"}
  detc.lib_call "optimizer" defs ["@opt"] uses ["@model"] {api = "torch.optim.SGD"}
  // CHECK: detc.for iterations 3 defs ["@epoch"] {
  detc.for iterations 3 defs ["@epoch"] {
    // CHECK: detc.fetch "@loader" defs ["@x", "@y"] uses ["@loader"] {
    // CHECK-NEXT: detc.parallel per_example workers "unknown" uses ["@loader"] {
    // CHECK-NEXT: detc.call @Aug::@__getitem__ bind {i = "$1", self = "@ds"}
    detc.fetch "@loader" defs ["@x", "@y"] uses ["@loader"] {
      detc.parallel per_example workers "unknown" uses ["@loader"] {
        detc.call @Aug::@__getitem__ bind {self = "@ds", i = "$1"}
      }
    }
    // CHECK: detc.parallel per_batch uses ["@x", "@y"] {
    detc.parallel per_batch uses ["@x", "@y"] {
      detc.lib_call "zero_grad" updates ["@opt"] uses ["@opt"] {api = "torch.optim.Optimizer.zero_grad"}
      // CHECK: detc.forward "@model" builds ["b0"] defs ["$2"] uses ["@model", "@x"]
      detc.forward "@model" builds ["b0"] defs ["$2"] uses ["@model", "@x"]
      // CHECK: detc.call @helper bind {img = "@x", rng = "@g2"} defs ["@x"] uses ["@x", "@g2"]
      detc.call @helper bind {img = "@x", rng = "@g2"} defs ["@x"] uses ["@x", "@g2"]
      // CHECK: detc.grad updates ["@model"] uses ["@loss"]
      detc.grad updates ["@model"] uses ["@loss"]
      // CHECK: detc.update "@opt" updates ["@model", "@opt"] uses ["@opt", "@model"]
      detc.update "@opt" updates ["@model", "@opt"] uses ["@opt", "@model"]
      detc.if uses ["@x"] {
        // CHECK: detc.break
        detc.break
      } else {
        // CHECK: detc.continue
        detc.continue
      }
    }
    // CHECK: detc.checkpoint saved ["@model", "@epoch"] uses ["@model", "@epoch"] {api = "torch.save"}
    detc.checkpoint saved ["@model", "@epoch"] uses ["@model", "@epoch"] {api = "torch.save"}
    // CHECK: detc.hint "epoch_end"
    detc.hint "epoch_end"
  } else {
    detc.stmt "pass"
  }
  // CHECK: detc.while iterations 10 uses ["@n"] {
  detc.while iterations 10 uses ["@n"] {
    detc.hint
  }
  // CHECK: detc.restore updates ["@model"] uses ["@model", "@ckpt"]
  detc.restore updates ["@model"] uses ["@model", "@ckpt"]
  // CHECK: detc.with managers ["torch.no_grad"] {
  detc.with managers ["torch.no_grad"] {
    detc.forward "@model" builds ["b0"] defs ["@out"] uses ["@model", "@x"]
  }
  // CHECK: detc.try {
  // CHECK: } except {
  // CHECK: }, {
  // CHECK: } else {
  // CHECK: } finally {
  detc.try {
    detc.raise uses ["ValueError"]
  } except {
    detc.stmt "except" defs ["@e"] uses ["ValueError"]
  }, {
    detc.stmt "except"
  } else {
    detc.stmt "pass"
  } finally {
    // CHECK: detc.stmt "expr" uses ["@f"] loc([[LOC:#loc[0-9]*]])
    detc.stmt "expr" uses ["@f"] loc(fused<#detc.src<"t.py":4:2, stmt 1 to 20, expr 3 to 10>>[unknown])
  }
}
// CHECK: [[UNKNOWN:#loc[0-9]*]] = loc(unknown)
// CHECK: [[LOC]] = loc(fused<#detc.src<"t.py":4:2, stmt 1 to 20, expr 3 to 10>>[[[UNKNOWN]]])

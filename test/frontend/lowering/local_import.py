# Local modules next to the script are lowered too; their functions are
# followed through `import`, `from ... import` and aliases.
# RUN: detc %s | FileCheck %s
# Not followed (`--no-follow-imports`, the corpus's mode), the points-to
# still knows each callee is the program's own function: the call may run
# any code, a draw included, and says so (it was silent).
# RUN: detc %s --no-follow-imports | FileCheck %s --check-prefix=NOFOLLOW
# NOFOLLOW: unread_calls = [{callee = "aug.noise", {{.*}} why = "code of the program ('Inputs.augment_helpers.noise') that detc's lowering did not find"}]
# NOFOLLOW: unread_calls = [{callee = "flip", {{.*}} why = "code of the program ('Inputs.augment_helpers.flip') that detc's lowering did not find"}]
import torch
from Inputs import augment_helpers as aug
from Inputs.augment_helpers import flip

# CHECK: detc.stmt "import" defs ["@aug"]
# CHECK: detc.call @Inputs.augment_helpers.noise defs ["@x"]
x = aug.noise()
# CHECK: detc.call @Inputs.augment_helpers.flip bind {t = "@x"} defs ["@y"] uses ["@x"]
y = flip(x)
# CHECK-LABEL: detc.func @"Inputs.augment_helpers.<module>" kind module
# CHECK-LABEL: detc.func @Inputs.augment_helpers.noise kind function
# CHECK: detc.draw "<torch>" dist "normal" defs ["$0"] {api = "torch.randn"}
# CHECK-LABEL: detc.func @Inputs.augment_helpers.flip kind function params ["t"]
# CHECK: detc.draw "<torch>" dist "uniform"

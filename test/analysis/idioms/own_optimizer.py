# Idiom (issue 17): an optimizer class the script defines. Research code
# writes its own (SignSGD, SAM, LARS): `class SignSGD(torch.optim.Optimizer)`
# with its own `step`. Its `opt.step()` is the script's method *and* the
# update of the models whose parameters the optimizer got, as a library
# optimizer's is: here the loop never resets the gradients
# (detc-missing-zero-grad), and the checkpoint's replay re-runs the update.
# The fixed loop (zero_grad() inherited from torch.optim.Optimizer) is silent.
# A class of the script with a `step` that is not an optimizer updates
# nothing, nor does an LR scheduler's subclass (the lowering: one
# detc.update, for the optimizer only).
# RUN: not detc analyze %s --werror | FileCheck %s
# RUN: detc analyze %S/Inputs/own_optimizer_fixed.py --werror | FileCheck %s --check-prefix=FIXED
# FIXED-NOT: warning:
# FIXED: 0 warning(s)
# RUN: detc %s | FileCheck %s --check-prefix=IR
# IR: detc.call @SignSGD::@step bind {self = "opt"}
# IR-NEXT: detc.update "opt" updates ["model", "opt"] uses ["opt", "model"] {api = "SignSGD.step"}
# IR: detc.call @Counter::@step bind {self = "seen"}
# IR-NOT: detc.update
# IR: detc.call @Halving::@step bind {self = "sched"}
# IR-NOT: detc.update
# IR: detc.checkpoint
import torch
import torch.nn.functional as F
from torch import nn


class SignSGD(torch.optim.Optimizer):
    def __init__(self, params, lr=0.01):
        super().__init__(params, dict(lr=lr))

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    p.add_(torch.sign(p.grad), alpha=-group["lr"])


class Halving(torch.optim.lr_scheduler._LRScheduler):
    def get_lr(self):
        return [base * 0.5 ** self.last_epoch for base in self.base_lrs]

    def step(self, epoch=None):
        super().step(epoch)


class Counter:
    def __init__(self):
        self.n = 0

    def step(self):
        self.n += 1


def main():
    model = nn.Linear(4, 2)
    opt = SignSGD(model.parameters(), lr=0.05)
    seen = Counter()
    sched = Halving(opt)
    x, y = torch.ones(8, 4), torch.zeros(8, dtype=torch.long)
    for epoch in range(3):
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        # CHECK: own_optimizer.py:[[@LINE+1]]:9: warning: gradients are not reset between optimizer steps in the loop at line [[@LINE-3]]
        opt.step()
        seen.step()
        sched.step()
        torch.save({"model": model.state_dict(), "epoch": epoch}, "ckpt.pt")


main()
# CHECK: 1 warning(s)

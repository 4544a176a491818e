"""Sharpness-aware minimization in the shape of davda54/sam, for
just-in-time checkpointing: an optimizer of the script's classes climbs
the parameters in place (first_step), a second forward and backward, then
second_step puts them back and steps the base optimizer it wraps. SAM's
inherited state_dict() leaves out the base optimizer's momentum: JIT
restarts continued without it (exit 0, other weights) until detc saved
what an optimizer subclass holds beyond its state_dict (values.py).

Its model is failing_net.Net; DETC_TEST_FAIL=PHASE:STEP fails minibatch
STEP in its first forward or backward (before first_step: a failure
after it is refused, the parameters having changed outside a step detc
wraps; unit-tested).

usage: jit_sam_train.py [--workers N] [--epochs N] --out FILE"""
import argparse
import time

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

import failing_net

# Two training forwards a minibatch: the failure goes into the first
# (failing_net counts forwards, DETC_TEST_FAIL counts minibatches).
if failing_net.AT > 0:
    failing_net.AT = 2 * failing_net.AT - 1


class SAM(torch.optim.Optimizer):
    def __init__(self, params, base_optimizer, rho=0.05, **kwargs):
        defaults = dict(rho=rho, **kwargs)
        super(SAM, self).__init__(params, defaults)
        self.base_optimizer = base_optimizer(self.param_groups, **kwargs)
        self.param_groups = self.base_optimizer.param_groups

    @torch.no_grad()
    def first_step(self, zero_grad=False):
        norm = torch.norm(torch.stack([p.grad.norm(p=2) for g in self.param_groups
                                       for p in g["params"] if p.grad is not None]), p=2)
        for group in self.param_groups:
            scale = group["rho"] / (norm + 1e-12)
            for p in group["params"]:
                if p.grad is None:
                    continue
                self.state[p]["old_p"] = p.data.clone()
                p.add_(p.grad * scale.to(p))
        if zero_grad:
            self.zero_grad()

    @torch.no_grad()
    def second_step(self, zero_grad=False):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                p.data = self.state[p]["old_p"]
        self.base_optimizer.step()
        if zero_grad:
            self.zero_grad()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(128, 6), torch.randint(0, 3, (128,)))
    loader = DataLoader(data, batch_size=16, shuffle=True,
                        num_workers=args.workers)
    model = failing_net.Net()
    optimizer = SAM(model.parameters(), torch.optim.SGD, lr=0.05, momentum=0.9)
    for epoch in range(args.epochs):
        for step, (x, y) in enumerate(loader):
            F.cross_entropy(model(x), y).backward()
            optimizer.first_step(zero_grad=True)
            F.cross_entropy(model(x), y).backward()
            optimizer.second_step(zero_grad=True)
            time.sleep(0.01)  # so that a SIGTERM lands inside the loop
            print("done %d:%d" % (epoch, step), flush=True)
        torch.save({"model": model.state_dict(),
                    "optimizer": optimizer.state_dict(), "epoch": epoch},
                   args.out)


if __name__ == "__main__":
    main()

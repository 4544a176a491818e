# The fixed variant of own_optimizer.py: zero_grad() (inherited from
# torch.optim.Optimizer) before each backward. Silent.
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


def main():
    model = nn.Linear(4, 2)
    opt = SignSGD(model.parameters(), lr=0.05)
    x, y = torch.ones(8, 4), torch.zeros(8, dtype=torch.long)
    for epoch in range(3):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()


main()

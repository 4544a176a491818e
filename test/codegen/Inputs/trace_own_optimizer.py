"""A training loop whose optimizer is a class of the script
(test/codegen/trace_own_optimizer.test): plain SGD written by hand, its
own `step`; and two classes with a `step` that are not optimizers: a
helper, and an LR scheduler's subclass."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Plain(torch.optim.Optimizer):
    def __init__(self, params, lr):
        super().__init__(params, {"lr": lr})

    @torch.no_grad()
    def step(self, closure=None):
        for g in self.param_groups:
            for p in g["params"]:
                if p.grad is not None:
                    p.add_(p.grad, alpha=-g["lr"])


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
    opt = Plain(model.parameters(), lr=0.1)
    seen = Counter()
    sched = Halving(opt)
    loader = DataLoader(TensorDataset(torch.randn(8, 4), torch.randn(8, 2)), batch_size=4)
    for epoch in range(2):
        for x, y in loader:
            opt.zero_grad()
            loss = ((model(x) - y) ** 2).mean()
            loss.backward()
            opt.step()
            seen.step()
            sched.step()


if __name__ == "__main__":
    main()

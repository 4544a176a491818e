# Models reached the way improved-diffusion reaches its UNet: a loss helper
# whose `model` is a wrapping object in one call and a lambda in another
# (both are called: the instance's `__call__` runs the wrapped network,
# whose dropout draws per batch), and a block run through a custom
# autograd function (`Checkpointed.apply(self._forward, x)` runs the
# class's static `forward`, which calls the bound method it was given).
# Before, the lambda alone was followed and `apply` was a pure call of
# torch's: neither dropout was reported.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class Checkpointed(torch.autograd.Function):
    @staticmethod
    def forward(ctx, run, x):
        with torch.no_grad():
            return run(x)

    @staticmethod
    def backward(ctx, grad):
        return None, grad


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        # CHECK-DAG: model_candidates.py:[[@LINE+1]]:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}model_candidates.py:[[@LINE+30]]:1
        self.drop = nn.Dropout(0.3)

    def _forward(self, x):
        return self.drop(self.lin(x))

    def forward(self, x):
        return Checkpointed.apply(self._forward, x)


class Wrapped:
    def __init__(self, model):
        self.model = model

    def __call__(self, x):
        return self.model(x)


def loss_of(model, x):
    return model(x).pow(2).mean()


torch.manual_seed(0)
# CHECK-DAG: model_candidates.py:[[@LINE+1]]:38: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}model_candidates.py:[[@LINE+7]]:1
net = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.2))
block = Block()
params = list(net.parameters()) + list(block.parameters())
opt = torch.optim.SGD(params, lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(16, 4)), batch_size=4,
                    shuffle=True)
for (x,) in loader:
    loss = loss_of(Wrapped(net), x) + loss_of(lambda v: v * 2, x)
    loss = loss + block(x).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()

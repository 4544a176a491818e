# Bound methods kept as values (improved- and guided-diffusion's training
# step: `compute_losses = functools.partial(self.diffusion.training_losses,
# self.ddp_model, micro, t)`, then `compute_losses()`; a method stored in a
# variable and called later). The noise the loss draws per batch from
# torch's global generator is found. Before, the partial's function was
# nothing the points-to knew (an attribute naming a method was no value),
# and the training step drew nothing: detc reported nothing.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
import functools

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class Diffusion:
    def __init__(self, steps):
        self.steps = steps

    def training_losses(self, model, x_start):
        # CHECK-DAG: bound_method_values.py:[[@LINE+1]]:17: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}bound_method_values.py:[[@LINE+16]]:1
        noise = torch.randn_like(x_start)
        return ((model(x_start + noise) - x_start) ** 2).mean()

    def prior(self, x):
        # CHECK-DAG: bound_method_values.py:[[@LINE+1]]:16: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}bound_method_values.py:[[@LINE+11]]:1
        return torch.rand_like(x).mean()


torch.manual_seed(0)
diffusion = Diffusion(100)
model = nn.Linear(4, 4)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(16, 4)), batch_size=4,
                    shuffle=True)
regularizer = diffusion.prior
for (x,) in loader:
    compute_losses = functools.partial(diffusion.training_losses, model, x)
    loss = compute_losses() + regularizer(x)
    opt.zero_grad()
    loss.backward()
    opt.step()

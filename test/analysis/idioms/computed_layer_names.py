# Layers kept under computed names and called through them, as
# StyleGAN3's synthesis network does (`setattr(self, name, layer)` in
# `__init__`, `getattr(self, name)(x)` in `forward` over the names it
# kept): the name is any attribute of the object and its class, but no
# special method — calling `__init__` from the forward put every
# constructor's weight initialisation in the per-batch region (two false
# draws here; five on StyleGAN3, and four may-draws of scipy's filter
# design). The layers' forwards and the dropout are what runs per batch.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: computed_layer_names.py:[[@LINE+24]]:13: warning: 'setattr' changes the program in ways detc cannot see
# CHECK: computed_layer_names.py:[[@LINE+29]]:16: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}computed_layer_names.py:[[@LINE+35]]:1
# CHECK: 1 warning(s)
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Layer(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(width, width))

    def forward(self, x):
        return x @ self.weight


class Synthesis(nn.Module):
    def __init__(self, widths):
        super().__init__()
        self.layer_names = []
        self.phases = torch.rand(widths[0])
        for idx, width in enumerate(widths):
            name = f"L{idx}_{width}"
            setattr(self, name, Layer(width))
            self.layer_names.append(name)

    def forward(self, x):
        for name in self.layer_names:
            x = getattr(self, name)(x)
        return torch.nn.functional.dropout(x, 0.1, self.training)


model = Synthesis([4, 4])
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.zeros(8, 4)), batch_size=2)
for (x,) in loader:
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()

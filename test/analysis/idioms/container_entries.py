# Layers reached through a container's entry (issue 42): a call of
# `self.heads["drop"](x)` (a ModuleDict built from `dict(...)`) or of
# `self.layers[i](x)` may run any entry of the container, an entry read as
# an attribute (`self.body.h`, GPT-style models' `ModuleDict(dict(h=
# ModuleList([Block(...) ...])))`) is that entry, and a stack of
# `copy.deepcopy(block)` clones runs what the block runs. Before, none of
# them was a forward: the dropout inside was never keyed, and the
# transformed script drew its masks from torch's global generator.
# RUN: detc transform %s --emit-python -o %t.py
# RUN: FileCheck %s < %t.py
import copy

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        # CHECK: self.drop = _detc_rt.keyed_module({{[0-9]+}}, 1, nn.Dropout)(0.4)
        self.drop = nn.Dropout(0.4)

    def forward(self, x):
        return self.drop(x)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        # CHECK: block = nn.Sequential(nn.Linear(4, 4), _detc_rt.keyed_module({{[0-9]+}}, 1, nn.Dropout)(0.2))
        block = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.2))
        self.blocks = nn.ModuleList([copy.deepcopy(block) for _ in range(2)])
        # CHECK: drop=_detc_rt.keyed_module({{[0-9]+}}, 1, nn.Dropout)(0.3)))
        self.heads = nn.ModuleDict(dict(out=nn.Linear(4, 2), drop=nn.Dropout(0.3)))
        # CHECK: self.extra = nn.ModuleList([nn.Linear(4, 4), _detc_rt.keyed_module({{[0-9]+}}, 1, nn.Dropout)(0.1)])
        self.extra = nn.ModuleList([nn.Linear(4, 4), nn.Dropout(0.1)])
        self.body = nn.ModuleDict(dict(h=nn.ModuleList([Block() for _ in range(2)])))

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        x = self.extra[1](self.extra[0](x))
        for blk in self.body.h:
            x = blk(x)
        return self.heads["out"](self.heads["drop"](x))


torch.manual_seed(0)
loader = DataLoader(TensorDataset(torch.randn(16, 4)), batch_size=4,
                    num_workers=2)
model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for (x,) in loader:
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()

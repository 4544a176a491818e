# A module that runs its parts by iterating them (DeepLabV3Plus's
# IntermediateLayerGetter, an nn.ModuleDict subclass built from another
# model's `named_children()`, whose forward runs `for name, module in
# self.named_children(): x = module(x)`). `named_children()` held nothing:
# "may draw: 'module' is a callee detc cannot trace", and the backbone's
# dropout unreported. Iterating a module's parts (children,
# named_children, modules, named_modules) gives what its attributes and
# entries hold; the dropout is found where it is made.
# RUN: detc analyze %s --python none 2>&1 | FileCheck %s
# CHECK-NOT: may draw
# CHECK: module_parts_iteration.py:[[@LINE+14]]:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK-NOT: may draw
# CHECK: 1 warning(s)
from collections import OrderedDict

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Linear(4, 4)
        self.drop = nn.Dropout(0.2)
        self.head = nn.Linear(4, 2)


class Getter(nn.ModuleDict):
    def __init__(self, model, return_layers):
        layers = OrderedDict()
        for name, module in model.named_children():
            layers[name] = module
            if name in return_layers:
                break
        super().__init__(layers)
        self.return_layers = return_layers

    def forward(self, x):
        out = OrderedDict()
        for name, module in self.named_children():
            x = module(x)
            if name in self.return_layers:
                out[name] = x
        return out


model = Getter(Backbone(), {"drop"})
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(8, 4)), batch_size=2)
for (x,) in loader:
    loss = model(x)["drop"].sum()
    opt.zero_grad()
    loss.backward()
    opt.step()

# A program class derived from a library layer that draws: one overriding
# forward and calling `super().forward(x)` (a dropout variant), one with no
# forward of its own. Both ran torch's dropout with nothing reported: the
# super() call was followed into the program's bases only, and the build
# of a class without a forward ran nothing.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK-DAG: library_layer_subclass.py:[[@LINE+9]]:16: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK-DAG: library_layer_subclass.py:[[@LINE+16]]:1: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK: 2 warning(s)
import torch
import torch.nn as nn


class ScaledDropout(nn.Dropout):
    def forward(self, x):
        return super().forward(x) * 0.5


class NamedDropout(nn.Dropout2d):
    pass


model = nn.Sequential(nn.Linear(4, 4), ScaledDropout(0.2))
head = nn.Sequential(nn.Linear(4, 2), NamedDropout(0.1))
opt = torch.optim.SGD(list(model.parameters()) + list(head.parameters()), lr=0.1)
for x in torch.utils.data.DataLoader(torch.randn(8, 4), batch_size=2):
    opt.zero_grad()
    head(model(x)).sum().backward()
    opt.step()

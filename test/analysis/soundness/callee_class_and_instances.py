# A callee that may be a layer instance or a layer class (a list of layers
# built from config names by `eval` holds both when its candidates are
# over-approximated): the call constructs the class as one alternative and
# runs the instances' forwards as the others. More candidates must never
# mean fewer findings; the forward was dropped, and the dropout in it went
# unreported.
# RUN: detc analyze %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: callee_class_and_instances.py:[[@LINE+12]]:16: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}callee_class_and_instances.py:[[@LINE+29]]:1
# CHECK: 1 warning(s)
import torch
import torch.nn as nn


class Drop(nn.Module):
    def __init__(self, p=0.5):
        super().__init__()
        self.p = p

    def forward(self, x):
        return nn.functional.dropout(x, self.p)


class Model(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.layers = layers

    def forward(self, x):
        for m in self.layers:
            x = m(x)
        return x


model = Model([Drop(0.1), Drop])
loader = torch.utils.data.DataLoader(torch.randn(8, 4), batch_size=2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x in loader:
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()

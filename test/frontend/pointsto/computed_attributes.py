# `getattr(obj, name)` with a computed name reads any attribute of obj,
# unless the source shows every name it may be: a local bound only by
# loops over literal strings (and slices of them), an f-string or `+`/`%`
# with a constant head (the attributes starting with it). timm's ResNet
# (`for n in layer_names: x = getattr(self, n)(x)`) called every method of
# the model with an activation and its points-to took 80 s and 7.7 GB;
# 1.4 s now. A parameter, a name bound by unpacking, or a list the
# function may change (`names.append(extra)`) stays any attribute — and
# the dropout reached through a read name is still found.
# RUN: detc %s --emit=points-to | FileCheck %s
# RUN: detc analyze %s 2>&1 | FileCheck %s --check-prefix=DRAW
# CHECK-LABEL: scope Net.forward
# CHECK: block -> {torch.nn.ReLU@[[@LINE+20]]:23}
# CHECK: n -> {'layer1', 'layer2'}
# CHECK: step -> {torch.nn.Dropout@[[@LINE+17]]:23, torch.nn.Linear@[[@LINE+16]]:23}
# CHECK-LABEL: scope Net.grown
# CHECK: found -> {{{.*}}def Net.forward{{.*}}torch.nn.Dropout{{.*}}torch.nn.Linear{{.*}}torch.nn.ReLU
# CHECK-LABEL: scope Net.pick
# CHECK: picked -> {{{.*}}def Net.forward{{.*}}torch.nn.Dropout{{.*}}torch.nn.Linear{{.*}}torch.nn.ReLU
# CHECK-LABEL: scope Net.unpacked
# CHECK: other -> {{{.*}}def Net.forward{{.*}}torch.nn.Dropout{{.*}}torch.nn.Linear{{.*}}torch.nn.ReLU
# CHECK-LABEL: scope __main__
# DRAW: computed_attributes.py:[[@LINE+9]]:23: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.layer1 = nn.Linear(4, 4)
        self.layer2 = nn.Dropout(0.5)
        self.block0 = nn.ReLU()
        self.head = nn.Linear(4, 2)
        self.k = k

    def forward(self, x):
        names = ("layer1", "layer2")
        if self.k:
            names = names[: self.k]
        for n in names:
            step = getattr(self, n)
            x = step(x)
        for i in range(1):
            block = getattr(self, f"block{i}")
            x = block(x)
        return self.head(x)

    def pick(self, name):
        picked = getattr(self, name)
        return picked

    def unpacked(self):
        a, name = "x", "layer1"
        other = getattr(self, name)
        return other

    def grown(self, extra):
        names = ["layer1"]
        names.append(extra)
        for n in names:
            found = getattr(self, n)
        return found


net = Net(1)
out = net(torch.zeros(1, 4))
p = net.pick("head")
u = net.unpacked()
g = net.grown("head")
opt = torch.optim.SGD(net.parameters(), lr=0.1)
loader = torch.utils.data.DataLoader(torch.zeros(8, 4), batch_size=2)
for x in loader:
    opt.zero_grad()
    net(x).sum().backward()
    opt.step()

# A program class deriving from a library container (DETR's
# `class Joiner(nn.Sequential)`: `super().__init__(backbone, pos)`, then
# `self[0](x)` in its forward) holds its parts as the library object does:
# `self[0]` is the backbone, whose dropout draws, and not "code detc could
# not read" (two may-draw findings on every DETR forward before).
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK-NOT: may draw
# CHECK: sequential_subclass.py:[[@LINE+10]]:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK-NOT: may draw
# CHECK: 1 warning(s)
import torch
from torch import nn


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        return self.drop(x)


class Joiner(nn.Sequential):
    def __init__(self, backbone, position):
        super().__init__(backbone, position)

    def forward(self, x):
        features = self[0](x)
        return self[1](features)


model = Joiner(Backbone(), nn.ReLU())
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = torch.utils.data.DataLoader(torch.zeros(8, 4), batch_size=2)
for x in loader:
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()

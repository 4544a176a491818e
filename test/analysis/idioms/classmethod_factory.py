# A model built by a classmethod of its class (EfficientNet-PyTorch's
# `EfficientNet.from_name(name)`, which returns `cls(blocks_args, ...)`):
# the class is the method's first argument, so `cls(...)` builds the model
# and its dropout is found (before: the model was code detc could not read,
# a may-draw, and the dropout was missed).
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: classmethod_factory.py:[[@LINE+11]]:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}classmethod_factory.py:[[@LINE+25]]:1
# CHECK: 1 warning(s)
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc = nn.Linear(width, width)
        self.drop = nn.Dropout(0.2)

    def forward(self, x):
        return self.drop(self.fc(x))

    @classmethod
    def from_name(cls, name, **override):
        model = cls(4)
        return model


model = Net.from_name("b0")
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.zeros(8, 4)), batch_size=2)
for (x,) in loader:
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()

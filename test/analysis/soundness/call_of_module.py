# Calling a module object raises TypeError: Pytorch-UNet's
# `use_checkpointing` replaces each layer by `torch.utils.checkpoint(layer)`
# (the module, not its `checkpoint` function). That was "a name of 'torch'
# that no API table describes" for the call and for each layer called
# afterwards: ten may-draws on its forward. The table declares
# `torch.utils.checkpoint` a module: its call draws nothing (it cannot
# run), and the layers' own forwards are still followed.
# RUN: detc analyze %s --python none 2>&1 | FileCheck %s
# CHECK-NOT: may draw
# CHECK: call_of_module.py:[[@LINE+12]]:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK-NOT: may draw
# CHECK: 1 warning(s)
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.inc = nn.Linear(4, 4)
        self.drop = nn.Dropout(0.2)

    def forward(self, x):
        return self.drop(self.inc(x))

    def use_checkpointing(self):
        self.inc = torch.utils.checkpoint(self.inc)
        self.drop = torch.utils.checkpoint(self.drop)


model = Net()
model.use_checkpointing()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(8, 4)), batch_size=2)
for (x,) in loader:
    loss = model(x).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()

# Module containers filled after they are built, as hifi-gan's generator
# fills `self.ups = nn.ModuleList()` with `self.ups.append(...)` in a loop
# and calls `self.ups[i](x)`; `nn.Sequential().add_module(name, layer)`
# likewise, and `self.streams += [Block(w)]` (OSNet's), iterated in the
# forward (before: the loop's callee was "a callee detc cannot trace" and
# the block's dropout was missed). Their elements are what the indexing and the forward reach:
# the blocks' dropout is found, and a container of layers that draw
# nothing is not "may draw" (before: three "a callee detc cannot trace"
# findings on hifi-gan, and the dropout here was one of those).
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK-NOT: may draw
# CHECK-DAG: module_list_append.py:[[@LINE+14]]:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}module_list_append.py:[[#LOOP:]]:1
# CHECK-DAG: module_list_append.py:[[@LINE+28]]:39: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}module_list_append.py:[[#LOOP]]:1
# CHECK-NOT: may draw
# CHECK: 2 warning(s)
import torch
import torch.nn as nn
from torch.nn.utils import weight_norm
from torch.utils.data import DataLoader, TensorDataset


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.conv = nn.Conv1d(width, width, 3, padding=1)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        return x + self.drop(self.conv(x))


class Generator(nn.Module):
    def __init__(self, widths):
        super().__init__()
        self.ups = nn.ModuleList()
        self.blocks = nn.ModuleList()
        for w in widths:
            self.ups.append(weight_norm(nn.Conv1d(w, w, 1)))
            self.blocks.append(Block(w))
        self.post = nn.Sequential()
        self.post.add_module("noise", nn.Dropout(0.2))
        self.streams = nn.ModuleList()
        for w in widths:
            self.streams += [Block(w)]

    def forward(self, x):
        for i in range(len(self.ups)):
            x = self.blocks[i](self.ups[i](x))
        for stream in self.streams:
            x = stream(x)
        return self.post(x)


model = Generator([4, 4])
loader = DataLoader(TensorDataset(torch.randn(8, 4, 16)), batch_size=2)
for (x,) in loader:
    model(x).mean().backward()

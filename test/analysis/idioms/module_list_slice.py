# A slice of a module list (`self.maxpools[::-1]`, `self.blocks[1:]`) is a
# list of its layers: a loop over it runs them. bubbliiiing/yolov4-pytorch's
# SPP pools with `[maxpool(x) for maxpool in self.maxpools[::-1]]`; the
# slice was read as one element, so the loop ran the elements' elements —
# nothing — and every pooling call was "may draw: calls code detc could
# not read". A layer reached only through a slice (the dropout below, and
# the one the tuple slice's first element is) is found.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s
# CHECK-NOT: may draw: 'maxpool'
# CHECK: module_list_slice.py:[[@LINE+13]]:53: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK-NOT: may draw
# CHECK: 1 warning(s)
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class SPP(nn.Module):
    def __init__(self, sizes=(5, 9, 13)):
        super().__init__()
        self.maxpools = nn.ModuleList([nn.MaxPool2d(s, 1, s // 2)
                                       for s in sizes])
        self.blocks = nn.ModuleList([nn.Identity(), nn.Dropout(0.5)])
        self.head = (nn.Identity(), nn.Identity())

    def forward(self, x):
        features = [maxpool(x) for maxpool in self.maxpools[::-1]]
        x = torch.cat(features + [x], dim=1)
        for block in self.blocks[1:]:
            x = block(x)
        return self.head[1:][0](x)


torch.manual_seed(0)
model = SPP()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for (x,) in DataLoader(TensorDataset(torch.randn(8, 1, 4, 4)), batch_size=2):
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()

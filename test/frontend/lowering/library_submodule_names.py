# Names one module below a library's wildcard that projects use: the
# blocks of torchvision.models.resnet (`from torchvision.models.resnet
# import BasicBlock`, a backbone of the project's own) and `np.math`
# (Python's math, re-exported by numpy before 2.0). Each was a name no
# table described: "may draw" in every forward and every example
# (bearpaw/pytorch-pose).
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK-NOT: warning:
# CHECK: 0 warning(s)
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset
from torchvision.models.resnet import BasicBlock, Bottleneck


class Crops(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        side = int(np.math.floor(8 * 1.5))
        return torch.zeros(3, side, side)


class Backbone(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.block = BasicBlock(3, 3)
        self.neck = Bottleneck(3, 3)

    def forward(self, x):
        return self.neck(self.block(x))


model = Backbone()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x in DataLoader(Crops(), batch_size=2, num_workers=2):
    opt.zero_grad()
    model(x).mean().backward()
    opt.step()

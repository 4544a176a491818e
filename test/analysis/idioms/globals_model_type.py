# A model class picked from the module's globals by name, in the shape of
# EDM's preconditioners (`self.model = globals()[model_type](**kwargs)`):
# the candidates are every class and function of the module, and each
# class is constructed as an alternative beside the functions (before:
# the functions were called and the classes dropped, so the model's
# forward was never reached — silent). The U-Net keeps its blocks in an
# nn.ModuleDict filled by key and iterated with `items()`: a dict of its
# parts (before: each block a callee detc could not trace).
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: globals_model_type.py:[[@LINE+18]]:24: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}globals_model_type.py:[[@LINE+46]]:1
# CHECK: 1 warning(s)
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def weight_init(shape):
    return torch.zeros(shape)


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc = nn.Linear(width, width)

    def forward(self, x):
        return self.fc(torch.nn.functional.dropout(x, p=0.1, training=self.training))


class SongUNet(nn.Module):
    def __init__(self, width=4):
        super().__init__()
        self.enc = nn.ModuleDict()
        for level in range(2):
            self.enc[f"{level}_block"] = Block(width)

    def forward(self, x):
        for name, block in self.enc.items():
            x = block(x)
        return x


class Precond(nn.Module):
    def __init__(self, model_type="SongUNet", **model_kwargs):
        super().__init__()
        self.model = globals()[model_type](**model_kwargs)

    def forward(self, x):
        return self.model(x)


net = Precond(model_type="SongUNet", width=4)
opt = torch.optim.Adam(net.parameters())
loader = DataLoader(TensorDataset(torch.zeros(8, 4)), batch_size=2)
for (x,) in loader:
    opt.zero_grad()
    net(x).sum().backward()
    opt.step()

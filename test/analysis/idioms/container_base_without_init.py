# A program class without an `__init__` of its own deriving from a
# library container (improved-diffusion's and guided-diffusion's
# `class TimestepEmbedSequential(nn.Sequential, TimestepBlock)`, built
# with its layers and run with `for layer in self: x = layer(x, emb)`).
# Only an explicit `super().__init__(*layers)` kept the parts, so `layer`
# held nothing ("may draw: 'layer' is a callee detc cannot trace") and
# the residual block's dropout was unreported. Constructing such a class
# runs the container's constructor: its parts are the arguments.
# RUN: detc analyze %s --python none 2>&1 | FileCheck %s
# CHECK-NOT: may draw
# CHECK: container_base_without_init.py:[[@LINE+16]]:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK-NOT: may draw
# CHECK: 1 warning(s)
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Block(nn.Module):
    def forward(self, x, emb):
        raise NotImplementedError


class Res(Block):
    def __init__(self):
        super().__init__()
        self.drop = nn.Dropout(0.1)

    def forward(self, x, emb):
        return self.drop(x) + emb


class EmbedSequential(nn.Sequential, Block):
    def forward(self, x, emb):
        for layer in self:
            if isinstance(layer, Block):
                x = layer(x, emb)
            else:
                x = layer(x)
        return x


model = EmbedSequential(nn.Linear(4, 4), Res())
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(8, 4)), batch_size=2)
for (x,) in loader:
    loss = model(x, x).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()

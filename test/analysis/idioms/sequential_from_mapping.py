# Layers given to a container through a mapping (issue 42), as
# davda54/sam's WideResNet builds its units:
# `nn.Sequential(OrderedDict([("0_fc", ...), ("1_dropout", nn.Dropout(p))]))`
# with p from the command line. The OrderedDict's entries were not
# modelled (made from a list of pairs), so the Sequential had no parts and
# every dropout of the model was silent; a dict made from pairs
# (`dict([("drop", layer)])`) held the pairs, not the layers.
# RUN: detc analyze %s --python none 2>&1 | FileCheck %s --check-prefix=FIND
# RUN: detc transform %s --emit-python --python none -o %t.py
# RUN: FileCheck %s < %t.py
import argparse
from collections import OrderedDict

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Unit(nn.Module):
    def __init__(self, dropout):
        super().__init__()
        # FIND-DAG: [[@LINE+4]]:27: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
        # CHECK: ("1_dropout", _detc_rt.keyed_module({{[0-9]+}}, 1, nn.Dropout)(dropout, inplace=True)),
        self.block = nn.Sequential(OrderedDict([
            ("0_fc", nn.Linear(4, 4)),
            ("1_dropout", nn.Dropout(dropout, inplace=True)),
        ]))

    def forward(self, x):
        return x + self.block(x)


class Net(nn.Module):
    def __init__(self, depth, dropout):
        super().__init__()
        self.f = nn.Sequential(OrderedDict([
            ("0_block", nn.Sequential(*(Unit(dropout) for _ in range(depth)))),
            ("1_fc", nn.Linear(4, 2)),
        ]))
        # FIND-DAG: [[@LINE+2]]:37: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
        # CHECK: self.heads = dict([("drop", _detc_rt.keyed_module({{[0-9]+}}, 1, nn.Dropout)(0.1))])
        self.heads = dict([("drop", nn.Dropout(0.1))])

    def forward(self, x):
        return self.f(self.heads["drop"](x))


parser = argparse.ArgumentParser()
parser.add_argument("--dropout", default=0.0, type=float)
args = parser.parse_args()
torch.manual_seed(0)
loader = DataLoader(TensorDataset(torch.randn(16, 4),
                                  torch.zeros(16, dtype=torch.long)),
                    batch_size=4, num_workers=2)
model = Net(2, args.dropout)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for batch in loader:
    x, y = (b for b in batch)
    opt.zero_grad()
    nn.functional.cross_entropy(model(x), y).backward()
    opt.step()
# FIND: 2 warning(s)

# A model part whose builder the script passes in (MoCo v3:
# `MoCo(partial(models.__dict__[args.arch], zero_init_residual=True))`,
# whose __init__ calls `base_encoder(num_classes=mlp_dim)`): the parameter
# holds a library callable, directly or through functools.partial, or a
# builder of the program's own module picked from its `__dict__`. The
# encoder's forward in the training loop draws as that callable's model
# does. Before, `encoder(num_classes=10)` on a parameter was a plain
# statement and the forward drew nothing: detc reported nothing.
# `models.__dict__[name]` with a computed name was `torchvision.models.*`,
# which the tables' wildcard of deterministic builders described; it is
# the table's `__dict__` entry (any model) now. A partial may bind a
# probability the call does not show (the LSTM's dropout); a partial of a
# deterministic builder adds nothing (RESNET). Given the program's
# builders in one call and a library's in another (MIXED), the forward is
# lowered as the program's and may draw through the library's.
# RUN: detc analyze --python none %s --path %S/Inputs/encoder_zoo 2>&1 | FileCheck %s --check-prefixes=CHECK,ENCODER --implicit-check-not=warning:
# RUN: sed -e 's/^model = Pair(.*/model = Pair(partial(models.__dict__[args.arch], zero_init_residual=True))/' %s > %t.partial.py
# RUN: detc analyze --python none %t.partial.py --path %S/Inputs/encoder_zoo 2>&1 | FileCheck %s --check-prefixes=CHECK,ENCODER --implicit-check-not=warning:
# RUN: sed -e 's/^model = Pair(.*/model = Pair(partial(models.vgg11, init_weights=False))/' %s > %t.vgg.py
# RUN: detc analyze --python none %t.vgg.py --path %S/Inputs/encoder_zoo 2>&1 | FileCheck %s --check-prefixes=CHECK,ENCODER --implicit-check-not=warning:
# RUN: sed -e 's/^model = Pair(.*/model = Pair(partial(encoders.__dict__[args.encoder]))/' %s > %t.zoo.py
# RUN: detc analyze --python none %t.zoo.py --path %S/Inputs/encoder_zoo 2>&1 | FileCheck %s --check-prefixes=CHECK,ZOO --implicit-check-not=warning:
# RUN: sed -e 's/^model = Pair(.*/model = Pair(partial(models.resnet18, zero_init_residual=True))/' %s > %t.resnet.py
# RUN: detc analyze --python none %t.resnet.py --path %S/Inputs/encoder_zoo 2>&1 | FileCheck %s --implicit-check-not=warning:
# RUN: sed -e 's/^model = Pair(.*/model = Pair(models.vgg11 if args.arch == "vgg" else encoders.linear)/' %s > %t.mixed.py
# RUN: detc analyze --python none %t.mixed.py --path %S/Inputs/encoder_zoo 2>&1 | FileCheck %s --check-prefixes=CHECK,MIXED --implicit-check-not=warning:
import argparse
from functools import partial

import encoders
import torch
import torchvision.models as models
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--arch", default="resnet18")
parser.add_argument("--encoder", default="linear")
args = parser.parse_args()


class Pair(nn.Module):
    def __init__(self, encoder, dim=10):
        super().__init__()
        # ENCODER-DAG: .py:[[@LINE+1]]:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
        self.base = encoder(num_classes=dim)

    def forward(self, x):
        # MIXED-DAG: .py:[[@LINE+2]]:16: warning: may draw: 'self.base' calls code detc could not read
        # MIXED-DAG: note: 'self.base' is 'torchvision.models.vgg11', a library callable that draws, among what the callee may be
        return self.base(x)


class Sequence(nn.Module):
    def __init__(self, rnn):
        super().__init__()
        # CHECK-DAG: .py:[[@LINE+1]]:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
        self.body = rnn(12, 10, num_layers=2)

    def forward(self, x):
        return self.body(x.flatten(1).unsqueeze(0))[0][0]


torch.manual_seed(0)
model = Pair(models.__dict__[args.arch])
rnn = Sequence(partial(nn.LSTM, dropout=0.3))
opt = torch.optim.SGD(list(model.parameters()) + list(rnn.parameters()),
                      lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(8, 3, 2, 2),
                                  torch.randint(0, 10, (8,))),
                    batch_size=4, shuffle=True)
for x, y in loader:
    loss = nn.functional.cross_entropy(model(x) + rnn(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
# ZOO-DAG: encoders.py:8:{{[0-9]+}}: warning: generator 'torch' (global) is used inside the per-batch data-parallel region

# Names of a library module chosen at run time (issue 42, sound by
# default): `getattr(nn, args.rnn_type)` and `nn.__dict__[name]` may be any
# name of torch.nn, dropout and LSTM(dropout=) included, so the layer may
# draw; `getattr(torch.optim, args.optimizer)` is an optimizer over the
# parameters it gets. A name written out is that name.
# RUN: detc %s | FileCheck %s
# RUN: detc analyze %s | FileCheck %s --check-prefix=LINT
import argparse

import torch
from torch import nn

parser = argparse.ArgumentParser()
parser.add_argument("--rnn-type", default="LSTM")
parser.add_argument("--optimizer", default="SGD")
args = parser.parse_args()


class Model(nn.Module):
    def __init__(self, n):
        super().__init__()
        # LINT: dynamic_lookup.py:[[@LINE+1]]:20: warning: generator 'torch' (global) is used inside the per-batch
        self.rnn = getattr(nn, args.rnn_type)(n, n, 2, dropout=0.5)
        self.act = nn.__dict__["ReLU"]()
        self.out = getattr(nn, "Linear")(n, 1)

    def forward(self, x):
        return self.out(self.act(self.rnn(x)[0]))


model = Model(4)
opt = getattr(torch.optim, args.optimizer)(model.parameters(), lr=0.1)
loader = torch.utils.data.DataLoader(torch.randn(64, 3, 4), batch_size=8)
for x in loader:
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()

# CHECK: detc.lib_call "optimizer" defs ["@opt"] uses ["@model"] {api = "torch.optim.__dict__"}
# CHECK: detc.update "@opt" updates ["@model", "@opt"]
# CHECK: detc.build {{.*}}api = "torch.nn.__dict__"
# CHECK-NEXT: detc.draw "<torch>" dist "library_dropout"
# CHECK: detc.build {{.*}}api = "torch.nn.ReLU"} {
# CHECK-NEXT: }
# CHECK: detc.build {{.*}}api = "torch.nn.Linear"} {
# CHECK-NEXT: }
# LINT: 1 warning(s)

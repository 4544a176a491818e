# Forwards detc cannot see as a variable's model are traced by what they
# are (docs/traincheck.md, "Descriptors"): a model a call returns,
# `get_model()(x)`, is `forward:model` (with the loss its result feeds),
# and a call of code detc could not read (a model from a package it did
# not find) is `forward:any`, which the runtime traces as a forward only
# when the callee is a module. A call outside loops is left alone.
# RUN: detc transform %s --emit-python --trace=%t.dir -o %t.py 2>/dev/null
# RUN: FileCheck %s < %t.py
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
# CHECK: net = ResNet18()
# CHECK: feats = _detc_rt.trace.api({{[0-9]+}}, "forward", 'forward:any', net)(x)  # detc: traced
# CHECK-NEXT: out = _detc_rt.trace.api({{[0-9]+}}, "forward", 'forward:model', _detc_rt.trace.api({{[0-9]+}}, "function", 'call:get_model', get_model)(), feeds='crossentropy')(feats)  # detc: traced
# CHECK: logits = _detc_rt.trace.api({{[0-9]+}}, "forward", 'forward:any', net, feeds='nll')(x)  # detc: traced
import torch
import torch.nn as nn
import torch.nn.functional as F
from detc_test_missing_package.models import ResNet18
from torch.utils.data import DataLoader, TensorDataset

HEAD = nn.Linear(8, 3)


def get_model():
    return HEAD


def main():
    data = TensorDataset(torch.randn(32, 8), torch.randint(0, 3, (32,)))
    loader = DataLoader(data, batch_size=8)
    net = ResNet18()
    opt = torch.optim.SGD(list(net.parameters()) + list(HEAD.parameters()),
                          lr=0.1)
    for x, y in loader:
        opt.zero_grad()
        feats = net(x)
        out = get_model()(feats)
        loss = F.cross_entropy(out, y)
        loss.backward()
        opt.step()
    for x, y in loader:
        logits = net(x)
        print(F.nll_loss(logits, y))


main()
